/**
 * Enumerations and constants of spec §4 and §9. Option lists are `{value, label}` arrays in the
 * order the screens offer them; plain value lists are used where the spec gives no label.
 */
export type Option<V extends string | number = string | number> = {
  readonly value: V;
  readonly label: string;
};

/** The label of `value` in `options`, or the value itself when it is not listed (never blank). */
export function optionLabel<V extends string | number>(
  options: readonly Option<V>[],
  value: V | null | undefined,
): string {
  if (value === null || value === undefined) return "";
  return options.find((o) => o.value === value)?.label ?? String(value);
}

/** Visit types (spec §9). */
export const visitTypes = [
  { value: 10, label: "Prescreening" },
  { value: 20, label: "Screening" },
  { value: 25, label: "Rescreen" },
  { value: 30, label: "Run-in" },
  { value: 40, label: "Titration" },
  { value: 50, label: "Randomisation" },
  { value: 60, label: "Control" },
  { value: 65, label: "Procedure" },
  { value: 70, label: "End of treatment" },
  { value: 80, label: "End of study" },
  { value: 90, label: "Withdrawal" },
  { value: 100, label: "Unscheduled" },
  { value: 110, label: "Phone" },
  { value: 120, label: "Follow up" },
  { value: 130, label: "Phone follow up" },
] as const;
export type VisitTypeId = (typeof visitTypes)[number]["value"];
export const visitTypeIds = visitTypes.map((t) => t.value) as VisitTypeId[];
/** The randomisation visit type; allowed once per study (spec §9). */
export const randomisationVisitType = 50 satisfies VisitTypeId;

/** Project statuses (spec §4), shared by projects and studies. */
export const projectStatuses = [
  { value: 10, label: "PRE-TO START" },
  { value: 20, label: "TO START" },
  { value: 30, label: "RECRUITING" },
  { value: 40, label: "ONGOING" },
  { value: 50, label: "COMPLETED" },
  { value: 100, label: "CANCELLED" },
  { value: 110, label: "DELAYED" },
] as const;
export type ProjectStatusId = (typeof projectStatuses)[number]["value"];
export const projectStatusIds = projectStatuses.map((s) => s.value) as ProjectStatusId[];

/** Phases I to IV, stored as 1 to 4. */
export const phases = [
  { value: 1, label: "I" },
  { value: 2, label: "II" },
  { value: 3, label: "III" },
  { value: 4, label: "IV" },
] as const;
export type Phase = (typeof phases)[number]["value"];
export const phaseValues = phases.map((p) => p.value) as Phase[];

export const currencies = ["HUF", "EUR", "USD", "GBP", "CHF"] as const;
export type Currency = (typeof currencies)[number];

/** VAT options in percent. */
export const vatOptions = [0, 27] as const;
export type Vat = (typeof vatOptions)[number];

export const studyVariants = ["NORMAL", "SECONDARY", "SUB-STUDY", "VARIANT-1", "VARIANT-2"] as const;
export type StudyVariant = (typeof studyVariants)[number];

export const contactTypes = [
  { value: "PHONE", label: "Phone" },
  { value: "EMAIL", label: "Email" },
] as const;
export type ContactType = (typeof contactTypes)[number]["value"];
export const contactTypeValues = contactTypes.map((c) => c.value) as ContactType[];

/** The sex radio offers Male and Female; a new patient starts as UNK (unknown) until one is chosen. */
export const sexes = [
  { value: "MALE", label: "Male" },
  { value: "FEMALE", label: "Female" },
] as const;
export type Sex = (typeof sexes)[number]["value"] | "UNK";
export const sexValues = ["MALE", "FEMALE", "UNK"] as const satisfies readonly Sex[];
export const defaultSex: Sex = "UNK";

export const addressTypes = ["DEFAULT"] as const;
export type AddressType = (typeof addressTypes)[number];
export const defaultAddressType: AddressType = "DEFAULT";

/** Patient status: 1 is active, any other value inactive (spec §4). */
export const activePatientStatus = 1;
export const inactivePatientStatus = 0;
export const patientStatuses = [
  { value: activePatientStatus, label: "Active" },
  { value: inactivePatientStatus, label: "Inactive" },
] as const;

/** Offered first in every country selector, in this order (spec §2.5). */
export const frequentCountries = ["HU", "AT", "DE", "PL", "US"] as const;

export const visitStatuses = [
  { value: "BOOKED", label: "Booked" },
  { value: "CANCELLED", label: "Cancelled" },
  { value: "NO_SHOW", label: "No show" },
  { value: "ARRIVED", label: "Arrived" },
  { value: "COMPLETED", label: "Completed" },
] as const;
export type VisitStatus = (typeof visitStatuses)[number]["value"];
export const visitStatusValues = visitStatuses.map((s) => s.value) as VisitStatus[];
/** The visit result is offered only for this status (spec §4). */
export const visitStatusWithResult = "COMPLETED" satisfies VisitStatus;

export const visitResults = [
  { value: "PENDING", label: "Pending" },
  { value: "OK", label: "OK" },
  { value: "FAILED", label: "Failed" },
] as const;
export type VisitResult = (typeof visitResults)[number]["value"];
export const visitResultValues = visitResults.map((r) => r.value) as VisitResult[];

/** Why a study assignment was closed (spec §4: CANCELLED, DIED or EOS), shown in words (issue 15). */
export const closeReasons = [
  { value: "CANCELLED", label: "Cancelled" },
  { value: "DIED", label: "Died" },
  { value: "EOS", label: "End of study" },
] as const;
export type CloseReason = (typeof closeReasons)[number]["value"];
export const closeReasonValues = closeReasons.map((r) => r.value) as CloseReason[];

/**
 * How a studyplan's days place its visits: "default" counts each visit's days from the first visit
 * (day 0); "previous" counts them from the visit before it.
 */
export const calculationModes = ["default", "previous"] as const;
export type CalculationMode = (typeof calculationModes)[number];
export const calculationModeLabels: Record<CalculationMode, string> = {
  default: "From the first visit",
  previous: "From the previous visit",
};
export const defaultCalculationMode: CalculationMode = "default";

/** Studyplan status badges of the studyplans list (spec §4). */
export const studyplanStatuses = ["Missing", "Incomplete", "Complete", "Unknown"] as const;
export type StudyplanStatus = (typeof studyplanStatuses)[number];

/** The date picker of spec §9; weekStartsOn and format are in date-fns terms. */
export const datePicker = {
  yearsBack: 10,
  yearsAhead: 5,
  weekStartsOn: 1,
  format: "yyyy-MM-dd",
} as const;

/** Contact and note limits (spec §5, §9). */
export const emailContactMaxLength = 60;
export const phoneContactMaxLength = 18;
export const contactNotesMaxLength = 200;
/** Free-text notes of patients, assignments and visits; the spec gives no limit. */
export const notesMaxLength = 1000;

/** Finance and schedule numbers (spec §5, §9). */
export const financeNumberDigits = 3;
export const paidPercentageMax = 100;
export const scheduleDaysDigits = 3;
export const scheduleWindowDigits = 2;

/** The studyplan editor's dragging (spec §9): keyboard step 25 px, drop animation 150 ms. */
export const dragKeyboardStepPx = 25;
export const dropAnimationMs = 150;
