import * as RadixCheckbox from "@radix-ui/react-checkbox";
import { Check } from "lucide-react";
import { Labelled, type ToggleProps } from "./labelled";

/**
 * A labelled checkbox (Radix): the label is clickable and names the control. `hideLabel` keeps the
 * label for assistive technology only, where its row says it already (a table's selection column).
 */
export function Checkbox({
  label,
  onCheckedChange,
  hideLabel = false,
  ...control
}: ToggleProps & { hideLabel?: boolean }) {
  return (
    <Labelled id={control.id} label={label} labelClassName={hideLabel ? "sr-only" : "text-sm text-gray-800"}>
      <RadixCheckbox.Root
        {...control}
        onCheckedChange={(value) => onCheckedChange(value === true)}
        className="flex size-4 items-center justify-center rounded border border-gray-400 bg-white focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 data-[state=checked]:border-blue-700 data-[state=checked]:bg-blue-700"
      >
        <RadixCheckbox.Indicator>
          <Check aria-hidden="true" className="size-3 text-white" />
        </RadixCheckbox.Indicator>
      </RadixCheckbox.Root>
    </Labelled>
  );
}
