import { changeNeedsReason, changeReasonHeader, encodeChangeReason } from "@trialdesk/domain";
import { useRef, useState } from "react";
import { ReasonDialog } from "../ui/reason-dialog";

/** The headers a change is sent with: none, or its reason. */
export type ChangeHeaders = Record<string, string>;

/**
 * The reason for a change of recorded clinical data (issue 46, point 1), asked where a screen saves
 * an edit or removes a record: `headersFor(stored)` answers at once with no headers when the stored
 * record needs no reason (another resource, a visit only booked), else opens the dialog and answers
 * the reason's header, or null when the person cancels (nothing is sent then). Render `dialog`.
 */
export function useReasonForChange(resource: string, confirmLabel: string) {
  const [open, setOpen] = useState(false);
  const answer = useRef<((headers: ChangeHeaders | null) => void) | null>(null);
  const settle = (headers: ChangeHeaders | null) => {
    const resolve = answer.current;
    answer.current = null;
    setOpen(false);
    resolve?.(headers);
  };

  const headersFor = (
    stored: { readonly [field: string]: unknown } | null,
  ): Promise<ChangeHeaders | null> => {
    if (!changeNeedsReason(resource, stored)) return Promise.resolve({});
    // Asked once at a time: a second save while the question is open (Ctrl+S) sends nothing.
    if (answer.current) return Promise.resolve(null);
    return new Promise((resolve) => {
      answer.current = resolve;
      setOpen(true);
    });
  };

  const dialog = (
    <ReasonDialog
      open={open}
      confirmLabel={confirmLabel}
      onConfirm={(reason) => settle({ [changeReasonHeader]: encodeChangeReason(reason) })}
      onCancel={() => settle(null)}
    />
  );
  return { headersFor, dialog };
}
