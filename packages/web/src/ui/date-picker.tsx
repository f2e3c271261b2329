import * as Popover from "@radix-ui/react-popover";
import {
  birthDateMask,
  type DateBounds,
  datePicker,
  datePickerRange,
  isValidIsoDate,
  toIsoDate,
} from "@trialdesk/domain";
import { CalendarDays } from "lucide-react";
import { useState } from "react";
import { DayPicker } from "react-day-picker";
import "react-day-picker/style.css";
import type { ControlProps } from "./field";
import { FieldPopover } from "./field-popover";
import { Input } from "./input";

/** A calendar day at local midnight, so the picker shows the day that was written. */
function fromIso(iso: string): Date {
  const [year, month, day] = iso.split("-").map(Number);
  return new Date(year, month - 1, day);
}

/**
 * The one date input of the app (spec §9): typed as yyyy-MM-dd — digits only, the hyphens come by
 * themselves — or picked from a calendar whose week starts on Monday. Without bounds of its own
 * the calendar spans 10 years back to 5 years ahead. The value is the ISO text as typed, so an
 * unfinished date stays visible until it is finished (the server refuses one that is not a day).
 */
export function DatePicker({
  value,
  onChange,
  min,
  max,
  invalid,
  disabled,
  readOnly,
  label,
  className = "",
  ...control
}: ControlProps & {
  /** The field's label: the calendar button is called "Open calendar for {label}". */
  label?: string;
  value: string | null | undefined;
  onChange: (value: string) => void;
  /** Earliest and latest day that can be picked (yyyy-MM-dd). */
  min?: string;
  max?: string;
  invalid?: boolean;
  disabled?: boolean;
  readOnly?: boolean;
  className?: string;
}) {
  const [open, setOpen] = useState(false);
  const { required: _required, ...inputControl } = control;
  const text = value ?? "";
  const chosen = isValidIsoDate(text) ? fromIso(text) : undefined;

  // Bounds are worked out when the calendar opens, so "today" is the day it is opened.
  const bounds = (): DateBounds => {
    const range = datePickerRange(toIsoDate(new Date()));
    return { min: min ?? range.min, max: max ?? range.max };
  };
  const { min: first, max: last } = bounds();
  const shownMonth = (() => {
    if (chosen) return chosen;
    const today = toIsoDate(new Date());
    return fromIso(today < first ? first : today > last ? last : today);
  })();

  return (
    <div className={`flex w-full max-w-48 items-stretch gap-1 ${className}`}>
      <Input
        {...inputControl}
        required={control.required}
        type="text"
        inputMode="numeric"
        placeholder={datePicker.format}
        maxLength={10}
        autoComplete="off"
        invalid={invalid || Boolean(control["aria-invalid"])}
        disabled={disabled}
        readOnly={readOnly}
        value={text}
        onChange={(event) => onChange(birthDateMask(event.target.value))}
      />
      <Popover.Root open={open} onOpenChange={setOpen}>
        <Popover.Trigger asChild disabled={disabled || readOnly}>
          <button
            type="button"
            className="flex shrink-0 items-center rounded-md border border-gray-300 bg-white px-2 text-gray-700 shadow-sm hover:bg-gray-50 focus-visible:outline-2 focus-visible:outline-blue-600 disabled:bg-gray-100"
          >
            <CalendarDays aria-hidden="true" className="size-4" />
            {/* Named after its field, so several on one form differ (issue 15); the name is text, not
                aria-label, so that the field's label still names only the input. */}
            <span className="sr-only">{label ? `Open calendar for ${label}` : "Open calendar"}</span>
          </button>
        </Popover.Trigger>
        <FieldPopover
          fieldId={control.id}
          className="z-50 rounded-md border border-gray-200 bg-white p-2 text-sm shadow-lg [--rdp-accent-background-color:var(--color-blue-50)] [--rdp-accent-color:var(--color-blue-700)] [--rdp-day-height:2.25rem] [--rdp-day-width:2.25rem] [--rdp-day_button-height:2.1rem] [--rdp-day_button-width:2.1rem]"
        >
          <DayPicker
            mode="single"
            autoFocus
            weekStartsOn={datePicker.weekStartsOn}
            captionLayout="dropdown"
            startMonth={fromIso(first)}
            endMonth={fromIso(last)}
            defaultMonth={shownMonth}
            disabled={[{ before: fromIso(first) }, { after: fromIso(last) }]}
            selected={chosen}
            onSelect={(day) => {
              if (day) onChange(toIsoDate(day));
              setOpen(false);
            }}
          />
        </FieldPopover>
      </Popover.Root>
    </div>
  );
}
