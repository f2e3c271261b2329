import { z } from "zod";
import { type CloseReason, closeReasonValues, notesMaxLength } from "../constants";
import { flag, idRef, recordMeta, text } from "../schema";
import { required, validator, when } from "../validation";
import { dateField, emptiedToNull, viewTexts } from "./fields";

/** The assignment of a patient to a study: active, or closed with a reason. */
export type StudyPatient = {
  id: number;
  uuid: string;
  version: number;
  studyId: number;
  patientId: number;
  screenNr: string | null;
  randomNr: string | null;
  active: boolean;
  startDate: string | null;
  /** Who started and who closed it (user ids), set by the server. */
  startedBy: number | null;
  closeDate: string | null;
  closeReason: CloseReason | null;
  closedBy: number | null;
  notes: string | null;
  // View fields the server adds.
  barcode: string | null;
  firstName: string | null;
  lastName: string | null;
  projectInternalCode: string | null;
  studyWorkingName: string | null;
  studyUuid: string | null;
  /** Names of the users who started and closed it. */
  startedByName: string | null;
  closedByName: string | null;
  /** Whether the patient has visits recorded in the study: then it keeps its patient and study. */
  hasVisits: boolean;
};

export const studyPatientSchema = z.strictObject({
  ...recordMeta,
  studyId: idRef().nullish(),
  patientId: idRef().nullish(),
  screenNr: text().nullish(),
  randomNr: text().nullish(),
  active: flag().optional(),
  startDate: dateField(),
  closeDate: dateField(),
  closeReason: z.enum(closeReasonValues).nullish(),
  notes: text(notesMaxLength).nullish(),
  // Read-only fields the server sets or adds; accepted so a loaded record can be sent back whole.
  startedBy: z.number().int().nullish(),
  closedBy: z.number().int().nullish(),
  hasVisits: z.boolean().nullish(),
  /** In the source-verification sample (issue 44): the server's, never taken from a save. */
  sdvSelected: z.boolean().nullish(),
  ...viewTexts(
    "barcode",
    "firstName",
    "lastName",
    "projectInternalCode",
    "studyWorkingName",
    "studyUuid",
    "startedByName",
    "closedByName",
  ),
});
export type StudyPatientInput = z.infer<typeof studyPatientSchema>;
type StudyPatientForm = Partial<StudyPatientInput>;

/** A patient has at most one active assignment to a study (a closed one never blocks a new one). */
export const alreadyAssignedMessage = "The patient is already assigned to this study";

/** Why an assignment keeps its patient and study (decision 153): the form says so before a save does. */
export const assignmentUsedByVisitsMessage =
  "The patient has visits recorded in this study: they keep this assignment to it";

/** Closed means active is false; only then is a close reason asked for. */
export const isClosed = (data: Pick<StudyPatientForm, "active">): boolean => data.active === false;

export const validateStudyPatient = validator<StudyPatientForm>(
  required("patientId", "Patient is required"),
  required("studyId", "Study is required"),
  when(isClosed, required("closeReason", "Close reason is required")),
);

/** An active assignment has no close reason or close date; an emptied date is no date. */
export function normalizeStudyPatient<T extends StudyPatientForm>(data: T): T {
  const next = emptiedToNull(data, ["startDate", "closeDate"]);
  if (!isClosed(next)) {
    if (next.closeReason) next.closeReason = null;
    if (next.closeDate) next.closeDate = null;
  }
  return next;
}

export const emptyStudyPatient = (): StudyPatientForm => ({
  studyId: null,
  patientId: null,
  screenNr: "",
  randomNr: "",
  active: true,
  startDate: null,
  closeDate: null,
  closeReason: null,
  notes: "",
});

/** Rows of GET study-patients: the list shows id, barcode, patient, Study, screenNr, randomNr, startDate, status. */
export type StudyPatientListRow = Pick<
  StudyPatient,
  | "id"
  | "uuid"
  | "barcode"
  | "firstName"
  | "lastName"
  | "projectInternalCode"
  | "screenNr"
  | "randomNr"
  | "startDate"
  | "active"
>;

/** Items of GET study-patients?pid={patientId} (size 100): a patient's studies. */
export type StudyPatientLookupItem = Pick<
  StudyPatient,
  "id" | "uuid" | "studyId" | "active" | "screenNr" | "randomNr" | "projectInternalCode" | "studyWorkingName"
> & { studyUuid: string };
