import { z } from "zod";
import {
  notesMaxLength,
  type VisitResult,
  type VisitStatus,
  visitResultValues,
  visitStatusValues,
  visitStatusWithResult,
} from "../constants";
import { type SdvStatus, sdvStatusValues } from "../rules/source-verification";
import { shortDate, type VisitState } from "../rules/visit-windows";
import { recordMeta, text } from "../schema";
import { type FieldErrors, validator } from "../validation";
import { dateField, emptiedToNull, requiredRef, timeField, viewTexts } from "./fields";

export type PatientVisit = {
  id: number;
  uuid: string;
  version: number;
  patientId: number;
  studyId: number;
  visitId: number;
  /** yyyy-MM-dd */
  visitDate: string | null;
  /** HH:mm */
  visitTime: string | null;
  visitStatus: VisitStatus | null;
  /** Only for COMPLETED visits. */
  visitResult: VisitResult | null;
  notes: string | null;
  // Source verification (issue 44), answered by the server.
  sdvStatus?: SdvStatus;
  sdvVerifiedAt?: string | null;
  sdvVerifiedByName?: string | null;
  /** Queries on it that are OPEN or ANSWERED. */
  openQueries?: number;
};

export const patientVisitSchema = z.strictObject({
  ...recordMeta,
  // The spec's validator lets everything pass; these three are needed to store a visit at all,
  // so the server answers with a field error in the spec's words rather than a type message.
  patientId: requiredRef("Patient is required").nullish(),
  studyId: requiredRef("Study is required").nullish(),
  visitId: requiredRef("Visit is required").nullish(),
  visitDate: dateField(),
  visitTime: timeField(),
  visitStatus: z.enum(visitStatusValues).nullish(),
  visitResult: z.enum(visitResultValues).nullish(),
  notes: text(notesMaxLength).nullish(),
  // Read-only view fields; accepted so a loaded record can be sent back whole.
  ...viewTexts("patientName", "barcode", "studyName", "visitName", "screenNumber"),
  // Source verification (issue 44): the server's, never taken from a save.
  sdvStatus: z.enum(sdvStatusValues).nullish(),
  sdvVerifiedAt: z.string().nullish(),
  ...viewTexts("sdvVerifiedByName"),
  openQueries: z.number().int().nullish(),
});
export type PatientVisitInput = z.infer<typeof patientVisitSchema>;
type PatientVisitForm = Partial<PatientVisitInput>;

/** Spec §5: none, always passes. */
export const validatePatientVisit = validator<PatientVisitForm>();

/** The visit result is offered only when the status is COMPLETED (spec §4). */
export const showsVisitResult = (status: string | null | undefined): boolean =>
  status === visitStatusWithResult;

/** A result is kept only for a COMPLETED visit; emptied date and time are none. */
export function normalizePatientVisit<T extends PatientVisitForm>(data: T): T {
  const next = emptiedToNull(data, ["visitDate", "visitTime"]);
  if (!showsVisitResult(next.visitStatus) && next.visitResult) next.visitResult = null;
  return next;
}

export const emptyPatientVisit = (): PatientVisitForm => ({
  patientId: null,
  studyId: null,
  visitId: null,
  visitDate: null,
  visitTime: null,
  visitStatus: null,
  visitResult: null,
  notes: "",
});

/**
 * The selector reset rules of spec §4: choosing a patient empties the form for that patient;
 * choosing a study keeps the patient; choosing a visit keeps patient and study. A visit's earlier
 * records are never reopened by choosing it (issue 43): the form records a new one and lists them.
 */
export function choosePatient(patientId: number | null): PatientVisitForm {
  return { ...emptyPatientVisit(), patientId };
}

export function chooseStudy(form: PatientVisitForm, studyId: number | null): PatientVisitForm {
  return { ...emptyPatientVisit(), patientId: form.patientId ?? null, studyId };
}

export function chooseVisit(form: PatientVisitForm, visitId: number | null): PatientVisitForm {
  return {
    ...emptyPatientVisit(),
    patientId: form.patientId ?? null,
    studyId: form.studyId ?? null,
    visitId,
  };
}

/** Whether recording another record of the visit should ask first: it already has a completed one. */
export const hasCompletedRecord = (option: Pick<VisitOption, "records"> | null | undefined): boolean =>
  (option?.records ?? []).some((record) => record.visitStatus === "COMPLETED");

