import type { ResourceName } from "../registry";
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
};

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
  "fromVisitId" | "daysFromStart" | "allowedDaysBefore" | "allowedDaysAfter" | "sequence"
>;

const windowText = (row: ScheduleRow) => `−${row.allowedDaysBefore}/+${row.allowedDaysAfter}`;

/**
 * A schedule change, one line per added, removed or changed row, rows matched by their visit:
 * "V3 Week 4: day 28 → 30, window −2/+2 → −3/+3". Rows are named by their position in the plan
 * (V1 is the first visit) and the visit's name.
 */
export function scheduleChangeLines(
  before: readonly ScheduleRow[] | null,
  after: readonly ScheduleRow[] | null,
  visitName: (visitId: number) => string,
): string[] {
  const old = new Map((before ?? []).map((row) => [row.fromVisitId, row]));
  const now = new Map((after ?? []).map((row) => [row.fromVisitId, row]));
  const name = (row: ScheduleRow) => `V${row.sequence} ${visitName(row.fromVisitId)}`;
  const lines: string[] = [];
  for (const row of [...now.values()].sort((a, b) => a.sequence - b.sequence)) {
    const was = old.get(row.fromVisitId);
    if (!was) {
      lines.push(`${name(row)} added: day ${row.daysFromStart}, window ${windowText(row)}`);
      continue;
    }
    const parts: string[] = [];
    if (was.sequence !== row.sequence) parts.push(`moved from V${was.sequence}`);
    if (was.daysFromStart !== row.daysFromStart)
      parts.push(`day ${was.daysFromStart} → ${row.daysFromStart}`);
    if (windowText(was) !== windowText(row)) parts.push(`window ${windowText(was)} → ${windowText(row)}`);
    if (parts.length > 0) lines.push(`${name(row)}: ${parts.join(", ")}`);
  }
  for (const row of [...old.values()].sort((a, b) => a.sequence - b.sequence)) {
    if (!now.has(row.fromVisitId))
      lines.push(`${name(row)} removed (day ${row.daysFromStart}, window ${windowText(row)})`);
  }
  return lines;
}
