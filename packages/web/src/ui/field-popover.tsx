import * as Popover from "@radix-ui/react-popover";

/**
 * What a field's control opens (a select's list, the calendar): a popover under the control, named
 * by the field's label (Field gives it the id "{id}-label").
 */
export function FieldPopover({ fieldId, ...props }: Popover.PopoverContentProps & { fieldId: string }) {
  return (
    <Popover.Portal>
      <Popover.Content align="start" sideOffset={4} aria-labelledby={`${fieldId}-label`} {...props} />
    </Popover.Portal>
  );
}
