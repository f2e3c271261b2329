import type { CalculationMode } from "../constants";
import type { VisitState, VisitWindow } from "../rules/visit-windows";

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

/** One cell: the recorded visit (if any) and its planned window and state on the asked day. */
export type VisitSummaryCell = VisitWindow & {
  visitId: number;
  visitDate: string | null;
  visitStatus: string | null;
  state: VisitState;
  bookedOutsideWindow: boolean;
};

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
