import { z } from "zod";
import { notesMaxLength } from "../constants";
import { idRef, recordMeta, text } from "../schema";
import { check, required, validator } from "../validation";
import { dateField, emptiedToNull, siteIds, viewTexts } from "./fields";

/**
 * A monitor's access to a study (issue 44), for dated periods as site tools give it (Veeva SiteVault,
 * Florence): read-only, at the listed sites of the study (none listed: every site of the study's
 * project), from `accessFrom` to `accessTo` inclusive. Outside its dates it gives nothing.
 */
export type MonitorAssignment = {
  id: number;
  uuid: string;
  version: number;
  monitorId: number;
  studyId: number;
  siteIds: number[];
  /** yyyy-MM-dd */
  accessFrom: string;
  /** yyyy-MM-dd, inclusive */
  accessTo: string;
  notes: string | null;
  // View fields the server adds.
  monitorName: string | null;
  studyName: string | null;
  /** Whether today lies within its dates (the server's today). */
  current: boolean;
};

export const monitorAssignmentSchema = z.strictObject({
  ...recordMeta,
  monitorId: idRef().nullish(),
  studyId: idRef().nullish(),
  siteIds: siteIds().nullish(),
  accessFrom: dateField(),
  accessTo: dateField(),
  notes: text(notesMaxLength).nullish(),
  current: z.boolean().nullish(),
  ...viewTexts("monitorName", "studyName"),
});
export type MonitorAssignmentInput = z.infer<typeof monitorAssignmentSchema>;
type AssignmentForm = Partial<MonitorAssignmentInput>;

export const monitorAssignmentMessages = {
  monitorRequired: "Monitor is required",
  studyRequired: "Study is required",
  accessFromRequired: "Access from is required",
  accessToRequired: "Access to is required",
  accessToBeforeFrom: "Access to cannot be before Access from",
  siteOfOtherProject: "A chosen site is not a site of the study's project",
} as const;

export const validateMonitorAssignment = validator<AssignmentForm>(
  required("monitorId", monitorAssignmentMessages.monitorRequired),
  required("studyId", monitorAssignmentMessages.studyRequired),
  required("accessFrom", monitorAssignmentMessages.accessFromRequired),
  required("accessTo", monitorAssignmentMessages.accessToRequired),
  check(
    "accessTo",
    (data) => !data.accessFrom || !data.accessTo || data.accessTo >= data.accessFrom,
    monitorAssignmentMessages.accessToBeforeFrom,
  ),
);

export function normalizeMonitorAssignment<T extends AssignmentForm>(data: T): T {
  return emptiedToNull(data, ["accessFrom", "accessTo"]);
}

export const emptyMonitorAssignment = (): AssignmentForm => ({
  monitorId: null,
  studyId: null,
  siteIds: [],
  accessFrom: null,
  accessTo: null,
  notes: "",
});

/** Whether an assignment gives access on `today` (yyyy-MM-dd): its dates are inclusive. */
export const assignmentIsCurrent = (a: Pick<MonitorAssignment, "accessFrom" | "accessTo">, today: string) =>
  a.accessFrom <= today && today <= a.accessTo;
