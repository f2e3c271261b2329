/** GET patient-visit-summary/{studyUuid} → data: the grid of /visit-summary/{studyUuid}. */
export type VisitSummaryVisit = { id: number; visitName: string; visitType: number };

export type VisitSummaryProfile = {
  barcode: string;
  firstName: string;
  lastName: string;
  /** The Screen Nr column; beyond the spec's field list. */
  screenNr: string | null;
  visits: { visitId: number; visitDate: string | null }[];
};

export type VisitSummary = {
  /** The study's visits, in studyplan order: one grid column each. */
  studyVisits: VisitSummaryVisit[];
  patientStudyProfiles: VisitSummaryProfile[];
};

/** The word a cell shows when the patient has no visit date for that visit. */
export const visitSummaryAvailable = "available";

/** What a summary cell shows: the patient's visit date for the visit, else "available". */
export function visitSummaryCell(profile: Pick<VisitSummaryProfile, "visits">, visitId: number): string {
  return profile.visits.find((visit) => visit.visitId === visitId)?.visitDate ?? visitSummaryAvailable;
}
