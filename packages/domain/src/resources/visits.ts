import { z } from "zod";
import { type VisitTypeId, visitTypeIds } from "../constants";
import { idRef, recordMeta, text } from "../schema";
import { required, validator } from "../validation";
import { oneOf, viewTexts } from "./fields";

/** A visit definition of a study. */
export type Visit = {
  id: number;
  uuid: string;
  version: number;
  studyId: number;
  name: string;
  visitTypeId: VisitTypeId;
  /** 0 or 1. */
  mandatory: 0 | 1;
  // View fields the server adds.
  /** The label of the visit type, e.g. "Randomisation". */
  visitType: string | null;
  studyName: string | null;
  protocolNr: string | null;
  /** Whether it is recorded for patients or planned in a studyplan: then it keeps its study. */
  inUse: boolean;
};

/** Why a visit keeps its study (decision 152): the form says so before a save does. */
export const visitInUseMessage =
  "This visit is recorded for patients or planned in a studyplan: it cannot move to another study";

export const visitSchema = z.strictObject({
  ...recordMeta,
  studyId: idRef().nullish(),
  name: text(),
  visitTypeId: oneOf(visitTypeIds).nullish(),
  mandatory: oneOf([0, 1]).optional(),
  // Read-only view fields; accepted so a loaded record can be sent back whole.
  ...viewTexts("visitName", "visitType", "studyName", "protocolNr"),
  // Read-only: the server answers whether the visit is in use; accepted so a record can be sent back whole.
  inUse: z.boolean().nullish(),
});
export type VisitInput = z.infer<typeof visitSchema>;

export const validateVisit = validator<Partial<VisitInput>>(
  required("studyId", "Study is required"),
  required("visitTypeId", "Visit type is required"),
  required("name", "Visit name is required"),
);

/** Nothing to normalise; kept so every resource offers the same four pieces. */
export function normalizeVisit<T extends Partial<VisitInput>>(data: T): T {
  return data;
}

export const emptyVisit = (): Partial<VisitInput> => ({
  studyId: null,
  name: "",
  visitTypeId: null,
  mandatory: 0,
});

/** Rows of GET visits: the list shows Id, Study, Visit (visitName), Type and Mandatory. */
export type VisitListRow = Pick<
  Visit,
  "id" | "uuid" | "visitTypeId" | "visitType" | "mandatory" | "studyName"
> & {
  visitName: string;
};

/** Rows of GET studies/{studyUuid}/visits (page 1, size 100). */
export type StudyVisitRow = Pick<Visit, "id" | "uuid" | "name" | "visitTypeId" | "mandatory">;
