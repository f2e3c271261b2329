import { contactTypes } from "../constants";
import type { ResourceName } from "../registry";
import { sharesTotal } from "../rules/money";
import type { AuditChange, AuditEvent } from "../session";
import type { ScheduleEntry } from "./studyplans";

/**
 * What a record's history (GET /api/audit) needs beyond the stored changes: which fields name
 * another record, so the server can answer that record's name in place of its id.
 */
export type HistoryReference = {
  resource: ResourceName;
  /**
   * The record's view fields that show the referenced record (its name at the time of the change).
   * They repeat the reference, so the history leaves them out; the detail row showing the first of
   * them gives the reference its label, and its value names a record deleted since.
   */
  shownAs: string[];
};

/** The references of each resource's records, by field (dotted for nested parts). */
export const historyReferences: Partial<Record<ResourceName, Record<string, HistoryReference>>> = {
  "study-patients": {
    patientId: { resource: "patients", shownAs: ["lastName", "firstName", "barcode"] },
    studyId: { resource: "studies", shownAs: ["studyWorkingName", "projectInternalCode", "studyUuid"] },
    startedBy: { resource: "users", shownAs: ["startedByName"] },
    closedBy: { resource: "users", shownAs: ["closedByName"] },
  },
  "patient-visits": {
    patientId: { resource: "patients", shownAs: ["patientName"] },
    studyId: { resource: "studies", shownAs: ["studyName"] },
    visitId: { resource: "visits", shownAs: ["visitName"] },
  },
  patients: { recorderSiteId: { resource: "sites", shownAs: [] } },
  "protocol-deviations": {
    patientId: { resource: "patients", shownAs: ["patientName", "barcode"] },
    studyId: { resource: "studies", shownAs: ["studyName"] },
    visitId: { resource: "visits", shownAs: ["visitName"] },
    siteId: { resource: "sites", shownAs: [] },
  },
  "monitor-assignments": {
    monitorId: { resource: "monitors", shownAs: ["monitorName"] },
    studyId: { resource: "studies", shownAs: ["studyName"] },
    siteIds: { resource: "sites", shownAs: [] },
  },
  queries: {
    studyId: { resource: "studies", shownAs: ["studyName"] },
    siteId: { resource: "sites", shownAs: [] },
  },
  statements: {
    projectId: { resource: "projects", shownAs: ["projectName"] },
    siteId: { resource: "sites", shownAs: ["siteCode"] },
  },
  payments: {
    projectId: { resource: "projects", shownAs: ["projectName"] },
    siteId: { resource: "sites", shownAs: ["siteCode"] },
  },
  projects: {
    "details.therapyAreaId": { resource: "therapy-areas", shownAs: ["therapyAreaName"] },
    "details.croId": { resource: "partners", shownAs: ["croName"] },
    "details.sponsorId": { resource: "partners", shownAs: ["sponsorName"] },
    siteIds: { resource: "sites", shownAs: [] },
  },
  studies: {
    projectId: {
      resource: "projects",
      shownAs: ["projectWorkingName", "projectInternalCode", "protocolNr"],
    },
  },
  studyplans: { studyId: { resource: "studies", shownAs: ["studyName", "studyUuid"] } },
  visits: { studyId: { resource: "studies", shownAs: ["studyName", "protocolNr"] } },
  "therapy-areas": {
    therapyCategoryId: { resource: "therapy-categories", shownAs: ["therapyCategoryName"] },
  },
  users: { siteIds: { resource: "sites", shownAs: [] } },
};

/**
 * View fields that only repeat a stored field in other words (a visit's type name beside its type
 * code, its name twice), or that tell what other records do (whether a visit or an assignment has
 * visits recorded): the history lists the stored fields, shown with their help.
 */
export const historyRepeats: Partial<Record<ResourceName, string[]>> = {
  visits: ["visitName", "visitType", "inUse"],
  "study-patients": ["hasVisits"],
  // Who verified the source and when go with its state; how many queries other records keep open.
  "patient-visits": ["sdvVerifiedByName", "sdvVerifiedAt", "openQueries"],
};

/**
 * The history's words for a field no detail row names alone: a reference whose detail row shows the
 * id itself (the patient's "Recorder site id", as the spec lists it), or a field no row shows.
 */
export const historyLabels: Partial<Record<ResourceName, Record<string, string>>> = {
  patients: { recorderSiteId: "Recorder site" },
  "protocol-deviations": { siteId: "Site" },
  queries: { siteId: "Site", message: "Message" },
  "study-patients": { sdvSelected: "In the source verification sample" },
};

/**
 * What no person entered and the history never shows (issue 46): the server's own columns and
 * links (the patient's address row and its only type, a query's visit and thread, whether a password
 * is set), and what only follows from the day (whether an assignment is current). The server leaves
 * them out of its answer; a change a person made to them is told by another field (a new password
 * is "Password: changed", a message in a thread is "Message").
 */
export const historyHidden: Partial<Record<ResourceName, string[]>> = {
  patients: ["addressId", "address.id", "address.addressType"],
  users: ["hasPassword", "lastPasswordChangeDate"],
  monitors: ["hasPassword", "lastPasswordChangeDate"],
  "protocol-deviations": ["studyPatientId"],
  "monitor-assignments": ["current"],
  queries: ["patientVisitId", "patientVisitUuid", "createdAt", "updatedAt", "messages"],
};

const contactTypeLabel = (type: unknown) => contactTypes.find((c) => c.value === type)?.label ?? "Contact";

