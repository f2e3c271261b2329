import { changeReasonError, changeReasonMaxLength, commonChangeReasons } from "@trialdesk/domain";
import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import { ConfirmDialog } from "./dialog";
import { Input } from "./input";

/** The radio button of a reason typed in the text field. */
const other = "other";

/**
 * "Reason for the change" (issue 46, point 1): asked before an edit or deletion of recorded clinical
 * data is sent. The common reasons as radio buttons, or Other with its text; required, at most 500
 * characters. Cancel leaves everything as it was; the confirm button hands over the reason.
 */
export function ReasonDialog({
  open,
  confirmLabel,
  onConfirm,
  onCancel,
}: {
  open: boolean;
  confirmLabel: string;
  onConfirm: (reason: string) => void;
  onCancel: () => void;
}) {
  const [choice, setChoice] = useState<string | null>(null);
  const [typed, setTyped] = useState("");
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  const typedField = useRef<HTMLInputElement>(null);
  const firstChoice = useRef<HTMLInputElement>(null);
  // Each question starts afresh.
  useEffect(() => {
    if (open) {
      setChoice(null);
      setTyped("");
      setError(null);
    }
  }, [open]);

  const confirm = (event?: FormEvent) => {
    event?.preventDefault();
    const reason = choice === other ? typed : (choice ?? "");
    const refused = changeReasonError(reason, true);
    if (refused) {
      setError(refused);
      (choice === other ? typedField : firstChoice).current?.focus();
      return;
    }
    onConfirm(reason.trim());
  };
  const errorId = `${id}-error`;
  const radio = (value: string, label: string, first = false) => (
    <label key={value} className="flex items-center gap-2 text-sm text-gray-800">
      <input
        ref={first ? firstChoice : undefined}
        type="radio"
        name={`${id}-reason`}
        value={value}
        checked={choice === value}
        onChange={() => {
          setChoice(value);
          setError(null);
          if (value === other) typedField.current?.focus();
        }}
        aria-describedby={error ? errorId : undefined}
        className="size-4 accent-blue-700"
      />
      {label}
    </label>
  );

  return (
    <ConfirmDialog
      open={open}
      title="Reason for the change"
      text="Say why this recorded data changes; its history keeps the reason beside the change."
      cancelLabel="Cancel"
      confirmLabel={confirmLabel}
      onCancel={onCancel}
      onConfirm={() => confirm()}
    >
      {/* A form, so Enter in the text or on a choice confirms as the button does. */}
      <form noValidate onSubmit={confirm} className="font-normal">
        <fieldset aria-invalid={error ? true : undefined} className="flex flex-col gap-2">
          <legend className="mb-1 text-sm font-medium text-gray-800">
            Reason
            <span aria-hidden="true" className="ml-0.5 text-red-600">
              *
            </span>
          </legend>
          {commonChangeReasons.map((reason, i) => radio(reason, reason, i === 0))}
          {radio(other, "Other")}
          <div className="flex flex-col gap-1 pl-6">
            <label htmlFor={`${id}-typed`} className="text-sm text-gray-800">
              Other reason
            </label>
            <Input
              ref={typedField}
              id={`${id}-typed`}
              maxLength={changeReasonMaxLength}
              value={typed}
              invalid={Boolean(error) && choice === other}
              aria-describedby={error ? errorId : undefined}
              onChange={(event) => {
                setTyped(event.target.value);
                setChoice(other);
                setError(null);
              }}
            />
          </div>
        </fieldset>
        {error && (
          <p id={errorId} role="alert" className="mt-2 text-xs font-medium text-red-700">
            {error}
          </p>
        )}
      </form>
    </ConfirmDialog>
  );
}
