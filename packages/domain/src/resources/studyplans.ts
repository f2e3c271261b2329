import { z } from "zod";
import {
  type CalculationMode,
  calculationModes,
  defaultCalculationMode,
  scheduleDaysDigits,
  scheduleWindowDigits,
} from "../constants";
import { idRef, recordMeta } from "../schema";
import { validator } from "../validation";
import { count, viewTexts } from "./fields";

/** One step of a plan: from a visit to the next used one (null for the last visit). */
export type ScheduleEntry = {
  id: number | null;
  fromVisitId: number;
  toVisitId: number | null;
  daysFromStart: number;
  allowedDaysBefore: number;
  allowedDaysAfter: number;
  /** The position of fromVisitId in the plan, from 1 (the number on its card). */
  sequence: number;
  /**
   * fromVisitId's own share of the patient fee in percent ("25", "33.33"), issue 45: once any visit of
   * a plan has one, they add up to 100 and a visit without one earns nothing.
   */
  feeShare?: string | null;
};

export type Studyplan = {
  id: number;
  uuid: string;
  version: number;
  studyId: number;
  calculationMode: CalculationMode;
  schedule: ScheduleEntry[];
};

const maxDays = 10 ** scheduleDaysDigits - 1;
const maxWindow = 10 ** scheduleWindowDigits - 1;

export const scheduleEntrySchema = z.strictObject({
  id: z.number().int().nullish(),
  fromVisitId: idRef(),
  toVisitId: idRef().nullable(),
  daysFromStart: count(maxDays),
  allowedDaysBefore: count(maxWindow),
  allowedDaysAfter: count(maxWindow),
  sequence: count(10_000),
  // An emptied share is no share.
  feeShare: z.preprocess(
    (share) => (typeof share === "string" && share.trim() === "" ? null : share),
    z
      .string({ error: "Fee share must be a percentage" })
      .trim()
      .regex(/^\d{1,3}(\.\d{1,2})?$/, "Fee share must be a percentage such as 25 or 33.33")
      .refine(
        (share) => Number(share) > 0 && Number(share) <= 100,
        "Fee share must be more than 0 and at most 100",
      )
      .nullish(),
  ),
});

export const studyplanSchema = z.strictObject({
  ...recordMeta,
  studyId: idRef().nullish(),
  /** A new plan names its study by uuid (spec §3); the server resolves it to studyId. */
  studyUuid: z.string().max(80).nullish(),
  calculationMode: z.enum(calculationModes).optional(),
  schedule: z.array(scheduleEntrySchema).max(500),
  // Read-only view field; accepted so a loaded plan can be sent back whole, as every record can (issue 46).
  ...viewTexts("studyName"),
  /**
   * Input only, never stored (issue 46, point 3): the save goes ahead although it changes the state
   * of visits already recorded (the editor's "Save anyway"); without it the server asks first (409).
   */
  confirmWindowChanges: z.boolean({ error: "Must be true or false" }).optional(),
});
export type StudyplanInput = z.infer<typeof studyplanSchema>;

/** Spec §5: none, always passes. The schedule's own consistency is checked by scheduleProblem. */
export const validateStudyplan = validator<Partial<StudyplanInput>>();

export function normalizeStudyplan<T extends Partial<StudyplanInput>>(data: T): T {
  return data;
}

export const emptyStudyplan = (studyUuid?: string | null): Partial<StudyplanInput> => ({
  studyId: null,
  studyUuid: studyUuid ?? null,
  calculationMode: defaultCalculationMode,
  schedule: [],
});

/** The counts behind the studyplan status badge. */
export type PlanCounts = {
  studyplanId: number | null;
  mandatoryStudyplanVisitCount: number | null;
  mandatoryVisitCount: number | null;
};

/** Rows of GET studyplans: one per study, with its plan if any; the row id is studyUuid. */
export type StudyplanListRow = PlanCounts & {
  studyId: number;
  studyUuid: string;
  studyName: string;
  protocolNr: string | null;
  studyplanUuid: string | null;
  /** "Studyplan: n" */
  studyplanVisitCount: number;
};
