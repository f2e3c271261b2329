import {
  type AuditEvent,
  deletedText,
  type HistoryChange,
  type HistoryEvent,
  historyHidden,
  historyLists,
  historyReferences,
  listChangeLines,
  notVisibleText,
  patientOptionLabel,
  type ResourceName,
  type ScheduleEntry,
  scheduleChangeLines,
} from "@trialdesk/domain";
import { inArray, type SQL, sql } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import type { Db } from "../db/client";
import { monitors } from "../resources/monitors/monitors.table";
import { partners } from "../resources/partners/partners.table";
import { patients } from "../resources/patients/patients.table";
import { projects } from "../resources/projects/projects.table";
import type { RecordTable } from "../resources/resource";
import { sites } from "../resources/sites/sites.table";
import { studies } from "../resources/studies/studies.table";
import { therapyAreas } from "../resources/therapy-areas/therapy-areas.table";
import { therapyCategories } from "../resources/therapy-categories/therapy-categories.table";
import { users } from "../resources/users/users.table";
import { visits } from "../resources/visits/visits.table";

type NameRow = Record<string, string | null>;

/** How a referenced record is named in a history: as the app's lists and selectors name it. */
const namers: Partial<
  Record<
    ResourceName,
    { table: RecordTable; columns: Record<string, PgColumn>; text: (row: NameRow) => string }
  >
> = {
  studies: { table: studies, columns: { name: studies.workingName }, text: (r) => r.name ?? "" },
  projects: { table: projects, columns: { name: projects.workingName }, text: (r) => r.name ?? "" },
  partners: { table: partners, columns: { name: partners.name }, text: (r) => r.name ?? "" },
  visits: { table: visits, columns: { name: visits.name }, text: (r) => r.name ?? "" },
  "therapy-areas": { table: therapyAreas, columns: { name: therapyAreas.name }, text: (r) => r.name ?? "" },
  "therapy-categories": {
    table: therapyCategories,
    columns: { name: therapyCategories.name },
    text: (r) => r.name ?? "",
  },
  sites: {
    table: sites,
    columns: { code: sites.code, shortName: sites.shortName },
    text: (r) => `${r.code} - ${r.shortName}`,
  },
  users: {
    table: users,
    columns: { firstName: users.firstName, lastName: users.lastName },
    text: (r) => `${r.firstName} ${r.lastName}`,
  },
  monitors: {
    table: monitors,
    columns: { firstName: monitors.firstName, lastName: monitors.lastName },
    text: (r) => `${r.firstName} ${r.lastName}`,
  },
  patients: {
    table: patients,
    columns: { lastName: patients.lastName, firstName: patients.firstName, barcode: patients.barcode },
    text: (r) => patientOptionLabel(r),
  },
};

/** The ids a stored value names: one id, a list of ids (siteIds), or none. */
const idsIn = (value: unknown): number[] =>
  (Array.isArray(value) ? value : [value]).filter((v): v is number => typeof v === "number");

const scheduleOf = (value: unknown) => (Array.isArray(value) ? (value as ScheduleEntry[]) : null);
const itemsOf = (value: unknown) => (Array.isArray(value) ? (value as Record<string, unknown>[]) : null);

/** Nothing entered: no value, an empty text or an empty list (a new record's blank fields). */
const isEmpty = (value: unknown) =>
  value === null || value === undefined || value === "" || (Array.isArray(value) && value.length === 0);

/**
 * Names the records a page of one record's history refers to, with one query per referenced
 * resource for all its ids on the page. `scopeOf` is the reader's row filter of a resource (its
 * site scope): a record outside it is "(not visible)", so another site's patient is never named.
 */
