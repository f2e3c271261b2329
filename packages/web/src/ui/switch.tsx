import * as RadixSwitch from "@radix-ui/react-switch";
import { Labelled, type ToggleProps } from "./labelled";

/** A labelled on/off switch (Radix): the label is clickable and names the control. */
export function Switch({ label, describedBy, ...control }: ToggleProps & { describedBy?: string }) {
  return (
    <Labelled id={control.id} label={label} labelClassName="text-sm font-medium text-gray-800">
      <RadixSwitch.Root
        {...control}
        aria-describedby={describedBy}
        className="relative inline-flex h-5 w-9 shrink-0 items-center rounded-full bg-gray-300 transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 disabled:opacity-50 data-[state=checked]:bg-red-600"
      >
        <RadixSwitch.Thumb className="block size-4 translate-x-0.5 rounded-full bg-white shadow transition-transform data-[state=checked]:translate-x-[1.125rem]" />
      </RadixSwitch.Root>
    </Labelled>
  );
}
