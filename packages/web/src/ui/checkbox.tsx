import * as RadixCheckbox from "@radix-ui/react-checkbox";
import { Check } from "lucide-react";
import { Labelled, type ToggleProps } from "./labelled";

/** A labelled checkbox (Radix): the label is clickable and names the control. */
export function Checkbox({ label, onCheckedChange, ...control }: ToggleProps) {
  return (
    <Labelled id={control.id} label={label} labelClassName="text-sm text-gray-800">
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
