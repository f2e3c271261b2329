import { z } from "zod";
import { notesMaxLength } from "../constants";
import { idRef, recordMeta, text } from "../schema";
import { check, required, validator } from "../validation";
import { viewTexts } from "./fields";

/**
 * A monitor's query on a patient visit (issue 44): OPEN → ANSWERED → CLOSED, or back to OPEN. The
 * monitor opens and closes it; a message from the site answers it; a message from the monitor on an
 * answered query asks again (OPEN).
 */
export const queryStatuses = [
  { value: "OPEN", label: "Open" },
  { value: "ANSWERED", label: "Answered" },
  { value: "CLOSED", label: "Closed" },
] as const;
export type QueryStatus = (typeof queryStatuses)[number]["value"];
export const queryStatusValues = queryStatuses.map((s) => s.value) as QueryStatus[];

export const queryTextMaxLength = notesMaxLength;

export type QueryMessage = {
  at: string;
  authorKind: "monitor" | "site";
  authorName: string;
  text: string;
};

export type Query = {
  id: number;
  uuid: string;
  version: number;
  patientVisitId: number;
  text: string;
  status: QueryStatus;
  // View fields the server adds.
  patientVisitUuid: string;
  barcode: string;
  studyId: number;
  studyName: string;
  siteId: number;
  visitName: string;
  visitDate: string | null;
  openedByName: string | null;
  createdAt: string;
  updatedAt: string;
  messages?: QueryMessage[];
};

export const querySchema = z.strictObject({
  ...recordMeta,
  patientVisitId: idRef().nullish(),
  text: text(queryTextMaxLength).nullish(),
  status: z.enum(queryStatusValues, { error: "Status must be Open, Answered or Closed" }).nullish(),
  // What the server sets or derives; accepted so a loaded record can be sent back whole, never taken.
  studyId: z.number().int().nullish(),
  siteId: z.number().int().nullish(),
  visitDate: z.string().nullish(),
  createdAt: z.string().nullish(),
  updatedAt: z.string().nullish(),
  messages: z.array(z.unknown()).nullish(),
  ...viewTexts("patientVisitUuid", "barcode", "studyName", "visitName", "openedByName"),
});
export type QueryInput = z.infer<typeof querySchema>;
type QueryForm = Partial<QueryInput>;

export const queryMessages = {
  patientVisitRequired: "Patient visit is required",
  patientVisitNotFound: "Patient visit does not exist",
  textRequired: "Query is required",
  monitorsOnly: "Only a monitor opens and closes queries",
  answeredByMessage: "A query is answered by a message from the site",
  closed: "This query is closed: the monitor reopens it to continue",
  messageRequired: "Message is required",
  neverDeleted: "A query is never deleted: close it instead",
} as const;

export const validateQuery = validator<QueryForm>(
  required("patientVisitId", queryMessages.patientVisitRequired),
  required("text", queryMessages.textRequired),
  check("status", (data) => data.status !== "ANSWERED", queryMessages.answeredByMessage),
);

export const emptyQuery = (): QueryForm => ({ patientVisitId: null, text: "", status: "OPEN" });

/**
 * The status a message moves a query to: the site's answers it, the monitor's on an answered query
 * asks again. A closed query takes no message (null).
 */
export function statusAfterMessage(status: QueryStatus, from: "monitor" | "site"): QueryStatus | null {
  if (status === "CLOSED") return null;
  if (from === "site") return "ANSWERED";
  return "OPEN";
}

export const queryMessageSchema = z.strictObject({ text: text(queryTextMaxLength) });

/** Rows of GET queries. */
export type QueryListRow = Pick<
  Query,
  | "id"
  | "uuid"
  | "version"
  | "patientVisitId"
  | "studyId"
  | "siteId"
  | "openedByName"
  | "updatedAt"
  | "barcode"
  | "studyName"
  | "visitName"
  | "visitDate"
  | "text"
  | "status"
  | "createdAt"
  | "patientVisitUuid"
>;
