import type { ReactNode } from "react";

/** What the on/off controls (checkbox, switch) take alike; all but the label go to the Radix control. */
export type ToggleProps = {
  id: string;
  label: string;
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  disabled?: boolean;
};

/** An on/off control with its label after it: the label is clickable and names the control. */
export function Labelled({
  id,
  label,
  labelClassName,
  children,
}: {
  id: string;
  label: string;
  labelClassName: string;
  children: ReactNode;
}) {
  return (
    <div className="flex items-center gap-2">
      {children}
      <label htmlFor={id} className={labelClassName}>
        {label}
      </label>
    </div>
  );
}
