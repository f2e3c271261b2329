import { randomisationVisitType } from "../constants";

type VisitRef = { id?: number | null; visitTypeId?: number | null };

/**
 * The randomisation visit (type 50) is allowed once per study (spec §9): it may be chosen unless
 * another visit of the study already has it. The visit being edited does not count against
 * itself, so an existing randomisation visit keeps its type.
 */
export function canChooseRandomisation(
  studyVisits: readonly VisitRef[],
  editedVisitId?: number | null,
): boolean {
  return !studyVisits.some(
    (visit) =>
      visit.visitTypeId === randomisationVisitType &&
      (editedVisitId === null || editedVisitId === undefined || visit.id !== editedVisitId),
  );
}

/** Whether the visit type select should disable `visitTypeId` (only ever type 50). */
export function isVisitTypeDisabled(
  visitTypeId: number,
  studyVisits: readonly VisitRef[],
  editedVisitId?: number | null,
): boolean {
  return visitTypeId === randomisationVisitType && !canChooseRandomisation(studyVisits, editedVisitId);
}