/** Rows of GET patient-visits; the row id is patientVisitUuid. */
export type PatientVisitListRow = {
  patientVisitId: number;
  patientVisitUuid: string;
  screenNumber: string | null;
  /** Beyond the spec's columns: the patient's barcode, as staff tell patients apart by it. */
  barcode: string;
  patientName: string;
  studyName: string;
  visitName: string;
  visitDate: string | null;
  visitStatus: VisitStatus | null;
  /** Its source verification (issue 44). */
  sdvStatus?: SdvStatus;
};

/**
 * A visit of a study as the visit selector offers it, with the patient's data of the record that
 * counts (countingRecords) when the patient has one (patientVisitId set), else nulls.
 */
export type VisitOption = {
  visitName: string;
  visitUuid: string;
  visitId: number;
  visitType: number;
  mandatory: 0 | 1;
  visitStatus: VisitStatus | null;
  visitResult: VisitResult | null;
  visitDate: string | null;
  patientVisitId: number | null;
  patientVisitUuid: string | null;
  // Beyond the spec's list: what the form needs to reopen an existing visit whole.
  visitTime?: string | null;
  notes?: string | null;
  patientVisitVersion?: number | null;
  /** The visit's planned window and state today (visit-windows engine); null dates off the plan. */
  expectedDate?: string | null;
  /** The visit's place in the studyplan from 1; null off the plan. */
  sequence?: number | null;
  windowStart?: string | null;
  windowEnd?: string | null;
  state?: VisitState | null;
  bookedOutsideWindow?: boolean;
  /** A booking whose day has passed without an outcome (bookingPassedText). */
  bookingPassed?: boolean;
  /** Every record of the visit, latest first (issue 43). */
  records?: VisitRecord[];
  /** The visit's protocol deviations. */
  deviations?: VisitDeviation[];
};

/** GET patient-visit-detail?patientVisitUuid=|patientId= → data. */
export type PatientVisitDetail = {
  patient: { patientId: number; barcode: string; firstName: string; lastName: string };
  study: { studyId: number; studyUuid: string; internalCode: string; projectWorkingName: string } | null;
  /** Visit entries keyed by visit id. */
  visits: Record<string, VisitOption>;
};

/** The visit-date rules of the window engine (issue 43); the spec's own validator passes everything. */
export const visitDateMessages = {
  dateRequired: "A completed or arrived visit needs its date",
  inFuture: "A completed or arrived visit cannot be dated after today",
  beforeStart: (start: string) =>
    `The visit date cannot be before the patient's start in the study (${shortDate(start)})`,
  afterLplv: (lplv: string) => `The visit date cannot be after the study's LPLV (${shortDate(lplv)})`,
  completedExists: "This visit already has a completed record. Record another one?",
} as const;

/** A record that tells the visit took place needs a date, and that date cannot lie ahead. */
const needsPastDate = (status: string | null | undefined) => status === "COMPLETED" || status === "ARRIVED";

/**
 * The date rules of a patient visit against its assignment and study: `today` is the site's day,
 * `startDate` the patient's earliest start in the study, `lplv` the study's last patient's last visit.
 */
export function visitDateErrors(
  visit: Pick<PatientVisitForm, "visitDate" | "visitStatus">,
  context: { today: string; startDate: string | null; lplv: string | null },
): FieldErrors {
  const date = visit.visitDate ?? null;
  if (!date) return needsPastDate(visit.visitStatus) ? { visitDate: visitDateMessages.dateRequired } : {};
  if (needsPastDate(visit.visitStatus) && date > context.today)
    return { visitDate: visitDateMessages.inFuture };
  if (context.startDate && date < context.startDate)
    return { visitDate: visitDateMessages.beforeStart(context.startDate) };
  if (context.lplv && date > context.lplv) return { visitDate: visitDateMessages.afterLplv(context.lplv) };
  return {};
}

/** One of a visit's records as the form lists them: what happened, never overwritten. */
export type VisitRecord = {
  patientVisitId: number;
  patientVisitUuid: string;
  visitDate: string | null;
  visitTime: string | null;
  visitStatus: VisitStatus;
  visitResult: VisitResult | null;
  notes: string | null;
};

/** A deviation as the patient-visit form and the patient detail list them. */
export type VisitDeviation = {
  uuid: string;
  visitId: number | null;
  patientVisitId: number | null;
  kind: string;
  daysOutside: number | null;
  status: string;
  severity: string;
  noLongerApplies: boolean;
  description: string;
};