async function namesOf(
  db: Db,
  wanted: Map<ResourceName, Set<number>>,
  scopeOf: (resource: ResourceName) => SQL | undefined,
): Promise<Map<ResourceName, Map<number, string>>> {
  const names = new Map<ResourceName, Map<number, string>>();
  // One after the other: a PGlite or pooled connection answers them in turn anyway.
  for (const [resource, ids] of wanted) {
    const namer = namers[resource];
    if (!namer || ids.size === 0) continue;
    const scope = scopeOf(resource);
    const rows = (await db
      .select({
        id: namer.table.id,
        visible: scope ? sql<boolean>`(${scope})` : sql<boolean>`true`,
        ...namer.columns,
      })
      .from(namer.table)
      .where(inArray(namer.table.id, [...ids]))) as ({ id: number; visible: boolean } & NameRow)[];
    names.set(resource, new Map(rows.map((row) => [row.id, row.visible ? namer.text(row) : notVisibleText])));
  }
  return names;
}

/**
 * A page of one record's history as the reader is to see it, only what a person entered (issue 46):
 * referenced records named (oldText, newText) instead of their ids, the view fields that only repeat
 * them and the server's own columns (historyHidden) left out, as are fields blank before and after;
 * a studyplan's schedule told visit by visit and a list a person fills in (a patient's contacts)
 * item by item (lines).
 */
export async function describeHistory(
  db: Db,
  resource: string,
  events: AuditEvent[],
  scopeOf: (resource: ResourceName) => SQL | undefined,
): Promise<HistoryEvent[]> {
  const refs = historyReferences[resource as ResourceName] ?? {};
  const lists = historyLists[resource as ResourceName] ?? {};
  const leftOut = new Set([
    ...Object.values(refs).flatMap((ref) => ref.shownAs),
    ...(historyHidden[resource as ResourceName] ?? []),
  ]);
  const isSchedule = (field: string) => resource === "studyplans" && field === "schedule";

  const wanted = new Map<ResourceName, Set<number>>();
  const want = (name: ResourceName, ids: number[]) => {
    const set = wanted.get(name) ?? new Set<number>();
    for (const id of ids) set.add(id);
    wanted.set(name, set);
  };
  for (const event of events) {
    for (const change of event.changes) {
      const ref = refs[change.field];
      if (ref) want(ref.resource, [...idsIn(change.old), ...idsIn(change.new)]);
      if (isSchedule(change.field))
        want(
          "visits",
          [...(scheduleOf(change.old) ?? []), ...(scheduleOf(change.new) ?? [])].map(
            (row) => row.fromVisitId,
          ),
        );
    }
  }
  const names = await namesOf(db, wanted, scopeOf);

  return events.map((event) => {
    const byField = new Map(event.changes.map((change) => [change.field, change]));
    const changes = event.changes.flatMap((change): HistoryChange[] => {
      if (leftOut.has(change.field) || (isEmpty(change.old) && isEmpty(change.new))) return [];
      const itemText = lists[change.field];
      if (itemText) {
        const lines = listChangeLines(itemsOf(change.old), itemsOf(change.new), itemText);
        // A save that only renewed the items' rows is no change to tell.
        return lines.length > 0 ? [{ ...change, lines }] : [];
      }
      if (isSchedule(change.field)) {
        const visitNames = names.get("visits");
        const lines = scheduleChangeLines(
          scheduleOf(change.old),
          scheduleOf(change.new),
          (id) => visitNames?.get(id) ?? deletedText,
        );
        // Rows written again with nothing changed (new row ids only) are no change to tell.
        return lines.length > 0 ? [{ ...change, lines }] : [];
      }
      const ref = refs[change.field];
      if (!ref) return [change];
      const known = names.get(ref.resource);
      // What the record's own view said of a referenced record deleted since; never a patient's
      // name, whose site can no longer be checked.
      const keptName = (side: "old" | "new") => {
        const kept = ref.resource === "patients" ? null : byField.get(ref.shownAs[0] ?? "")?.[side];
        return typeof kept === "string" && kept !== "" ? `${kept} ${deletedText}` : deletedText;
      };
      const text = (value: unknown, side: "old" | "new") => {
        const ids = idsIn(value);
        if (ids.length === 0) return null;
        return ids.map((id) => known?.get(id) ?? keptName(side)).join(", ");
      };
      return [{ ...change, oldText: text(change.old, "old"), newText: text(change.new, "new") }];
    });
    return { ...event, changes };
  });
}
