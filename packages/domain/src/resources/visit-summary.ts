import type { CalculationMode } from "../constants";
import { type VisitState, type VisitWindow, windowAround } from "../rules/visit-windows";

/** GET patient-visit-summary/{studyUuid} → data: the grid of /visit-summary/{studyUuid}. */
export type VisitSummaryVisit = {
  id: number;
  visitName: string;
  visitType: number;
  /** The visit's place in the studyplan and the entry that places it; all null off the plan. */
  sequence: number | null;
  daysFromStart: number | null;
  allowedDaysBefore: number | null;
  allowedDaysAfter: number | null;
  calculationMode: CalculationMode | null;
};

/**
 * One cell: the recorded visit's date (if any), the planned date and the state on the asked day.
 * Kept small, as a grid holds tens of thousands: fields without a value are left out, and the window
 * follows from the expected date and the column's allowances (cellWindow).
 */
export type VisitSummaryCell = {
  visitId: number;
  visitDate?: string;
  expectedDate?: string;
  state: VisitState;
  /** Only when true: a booking outside its window. */
  bookedOutsideWindow?: true;
};

/** A cell's window: its expected date widened by its column's allowances (the engine's rule). */
export const cellWindow = (cell: VisitSummaryCell, column: VisitSummaryVisit | undefined): VisitWindow => ({
  expectedDate: cell.expectedDate ?? null,
  ...windowAround(cell.expectedDate, column),
});

export type VisitSummaryProfile = {
  barcode: string;
  firstName: string;
  lastName: string;
  /** The Screen Nr column; beyond the spec's field list. */
  screenNr: string | null;
  patientUuid: string;
  /** The row's assignment is active (else the latest, closed one). */
  active: boolean;
  /** One cell per plan visit, recorded or not, then the recorded visits the plan does not hold. */
  visits: VisitSummaryCell[];
};

export type VisitSummary = {
  /** The study's visits, in studyplan order: one grid column each. */
  studyVisits: VisitSummaryVisit[];
  patientStudyProfiles: VisitSummaryProfile[];
};

/** The word a cell shows when the patient has no visit date for that visit. */
export const visitSummaryAvailable = "available";

/** What a summary cell shows: the patient's visit date for the visit, else "available". */
export function visitSummaryCell(
  profile: { visits: readonly { visitId: number; visitDate: string | null }[] },
  visitId: number,
): string {
  return profile.visits.find((visit) => visit.visitId === visitId)?.visitDate ?? visitSummaryAvailable;
}
