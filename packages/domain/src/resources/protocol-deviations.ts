import { z } from "zod";
import { notesMaxLength } from "../constants";
import { windowText } from "../rules/visit-windows";
import { flag, idRef, recordMeta, text } from "../schema";
import { check, required, validator, when } from "../validation";
import { dateField, emptiedToNull, viewTexts } from "./fields";

/**
 * A protocol deviation (issue 43; ICH E6(R2) 4.5.3): a record of its own, site-scoped through its
 * patient like patient visits. Trialdesk writes OUT_OF_WINDOW and MISSED_VISIT ones by itself from
 * the window engine (derivedDeviations); staff enter the other kinds by hand.
 */
export const deviationKinds = [
  { value: "OUT_OF_WINDOW", label: "Out of window" },
  { value: "MISSED_VISIT", label: "Missed visit" },
  { value: "INFORMED_CONSENT", label: "Informed consent" },
  { value: "ELIGIBILITY", label: "Eligibility" },
  { value: "INVESTIGATIONAL_PRODUCT", label: "Investigational product" },
  { value: "PROCEDURE", label: "Procedure" },
  { value: "OTHER", label: "Other" },
] as const;
export type DeviationKind = (typeof deviationKinds)[number]["value"];
export const deviationKindValues = deviationKinds.map((k) => k.value) as DeviationKind[];
/** The kinds Trialdesk derives by itself; staff never enter them by hand. */
export const automaticDeviationKinds = ["OUT_OF_WINDOW", "MISSED_VISIT"] as const satisfies DeviationKind[];
export const manualDeviationKinds = deviationKinds.filter(
  (k) => !(automaticDeviationKinds as readonly string[]).includes(k.value),
);

export const deviationSources = [
  { value: "AUTOMATIC", label: "Automatic" },
  { value: "MANUAL", label: "Manual" },
] as const;
export type DeviationSource = (typeof deviationSources)[number]["value"];
export const deviationSourceValues = deviationSources.map((s) => s.value) as DeviationSource[];

/** MAJOR is ICH E3's "important" deviation, the one sponsors want reported. */
export const deviationSeverities = [
  { value: "MINOR", label: "Minor" },
  { value: "MAJOR", label: "Major" },
] as const;
export type DeviationSeverity = (typeof deviationSeverities)[number]["value"];
export const deviationSeverityValues = deviationSeverities.map((s) => s.value) as DeviationSeverity[];

/** OPEN → REPORTED → CLOSED; WITHDRAWN is Trialdesk's, for an automatic one whose cause went away. */
export const deviationStatuses = [
  { value: "OPEN", label: "Open" },
  { value: "REPORTED", label: "Reported" },
  { value: "CLOSED", label: "Closed" },
  { value: "WITHDRAWN", label: "Withdrawn" },
] as const;
export type DeviationStatus = (typeof deviationStatuses)[number]["value"];
export const deviationStatusValues = deviationStatuses.map((s) => s.value) as DeviationStatus[];

export const deviationDescriptionMaxLength = 2000;

export type ProtocolDeviation = {
  id: number;
  uuid: string;
  version: number;
  siteId: number;
  patientId: number;
  studyId: number;
  studyPatientId: number;
  visitId: number | null;
  patientVisitId: number | null;
  kind: DeviationKind;
  source: DeviationSource;
  /** yyyy-MM-dd */
  detectedOn: string;
  daysOutside: number | null;
  description: string;
  severity: DeviationSeverity;
  status: DeviationStatus;
  reportedOn: string | null;
  correctiveAction: string | null;
  closedOn: string | null;
  /** A REPORTED or CLOSED automatic deviation whose cause went away: it stays, marked. */
  noLongerApplies: boolean;
  // View fields the server adds.
  barcode: string | null;
  patientName: string | null;
  studyName: string | null;
  visitName: string | null;
};

