import { recordsClinicalData } from "../registry";

/**
 * The reason for a change of recorded clinical data (issue 46, point 1; 21 CFR 11.10(e), ICH E6):
 * an edit or deletion of a patient, a study assignment or a recorded patient visit says why, and the
 * audit trail keeps it beside old → new. Creating a record needs none. The client sends it in the
 * `x-change-reason` header (changeReasonHeader), percent-encoded.
 */

export const changeReasonMaxLength = 500;

export const changeReasonMessages = {
  required: "A reason for the change is required",
  tooLong: `A reason for the change must be at most ${changeReasonMaxLength} characters`,
} as const;

/** The common reasons offered as choices; any other is typed. */
export const commonChangeReasons = ["Transcription error", "Late entry", "Source corrected"] as const;

/**
 * Whether changing or deleting this stored record needs a reason: a record of clinical data (the
 * registry's reasonForChange), except a patient visit that is only booked: an appointment, nothing
 * recorded yet, which is rescheduled, recorded for the first time or cancelled without one
 * (decision 229).
 */
export function changeNeedsReason(
  resource: string,
  stored: { readonly [field: string]: unknown } | null,
): boolean {
  if (!recordsClinicalData(resource) || stored === null) return false;
  return !(resource === "patient-visits" && stored.visitStatus === "BOOKED");
}

/** What is wrong with a reason given (blank counts as none): null when it will do. */
export function changeReasonError(reason: string | null | undefined, required: boolean): string | null {
  const text = reason?.trim() ?? "";
  if (text.length > changeReasonMaxLength) return changeReasonMessages.tooLong;
  if (required && text === "") return changeReasonMessages.required;
  return null;
}

/**
 * The header's value for a reason: percent-encoded, as browsers send only Latin-1 header text
 * (an en dash, a Hungarian ő). All of it, so a typed "%20" is not mistaken for an encoded space.
 */
export function encodeChangeReason(reason: string): string {
  return encodeURIComponent(reason.trim());
}

/** The reason a header carries: decoded when percent-encoded, trimmed, null when blank. */
export function decodeChangeReason(raw: string | null | undefined): string | null {
  let reason = raw ?? null;
  if (reason && /%[0-9A-Fa-f]{2}/.test(reason)) {
    try {
      reason = decodeURIComponent(reason);
    } catch {}
  }
  return reason?.trim() || null;
}
