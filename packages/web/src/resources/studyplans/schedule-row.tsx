import {
  numberOrNull,
  type ScheduleEntry,
  scheduleDaysDigits,
  scheduleNumber,
  scheduleRowText,
  scheduleWindowDigits,
} from "@trialdesk/domain";
import { CalendarClock, Check, X } from "lucide-react";
import { type KeyboardEvent, useEffect, useId, useRef, useState } from "react";
import { Button } from "../../ui/button";
import { Input } from "../../ui/input";

export type StepSettings = Pick<ScheduleEntry, "daysFromStart" | "allowedDaysBefore" | "allowedDaysAfter">;

/**
 * The schedule row between two consecutive studyplan visits (spec §2.5): "N days (-before / +after)".
 * A click (or Enter) opens the inline editor for Days, Window before and Window after; Save keeps,
 * Cancel and Escape drop the edit.
 */
export function ScheduleRow({
  entry,
  from,
  to,
  onSave,
  disabled,
}: {
  entry: StepSettings;
  from: string;
  to: string;
  onSave: (settings: StepSettings) => void;
  disabled?: boolean;
}) {
  const [editing, setEditing] = useState(false);
  const text = scheduleRowText(entry);
  // Closing the editor hands the focus back to the row, so keyboard users keep their place.
  const button = useRef<HTMLButtonElement>(null);
  const wasEditing = useRef(false);
  useEffect(() => {
    if (!editing && wasEditing.current) button.current?.focus();
    wasEditing.current = editing;
  }, [editing]);
  if (!editing)
    return (
      <div className="flex justify-center py-1">
        <button
          ref={button}
          type="button"
          disabled={disabled}
          aria-label={`Schedule from ${from} to ${to}: ${text}`}
          onClick={() => setEditing(true)}
          className="inline-flex items-center gap-1.5 rounded-full border border-dashed border-gray-300 bg-gray-50 px-3 py-0.5 text-xs text-gray-700 hover:border-blue-400 hover:bg-blue-50 focus-visible:outline-2 focus-visible:outline-blue-600 disabled:cursor-default disabled:hover:border-gray-300 disabled:hover:bg-gray-50"
        >
          <CalendarClock aria-hidden="true" className="size-3.5" />
          {text}
        </button>
      </div>
    );
  return (
    <ScheduleEditor
      entry={entry}
      label={`Schedule from ${from} to ${to}`}
      onSave={(settings) => {
        onSave(settings);
        setEditing(false);
      }}
      onCancel={() => setEditing(false)}
    />
  );
}

const toText = (value: number) => String(value);
const toNumber = (text: string) => numberOrNull(scheduleNumber(text, scheduleDaysDigits)) ?? 0;
/** A lone minus stays while typing, so "-7" typed key by key becomes 0 as a pasted "-7" does. */
const typed = (text: string, digits: number) => (text.trim() === "-" ? "-" : scheduleNumber(text, digits));

/** The inline editor: digits only, negatives become 0, days 3 digits and windows 2 (spec §5). */
export function ScheduleEditor({
  entry,
  label,
  onSave,
  onCancel,
}: {
  entry: StepSettings;
  label: string;
  onSave: (settings: StepSettings) => void;
  onCancel: () => void;
}) {
  const id = useId();
  const [days, setDays] = useState(toText(entry.daysFromStart));
  const [before, setBefore] = useState(toText(entry.allowedDaysBefore));
  const [after, setAfter] = useState(toText(entry.allowedDaysAfter));
  const save = () =>
    onSave({
      daysFromStart: toNumber(days),
      allowedDaysBefore: toNumber(before),
      allowedDaysAfter: toNumber(after),
    });
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === "Escape") {
      event.preventDefault();
      event.stopPropagation();
      onCancel();
    } else if (event.key === "Enter" && (event.target as HTMLElement).tagName === "INPUT") {
      event.preventDefault();
      save();
    }
  };
  const fields = [
    { key: "days", label: "Days", value: days, set: setDays, digits: scheduleDaysDigits },
    { key: "before", label: "Window before", value: before, set: setBefore, digits: scheduleWindowDigits },
    { key: "after", label: "Window after", value: after, set: setAfter, digits: scheduleWindowDigits },
  ];
  return (
    // Escape anywhere in the editor cancels it.
    <fieldset
      onKeyDown={onKeyDown}
      className="my-1 flex flex-wrap items-end justify-center gap-2 rounded-md border border-blue-200 bg-blue-50 px-3 py-2"
    >
      <legend className="sr-only">{label}</legend>
      {fields.map((field, index) => (
        <div key={field.key} className="flex w-24 flex-col gap-0.5">
          <label htmlFor={`${id}-${field.key}`} className="text-xs font-medium text-gray-700">
            {field.label}
          </label>
          <Input
            id={`${id}-${field.key}`}
            inputMode="numeric"
            autoComplete="off"
            autoFocus={index === 0}
            maxLength={field.digits + 1}
            value={field.value}
            onChange={(event) => field.set(typed(event.target.value, field.digits))}
          />
        </div>
      ))}
      <Button onClick={save}>
        <Check aria-hidden="true" className="size-4" />
        Save
      </Button>
      <Button variant="secondary" onClick={onCancel}>
        <X aria-hidden="true" className="size-4" />
        Cancel
      </Button>
    </fieldset>
  );
}
