import { z } from "zod";
import { projectStatusIds, type StudyVariant, studyVariants } from "../constants";
import { isValidIsoDate } from "../rules/dates";
import { idRef, recordMeta, text } from "../schema";
import { check, required, validator } from "../validation";
import { blankToNull, dateField, oneOf, viewTexts } from "./fields";

export type Study = {
  id: number;
  uuid: string;
  version: number;
  projectId: number;
  variant: StudyVariant;
  workingName: string;
  fpfv: string;
  lpfv: string;
  lplv: string;
  variantDescription: string | null;
  projectStatusId: number;
  // View fields the server adds.
  projectWorkingName: string | null;
  projectInternalCode: string | null;
  protocolNr: string | null;
};

export const variantDescriptionMaxLength = 200;

export const studySchema = z.strictObject({
  ...recordMeta,
  projectId: idRef().nullish(),
  variant: z.enum(studyVariants).nullish(),
  workingName: text(),
  fpfv: dateField(),
  lpfv: dateField(),
  lplv: dateField(),
  variantDescription: text(variantDescriptionMaxLength).nullish(),
  projectStatusId: oneOf(projectStatusIds).nullish(),
  // Read-only view fields; accepted so a loaded record can be sent back whole.
  ...viewTexts("projectWorkingName", "projectInternalCode", "protocolNr"),
});
export type StudyInput = z.infer<typeof studySchema>;

export const validateStudy = validator<Partial<StudyInput>>(
  required("projectId", "Project is required"),
  required("workingName", "Working name is required"),
  required("variant", "Variant is required"),
  required("fpfv", "FPFV is required"),
  required("lpfv", "LPFV is required"),
  required("lplv", "LPLV is required"),
  required("projectStatusId", "Status is required"),
  // First patient first visit, last patient first visit, last patient last visit come in this order.
  check(
    "lpfv",
    (study) => !isValidIsoDate(study.fpfv) || !isValidIsoDate(study.lpfv) || study.fpfv <= study.lpfv,
    "LPFV cannot be before FPFV",
  ),
  check(
    "lplv",
    (study) => !isValidIsoDate(study.lpfv) || !isValidIsoDate(study.lplv) || study.lpfv <= study.lplv,
    "LPLV cannot be before LPFV",
  ),
);

/** An emptied date input is no date. */
export function normalizeStudy<T extends Partial<StudyInput>>(data: T): T {
  const next = { ...data };
  for (const key of ["fpfv", "lpfv", "lplv"] as const) {
    if (typeof next[key] === "string") next[key] = blankToNull(next[key]);
  }
  return next;
}

export const emptyStudy = (): Partial<StudyInput> => ({
  projectId: null,
  variant: null,
  workingName: "",
  fpfv: null,
  lpfv: null,
  lplv: null,
  variantDescription: "",
  projectStatusId: null,
});

/** Rows of GET studies: the list shows id, workingName, variant, fpfv, lpfv, lplv. */
export type StudyListRow = Pick<
  Study,
  | "id"
  | "uuid"
  | "workingName"
  | "variant"
  | "fpfv"
  | "lpfv"
  | "lplv"
  | "projectWorkingName"
  | "projectInternalCode"
>;

/** Items of the study lookup (GET studies, page 1, size 100, with search). */
export type StudyLookupItem = Pick<
  Study,
  "id" | "uuid" | "workingName" | "variant" | "projectWorkingName" | "projectInternalCode"
>;

/** Rows of GET studies?format=option-view (page 1, size 250). */
export type StudyOption = {
  id: number;
  uuid: string;
  workingName: string;
  protocolNr: string;
  visitCount: number;
  hasRandomVisit: boolean;
};