/**
 * Fields that hold a list a person fills in, and how one item is told (as the detail shows it):
 * the history tells the items added and removed, never the rows' ids, which every save renews.
 */
export const historyLists: Partial<
  Record<ResourceName, Record<string, (item: Record<string, unknown>) => string>>
> = {
  patients: {
    contacts: (c) => `${contactTypeLabel(c.contactType)} ${c.value ?? ""}${c.notes ? ` — ${c.notes}` : ""}`,
  },
};

/** Items of a list field added and removed between two saves, one line each: "Email a@b.hu added". */
export function listChangeLines(
  before: readonly Record<string, unknown>[] | null,
  after: readonly Record<string, unknown>[] | null,
  text: (item: Record<string, unknown>) => string,
): string[] {
  const left = (before ?? []).map(text);
  const added: string[] = [];
  for (const item of (after ?? []).map(text)) {
    const kept = left.indexOf(item);
    if (kept >= 0) left.splice(kept, 1);
    else added.push(item);
  }
  return [...added.map((item) => `${item} added`), ...left.map((item) => `${item} removed`)];
}

/** Shown for a referenced record the reader may not see (another site's patient). */
export const notVisibleText = "(not visible)";
/** Shown after what is known of a referenced record deleted since. */
export const deletedText = "(deleted)";

/**
 * One change as the history answers it: the stored values, with the referenced records' names
 * (oldText/newText) or, for a studyplan's schedule, one line per changed schedule row.
 */
export type HistoryChange = AuditChange & {
  oldText?: string | null;
  newText?: string | null;
  lines?: string[];
};
export type HistoryEvent = Omit<AuditEvent, "changes"> & { changes: HistoryChange[] };

type ScheduleRow = Pick<
  ScheduleEntry,
  | "fromVisitId"
  | "toVisitId"
  | "daysFromStart"
  | "allowedDaysBefore"
  | "allowedDaysAfter"
  | "sequence"
  | "feeShare"
>;

/** One visit of a plan as the schedule places it: its position, its day and window (none for the first). */
type Placed = {
  visitId: number;
  sequence: number;
  days: number;
  window: string | null;
  share: string | null;
};

/**
 * The visits a schedule places: the first at day 0, each next one by the row leading to it (the
 * row from visit k holds the days and window of visit k+1, as scheduleVisits reads it). The last
 * row leads nowhere, so its days place nothing.
 */
function placedVisits(rows: readonly ScheduleRow[] | null): Map<number, Placed> {
  const placed = new Map<number, Placed>();
  const ordered = [...(rows ?? [])].sort((a, b) => a.sequence - b.sequence);
  // A visit's fee share is its own row's (issue 45), whatever row places it.
  const shareOf = (visitId: number) =>
    shareText(ordered.find((row) => row.fromVisitId === visitId)?.feeShare);
  const first = ordered[0];
  if (first)
    placed.set(first.fromVisitId, {
      visitId: first.fromVisitId,
      sequence: 1,
      days: 0,
      window: null,
      share: shareOf(first.fromVisitId),
    });
  for (const row of ordered) {
    if (row.toVisitId === null) continue;
    placed.set(row.toVisitId, {
      visitId: row.toVisitId,
      sequence: row.sequence + 1,
      days: row.daysFromStart,
      window: `−${row.allowedDaysBefore}/+${row.allowedDaysAfter}`,
      share: shareOf(row.toVisitId),
    });
  }
  return placed;
}

/** A stored share ("25.00") as a person typed it ("25 %"); none is null. */
const shareText = (share: string | null | undefined) => (share ? `${sharesTotal([share])} %` : null);

const placement = (visit: Placed) =>
  `day ${visit.days}${visit.window ? `, window ${visit.window}` : ""}${visit.share ? `, fee share ${visit.share}` : ""}`;

/**
 * A schedule change, one line per visit added, removed, moved or placed otherwise, each named by
 * its position in the plan (V1 is the first visit) and its name: "V3 Week 4: day 28 → 30, window
 * −2/+2 → −3/+3". The days and window are those that place that visit (issue 46: the row from
 * Screening to Randomisation places Randomisation); the first visit is day 0 itself.
 */
export function scheduleChangeLines(
  before: readonly ScheduleRow[] | null,
  after: readonly ScheduleRow[] | null,
  visitName: (visitId: number) => string,
): string[] {
  const old = placedVisits(before);
  const now = placedVisits(after);
  const name = (visit: Placed) => `V${visit.sequence} ${visitName(visit.visitId)}`;
  const bySequence = (a: Placed, b: Placed) => a.sequence - b.sequence;
  const lines: string[] = [];
  for (const visit of [...now.values()].sort(bySequence)) {
    const was = old.get(visit.visitId);
    if (!was) {
      lines.push(`${name(visit)} added: ${placement(visit)}`);
      continue;
    }
    const parts: string[] = [];
    if (was.sequence !== visit.sequence) parts.push(`moved from V${was.sequence}`);
    if (was.days !== visit.days) parts.push(`day ${was.days} → ${visit.days}`);
    if (was.window !== visit.window) parts.push(`window ${was.window ?? "none"} → ${visit.window ?? "none"}`);
    if (was.share !== visit.share) parts.push(`fee share ${was.share ?? "none"} → ${visit.share ?? "none"}`);
    if (parts.length > 0) lines.push(`${name(visit)}: ${parts.join(", ")}`);
  }
  for (const visit of [...old.values()].sort(bySequence)) {
    if (!now.has(visit.visitId)) lines.push(`${name(visit)} removed (${placement(visit)})`);
  }
  return lines;
}