export const protocolDeviationSchema = z.strictObject({
  ...recordMeta,
  patientId: idRef().nullish(),
  studyId: idRef().nullish(),
  visitId: idRef().nullish(),
  patientVisitId: idRef().nullish(),
  kind: z.enum(deviationKindValues).nullish(),
  detectedOn: dateField(),
  description: text(deviationDescriptionMaxLength).nullish(),
  severity: z.enum(deviationSeverityValues).nullish(),
  status: z.enum(deviationStatusValues).nullish(),
  reportedOn: dateField(),
  correctiveAction: text(notesMaxLength).nullish(),
  closedOn: dateField(),
  // What the server sets or derives; accepted so a loaded record can be sent back whole, never taken.
  siteId: z.number().int().nullish(),
  studyPatientId: z.number().int().nullish(),
  source: z.enum(deviationSourceValues).nullish(),
  daysOutside: z.number().int().nullish(),
  noLongerApplies: flag().nullish(),
  ...viewTexts("barcode", "patientName", "studyName", "visitName"),
});
export type ProtocolDeviationInput = z.infer<typeof protocolDeviationSchema>;
type DeviationForm = Partial<ProtocolDeviationInput>;

export const deviationMessages = {
  patientRequired: "Patient is required",
  studyRequired: "Study is required",
  kindRequired: "Kind is required",
  descriptionRequired: "Description is required",
  reportedOnRequired: "Reported on is required once the deviation is reported",
  closedOnRequired: "Closed on is required once the deviation is closed",
  closedBeforeReported: "Closed on cannot be before Reported on",
  automaticKind: "Trialdesk records this kind by itself; choose another kind",
  withdrawnByHand: "Only Trialdesk withdraws a deviation, when its cause goes away",
  notAssigned: "The patient is not assigned to this study",
  visitOfOtherStudy: "This visit does not belong to the study",
  patientVisitOfOther: "This patient visit is not the patient's visit in this study",
  neverDeleted: "A protocol deviation is never deleted: close it instead",
} as const;

const isAutomatic = (data: DeviationForm) => data.source === "AUTOMATIC";

export const validateProtocolDeviation = validator<DeviationForm>(
  required("patientId", deviationMessages.patientRequired),
  required("studyId", deviationMessages.studyRequired),
  required("kind", deviationMessages.kindRequired),
  when(
    (data) => !isAutomatic(data),
    check(
      "kind",
      (data) => !(automaticDeviationKinds as readonly string[]).includes(data.kind ?? ""),
      deviationMessages.automaticKind,
    ),
  ),
  required("description", deviationMessages.descriptionRequired),
  when((data) => data.status === "REPORTED", required("reportedOn", deviationMessages.reportedOnRequired)),
  when((data) => data.status === "CLOSED", required("closedOn", deviationMessages.closedOnRequired)),
  check(
    "closedOn",
    (data) => !data.closedOn || !data.reportedOn || data.closedOn >= data.reportedOn,
    deviationMessages.closedBeforeReported,
  ),
);

/** Emptied dates are none; the closing date belongs to a closed deviation only. */
export function normalizeProtocolDeviation<T extends DeviationForm>(data: T): T {
  return emptiedToNull(data, ["reportedOn", "closedOn", "detectedOn"]);
}

export const emptyProtocolDeviation = (): DeviationForm => ({
  patientId: null,
  studyId: null,
  visitId: null,
  patientVisitId: null,
  kind: null,
  description: "",
  severity: "MINOR",
  status: "OPEN",
  reportedOn: null,
  correctiveAction: "",
  closedOn: null,
});

/** What the system derived on an automatic deviation, read-only in the form and kept by the server. */
export const derivedDeviationFields = [
  "patientId",
  "studyId",
  "visitId",
  "patientVisitId",
  "kind",
  "daysOutside",
  "detectedOn",
] as const;

/** Rows of GET protocol-deviations: the list's columns. */
export type ProtocolDeviationListRow = Pick<
  ProtocolDeviation,
  | "id"
  | "uuid"
  | "barcode"
  | "patientName"
  | "studyName"
  | "visitName"
  | "kind"
  | "daysOutside"
  | "detectedOn"
  | "severity"
  | "status"
  | "source"
  | "noLongerApplies"
  | "patientVisitId"
  | "visitId"
>;

/** The text of an automatic deviation, from what the engine derived. */
export function automaticDeviationText(
  kind: (typeof automaticDeviationKinds)[number],
  days: number | null,
  window: { windowStart: string | null; windowEnd: string | null },
): string {
  const range = windowText(window);
  if (kind === "MISSED_VISIT") return `Visit missed: its window (${range}) ended without a completed visit.`;
  const n = Math.abs(days ?? 0);
  const when = (days ?? 0) < 0 ? "before its window opened" : "after its window closed";
  return `Visit completed ${n} ${n === 1 ? "day" : "days"} ${when} (${range}).`;
}
