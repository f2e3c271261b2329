import { activePatientStatus } from "../constants";

/** Patient status 1 is active; any other value is inactive (spec §4). */
export function isActiveStatus(status: unknown): boolean {
  return status === activePatientStatus || status === String(activePatientStatus);
}

/** A patient's name as lists show it: last name, then first name. */
export function patientName(
  lastName: string | null | undefined,
  firstName: string | null | undefined,
): string {
  return [lastName, firstName]
    .map((part) => part?.trim() ?? "")
    .filter(Boolean)
    .join(" ");
}

/**
 * A patient as the patient selectors offer it: "Kovács Anna (BUD-000042)", and "— Inactive" after
 * an inactive patient, so nobody picks one unawares.
 */
export function patientOptionLabel(patient: {
  lastName?: string | null;
  firstName?: string | null;
  barcode?: string | null;
  status?: unknown;
}): string {
  const label = `${patientName(patient.lastName, patient.firstName)} (${patient.barcode ?? ""})`;
  return patient.status === undefined || isActiveStatus(patient.status) ? label : `${label} — Inactive`;
}
