/** The values the project and study editors compute themselves (spec §4, Automatic values). */

const missingCode = "???";

export type InternalCodeParts = {
  croCode?: string | null;
  sponsorCode?: string | null;
  therapyAreaCode?: string | null;
  protocolNr?: string | null;
};

const codeOrMissing = (code: string | null | undefined) => (code?.trim() ? code.trim() : missingCode);

/**
 * The project internal code: CRO code + sponsor code + therapy area code (each "???" when
 * missing) + the last 3 characters of the protocol number. Recomputed on every field change in
 * the editor and again by the server on save.
 */
export function projectInternalCode(parts: InternalCodeParts): string {
  return (
    codeOrMissing(parts.croCode) +
    codeOrMissing(parts.sponsorCode) +
    codeOrMissing(parts.therapyAreaCode) +
    (parts.protocolNr?.trim() ?? "").slice(-3)
  );
}

/** The study working name: the project's protocol number + "_" + the variant. */
export function studyWorkingName(
  protocolNr: string | null | undefined,
  variant: string | null | undefined,
): string {
  return `${protocolNr ?? ""}_${variant ?? ""}`;
}
