import {
  type CalculationMode,
  type DerivedDeviation,
  derivedDeviations,
  type Plan,
  type RecordedVisit,
  scheduleVisits,
  type VisitKind,
  type VisitState,
  type VisitStatus,
} from "@trialdesk/domain";
import { eq, type Placeholder, type SQL, sql } from "drizzle-orm";
import type { ChangeContext } from "../../audit/audit";
import { settings } from "../../auth/auth.table";
import { type Db, queryRows, type Tx, type Write, writeTogether } from "../../db/client";
import {
  deviationWrites,
  openAsStored,
  openKey,
  type StoredDeviation,
  storedDeviationsSql,
} from "../protocol-deviations/automatic-deviations";
import { intArray } from "../resource-query";
import type { visitSchedule } from "./visit-schedule.table";

/**
 * Keeps visit_schedule equal to what the domain's engine (scheduleVisits) says, for the assignments
 * a write touched. Every write that changes an input of the engine calls it in its own transaction:
 * patient visits (their patient and study), assignments, studyplans (all of the study's assignments).
 */

/** Raised when the engine's rules change, so that a start rebuilds every stored schedule once. */
export const visitScheduleEngineVersion = "3";

/** Who changed what when no request did: a start that rebuilds the stored schedules, the seed. */
export const systemChange: ChangeContext = {
  userId: null,
  userName: null,
  requestId: "visit-schedule-rebuild",
  reason: null,
};
const versionKey = "visit_schedule_engine_version";

export type ScheduleTarget =
  | { all: true }
  | { studyId: number }
  | { patientId: number; studyId: number }
  | { studyPatientIds: number[] };

type AssignmentRow = {
  id: number;
  patientId: number;
  studyId: number;
  siteId: number;
  active: boolean;
  startDate: string | null;
  closeDate: string | null;
};

const batchSize = 2_000;

/** A JSON value as read: PGlite answers it parsed, pg as text. */
const fromJson = <T>(value: T | string): T => (typeof value === "string" ? JSON.parse(value) : value);

/**
 * `column` is one of `ids`: a plain equality for one id, the usual case of a save. PostgreSQL keeps a
 * generic plan for a named statement of equalities (its estimate matches the custom plan's) but
 * planned the `= any(array)` form afresh on every call: ~0.35 ms of its time on every visit save.
 */
function oneOf(column: string, ids: readonly number[]): SQL {
  const name = sql.raw(column);
  return ids.length === 1 ? sql`${name} = ${Number(ids[0])}` : sql`${name} = any(${intArray(ids)}::int[])`;
}

function targetWhere(target: Exclude<ScheduleTarget, { all: true }>): SQL {
  if ("studyPatientIds" in target) return oneOf("sp.id", target.studyPatientIds);
  if ("patientId" in target)
    return sql`sp.patient_id = ${target.patientId} and sp.study_id = ${target.studyId}`;
  return sql`sp.study_id = ${target.studyId}`;
}

/** The assignments, locked in id order so that writes of one assignment take turns. */
const assignmentsSql = (where: SQL, lock: boolean, afterId = 0, limit?: number) =>
  sql`select sp.id, sp.patient_id as "patientId", sp.study_id as "studyId", p.recorder_site_id as "siteId",
        sp.active, sp.start_date::text as "startDate", sp.close_date::text as "closeDate"
      from study_patients sp join patients p on p.id = sp.patient_id
      where ${where} and sp.id > ${afterId}
      order by sp.id ${limit ? sql`limit ${limit}` : sql``} ${lock ? sql`for update of sp` : sql``}`;

function assignments(db: Db | Tx, where: SQL, lock: boolean, afterId = 0, limit?: number) {
  return queryRows<AssignmentRow>(db, assignmentsSql(where, lock, afterId, limit));
}

/**
 * The patient's assignments to the study (the `patientId` and `studyId` placeholders), locked (FOR
 * UPDATE, in id order, as every rebuild locks them) and answered as a JSON array, for a statement that
 * checks them and is built once; the save hands its answer to its rebuild (lockedAssignmentsOf).
 */
export const lockedAssignmentsJson = sql<
  AssignmentRow[] | string
>`(select coalesce(json_agg(a order by a.id), '[]')
  from (${assignmentsSql(
    sql`sp.patient_id = ${sql.placeholder("patientId")} and sp.study_id = ${sql.placeholder("studyId")}`,
    true,
  )}) a)`;

/**
 * A patient's assignments to a study that a visit's save has already locked and read in its check
 * (lockedAssignmentsJson), handed to its window rebuild, which then need not lock and read them again:
 * one statement less for every save (issue 14). They cannot change while locked, and the rebuild's
 * read of visits still comes in a later statement, after the locks (decision 149).
 */
export type LockedAssignments = AssignmentRow[];

/** The answer of `lockedAssignmentsJson`, which the save hands to its rebuild (keepVisitSchedules). */
export const lockedAssignmentsOf = (answer: AssignmentRow[] | string): LockedAssignments => fromJson(answer);

/** A study's plan as read: its entries as arrays (from, to, days, before, after, sequence), in order. */
type PlanRow = {
  studyId: number;
  calculationMode: CalculationMode;
  entries: [number, number | null, number, number, number, number][] | string;
  unscheduled: number[] | string;
};

// One row per plan, its entries as arrays, not objects with their keys: half of PostgreSQL's time for
// the plan that every patient visit's save reads (issue 14).
const plansSql = (where: SQL) =>
  sql`select p.study_id as "studyId", p.calculation_mode as "calculationMode",
        (select coalesce(json_agg(json_build_array(e.from_visit_id, e.to_visit_id, e.days_from_start,
            e.allowed_days_before, e.allowed_days_after, e.sequence) order by e.sequence), '[]')
          from studyplan_schedule_entries e where e.studyplan_id = p.id) as entries,
        (select coalesce(json_agg(v.id), '[]') from visits v
          where v.study_id = p.study_id and v.visit_type_id = 100) as unscheduled
      from studyplans p
      where ${where}`;

function plansFrom(rows: PlanRow[]): Map<number, Plan> {
  const plans = new Map<number, Plan>();
  for (const row of rows) {
    const schedule = fromJson(row.entries).map(
      ([fromVisitId, toVisitId, daysFromStart, allowedDaysBefore, allowedDaysAfter, sequence]) => ({
        fromVisitId,
        toVisitId,
        daysFromStart,
        allowedDaysBefore,
        allowedDaysAfter,
        sequence,
      }),
    );
    plans.set(row.studyId, {
      calculationMode: row.calculationMode,
      schedule,
      unscheduledVisitIds: fromJson(row.unscheduled),
    });
  }
  return plans;
}

export async function plansOf(db: Db | Tx, studyIds: number[]): Promise<Map<number, Plan>> {
  return plansFrom(await queryRows<PlanRow>(db, plansSql(oneOf("p.study_id", studyIds))));
}

type Recorded = RecordedVisit & { id: number; patientId: number; studyId: number };

const recordedColumns = sql`id, patient_id as "patientId", study_id as "studyId", visit_id as "visitId",
        visit_date::text as "visitDate", visit_status as "visitStatus"`;

const recordedSql = (batch: AssignmentRow[]) => {
  const patientIds = [...new Set(batch.map((a) => a.patientId))];
  const studyIds = [...new Set(batch.map((a) => a.studyId))];
  return sql`select ${recordedColumns} from patient_visits
      where ${oneOf("patient_id", patientIds)} and ${oneOf("study_id", studyIds)}`;
};

function recordedByPair(rows: Recorded[]) {
  const byPair = new Map<string, Recorded[]>();
  for (const row of rows) {
    const key = `${row.patientId}/${row.studyId}`;
    byPair.set(key, [...(byPair.get(key) ?? []), row]);
  }
  return byPair;
}

/** The rows stored for a batch, dates as text as the engine writes them, so equal rows compare equal. */
const storedSql = (batch: AssignmentRow[]) =>
  sql`select ${storedColumns} from visit_schedule
      where ${oneOf(
        "study_patient_id",
        batch.map((a) => a.id),
      )}`;

/** A query's rows as one JSON array, for reading several in one statement. */
const asJson = (query: SQL, order = sql``) =>
  sql`(select coalesce(json_agg(q ${order}), '[]') from (${query}) q)`;

/**
 * What rebuilding a batch reads — its plans, its recorded visits and its stored rows — in one round
 * trip, as JSON (issue 14: a patient visit's save pays for each round trip).
 */
async function readBatch(db: Db | Tx, batch: AssignmentRow[]) {
  const studyIds = [...new Set(batch.map((a) => a.studyId))];
  const [row] = await queryRows<{
    plans: PlanRow[];
    recorded: Recorded[];
    stored: ScheduleRow[];
    deviations: StoredDeviation[];
  }>(
    db,
    sql`select ${asJson(plansSql(oneOf("p.study_id", studyIds)))} as plans, ${asJson(recordedSql(batch))} as recorded,
        ${asJson(storedSql(batch))} as stored, ${asJson(
          storedDeviationsSql(
            oneOf(
              "d.study_patient_id",
              batch.map((a) => a.id),
            ),
          ),
        )} as deviations`,
  );
  return {
    plans: plansFrom(fromJson(row.plans)),
    recorded: recordedByPair(fromJson(row.recorded)),
    stored: fromJson(row.stored),
    deviations: fromJson(row.deviations),
  };
}

/**
 * Writes the engine's answer for a batch of (locked) assignments, replacing what was stored; with
 * `later`, leaves the writes there for the caller to run (see writeTogether).
 */
async function writeBatch(db: Db | Tx, batch: AssignmentRow[], change: ChangeContext, later?: Write[]) {
  if (batch.length === 0) return;
  const { plans, recorded, stored, deviations } = await readBatch(db, batch);
  const derived = new Map<number, DerivedDeviation[]>();
  const rows = batch.flatMap((assignment) => {
    const own = engineRows(
      assignment,
      plans.get(assignment.studyId) ?? null,
      recorded.get(`${assignment.patientId}/${assignment.studyId}`) ?? [],
    );
    derived.set(assignment.id, derivedDeviations(own));
    return own;
  });
  const kept = deviationWrites(batch, derived, deviations, change);
  markOpenDeviations(rows, kept.open);
  const writes = [...kept.writes, ...changesOf(stored, rows)];
  if (later) later.push(...writes);
  else await writeTogether(db, writes);
}

/** Each row says whether its visit's automatic protocol deviation is open (the worklist's chip). */
function markOpenDeviations(rows: ScheduleRow[], open: ReadonlySet<string>) {
  for (const row of rows) row.deviationOpen = open.has(openKey(row.studyPatientId, row.visitId));
}

/** The stored rows the engine gives one assignment: its windows, with the record that counts. */
function engineRows(assignment: AssignmentRow, plan: Plan | null, visits: Recorded[]): ScheduleRow[] {
  const rows: ScheduleRow[] = [];
  for (const scheduled of scheduleVisits(plan, assignment, visits)) {
    const record = scheduled.record as Recorded | undefined;
    rows.push({
      studyPatientId: assignment.id,
      patientId: assignment.patientId,
      studyId: assignment.studyId,
      siteId: assignment.siteId,
      active: assignment.active,
      visitId: scheduled.visitId,
      sequence: scheduled.sequence,
      expectedDate: scheduled.expectedDate,
      windowStart: scheduled.windowStart,
      windowEnd: scheduled.windowEnd,
      kind: scheduled.kind,
      bookedOutsideWindow: scheduled.bookedOutsideWindow,
      patientVisitId: record?.id ?? null,
      visitDate: record?.visitDate ?? null,
      visitStatus: (record?.visitStatus as VisitStatus | undefined) ?? null,
    });
  }
  return rows;
}

type ScheduleRow = typeof visitSchedule.$inferInsert;
const rowKey = (row: { studyPatientId: number; visitId: number }) => `${row.studyPatientId}/${row.visitId}`;
/**
 * Whether a stored row differs from the engine's, in any of recordsetColumns (both have dates as
 * text). Written out column by column: a loop over the columns' names read each by name, which was
 * the costliest part of comparing a save's windows (issue 14); a test changes each column in turn.
 */
const differs = (a: ScheduleRow, b: ScheduleRow) =>
  a.studyPatientId !== b.studyPatientId ||
  a.patientId !== b.patientId ||
  a.studyId !== b.studyId ||
  a.siteId !== b.siteId ||
  (a.active ?? null) !== (b.active ?? null) ||
  a.visitId !== b.visitId ||
  (a.sequence ?? null) !== (b.sequence ?? null) ||
  (a.expectedDate ?? null) !== (b.expectedDate ?? null) ||
  (a.windowStart ?? null) !== (b.windowStart ?? null) ||
  (a.windowEnd ?? null) !== (b.windowEnd ?? null) ||
  a.kind !== b.kind ||
  (a.bookedOutsideWindow ?? null) !== (b.bookedOutsideWindow ?? null) ||
  (a.patientVisitId ?? null) !== (b.patientVisitId ?? null) ||
  (a.visitDate ?? null) !== (b.visitDate ?? null) ||
  (a.visitStatus ?? null) !== (b.visitStatus ?? null) ||
  (a.deviationOpen ?? null) !== (b.deviationOpen ?? null);
export const recordsetColumns = [
  "studyPatientId",
  "patientId",
  "studyId",
  "siteId",
  "active",
  "visitId",
  "sequence",
  "expectedDate",
  "windowStart",
  "windowEnd",
  "kind",
  "bookedOutsideWindow",
  "patientVisitId",
  "visitDate",
  "visitStatus",
  "deviationOpen",
] as const satisfies (keyof ScheduleRow)[];
const snakeCase = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const dateColumns = new Set<string>(["expectedDate", "windowStart", "windowEnd", "visitDate"]);
// The column lists of the stored rows' read, insert and update, written once from recordsetColumns:
// building them on every save was a visible part of its process time (issue 14).
const storedColumns = sql.raw(
  recordsetColumns
    .map((column) => `"${snakeCase(column)}"${dateColumns.has(column) ? "::text" : ""} as "${column}"`)
    .join(", "),
);
const insertedColumns = sql.raw(recordsetColumns.map((column) => `"${snakeCase(column)}"`).join(", "));
const recordColumns = sql.raw(recordsetColumns.map((column) => `r."${column}"`).join(", "));
const upsertedColumns = sql.raw(
  recordsetColumns
    .filter((column) => column !== "studyPatientId" && column !== "visitId")
    .map((column) => `"${snakeCase(column)}" = excluded."${snakeCase(column)}"`)
    .join(", "),
);
/** The rows (one JSON parameter), read back as a record set (not 15 parameters a row). */
const recordset = (rows: Placeholder) => sql`json_to_recordset(${rows}::json) as r(
  "studyPatientId" int, "patientId" int, "studyId" int, "siteId" int,
  active boolean, "visitId" int, sequence int, "expectedDate" date, "windowStart" date, "windowEnd" date,
  kind varchar, "bookedOutsideWindow" boolean, "patientVisitId" int, "visitDate" date, "visitStatus" varchar,
  "deviationOpen" boolean)`;

/**
 * The writes that turn the stored rows `before` into the engine's `rows`, changing only what differs:
 * a recorded visit usually changes one row of an assignment's forty, and rewriting all of them (and
 * their index entries) made saving a patient visit cost 30 ms (issue 14). Rows are found by their
 * assignment and visit (unique), and written as upserts, so a row stored otherwise than `before`
 * says still ends up as the engine's. They touch different rows, so they can run as one statement;
 * each is of a fixed shape, its rows one parameter. Exported for its test.
 */
export function changesOf(before: ScheduleRow[], rows: ScheduleRow[]): Write[] {
  const beforeByKey = new Map<string, ScheduleRow>();
  for (const row of before) beforeByKey.set(rowKey(row), row);
  const upserts: ScheduleRow[] = [];
  for (const row of rows) {
    const key = rowKey(row);
    const old = beforeByKey.get(key);
    beforeByKey.delete(key);
    if (!old || differs(old, row)) upserts.push(row);
  }
  const deletes = [...beforeByKey.values()].map(({ studyPatientId, visitId }) => ({
    studyPatientId,
    visitId,
  }));
  const writes: Write[] = [];
  if (deletes.length > 0)
    writes.push({
      key: "delete visit_schedule rows",
      build: (value) =>
        sql`delete from visit_schedule vs using json_to_recordset(${value("rows")}::json) as r("studyPatientId" int, "visitId" int)
          where vs.study_patient_id = r."studyPatientId" and vs.visit_id = r."visitId"`,
      values: { rows: JSON.stringify(deletes) },
    });
  if (upserts.length > 0)
    writes.push({
      key: "upsert visit_schedule",
      build: (value) =>
        sql`insert into visit_schedule (${insertedColumns}) select ${recordColumns} from ${recordset(value("rows"))}
          on conflict (study_patient_id, visit_id) do update set ${upsertedColumns}`,
      values: { rows: JSON.stringify(upserts) },
    });
  return writes;
}

/**
 * Rebuilds the stored schedule of the target's assignments. Inside a write's transaction the
 * assignments are locked first (FOR UPDATE), so two simultaneous writes for one patient's study
 * take turns and the second reads what the first wrote. `all` works in batches, unlocked (start-up,
 * seeding, the benchmark's data). With `later`, the last batch's writes are left there for the
 * caller to run (nothing here reads them again).
 */
export async function rebuildVisitSchedules(
  db: Db | Tx,
  target: ScheduleTarget,
  later?: Write[],
  change: ChangeContext = systemChange,
): Promise<void> {
  if ("all" in target) {
    let afterId = 0;
    for (;;) {
      const batch = await assignments(db, sql`true`, false, afterId, batchSize);
      if (batch.length === 0) return;
      // Locked batch by batch: a write of one of them meanwhile waits, then sees this batch's rows.
      await db.transaction(async (tx) => {
        const locked = await assignments(
          tx,
          oneOf(
            "sp.id",
            batch.map((a) => a.id),
          ),
          true,
        );
        await writeBatch(tx, locked, change);
      });
      afterId = batch.at(-1)?.id ?? afterId;
    }
  }
  const where = targetWhere(target);
  let afterId = 0;
  for (;;) {
    const batch = await assignments(db, where, true, afterId, batchSize);
    const last = batch.length < batchSize;
    await writeBatch(db, batch, change, last ? later : undefined);
    if (last) return;
    afterId = batch.at(-1)?.id ?? afterId;
  }
}

/**
 * At start: when the stored schedules were made by another engine version (or never, e.g. right
 * after the migration that added them), rebuild them all once. Rebuilding is idempotent, so two
 * processes starting together at worst do it twice.
 */
export async function ensureVisitSchedules(db: Db): Promise<void> {
  const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, versionKey));
  if (row?.value === visitScheduleEngineVersion) return;
  await rebuildVisitSchedules(db, { all: true });
  await db
    .insert(settings)
    .values({ key: versionKey, value: visitScheduleEngineVersion })
    .onConflictDoUpdate({ target: settings.key, set: { value: visitScheduleEngineVersion } });
}

/**
 * Each state's condition on a stored row on a day, in SQL: the same rule as the domain's stateAsOf
 * (a property test feeds both random plans, visits and days). Only "open" rows and passed bookings
 * depend on the day: upcoming before their window, overdue after it, due inside it.
 */
export function statePredicates(asOf: string, alias = "vs"): Record<VisitState, SQL> {
  const parts = statePredicateParts(asOf, alias);
  return Object.fromEntries(
    Object.entries(parts).map(([state, each]) => [
      state,
      each.length === 1 ? (each[0] as SQL) : sql`(${sql.join(each, sql` or `)})`,
    ]),
  ) as Record<VisitState, SQL>;
}

/**
 * statePredicates, each state's condition as the parts it is the OR of, each part within one kind:
 * the worklist reads and counts each part as its own range of its (site, kind, window end) index,
 * where their OR made PostgreSQL read every kind of the site.
 */
export function statePredicateParts(asOf: string, alias = "vs"): Record<VisitState, SQL[]> {
  const col = (name: string) => sql.raw(`${alias}.${name}`);
  // The kind as a literal, not a parameter: only then can a statement's generic plan (the worklist's,
  // named and planned once) use the worklist index, whose predicate excludes two kinds (decision 182).
  const kind = (value: VisitKind) => sql.raw(`${alias}.kind = '${value}'`);
  const day = sql`${asOf}::date`;
  // A booking (or an arrival) whose day has passed without an outcome counts as not done
  // (bookingPassed): it is upcoming, due or overdue by its window, as an open visit is.
  const passed = sql`(${kind("booked")} and ${col("visit_date")} < ${day} and ${col("window_start")} is not null)`;
  const notDone = (when: SQL) => [sql`(${kind("open")} and ${when})`, sql`(${passed} and ${when})`];
  return {
    done: [kind("done")],
    "out-of-window": [kind("out-of-window")],
    booked: [sql`(${kind("booked")} and not ${passed})`],
    "not-applicable": [kind("not-applicable")],
    unscheduled: [kind("unscheduled")],
    missed: [kind("missed")],
    upcoming: notDone(sql`${day} < ${col("window_start")}`),
    overdue: notDone(sql`${day} > ${col("window_end")}`),
    due: notDone(sql`${day} between ${col("window_start")} and ${col("window_end")}`),
  };
}

/** Whether a stored row is a booking whose day has passed (the domain's bookingPassed), in SQL. */
export const bookingPassedSql = (asOf: string, alias = "vs") =>
  sql`(${sql.raw(`${alias}.kind = 'booked' and ${alias}.visit_date`)} < ${asOf}::date)`;

/** The state of a stored row on a day, in SQL, from statePredicates. */
export function visitStateSql(asOf: string, alias = "vs"): SQL {
  const is = statePredicates(asOf, alias);
  return sql`(case when ${is.upcoming} then 'upcoming' when ${is.overdue} then 'overdue'
    when ${is.due} then 'due' else ${sql.raw(`${alias}.kind`)} end)`;
}

/** The key of `windowInputsBeforeWrite` in a patient visit's write statement. */
const windowInputsKey = "windowInputs";

/**
 * Read in a patient visit's write statement (its `readWithWrite`): the plan of the written visit's
 * study and the patient's recorded visits in it as they were before the write (the statement does not
 * see its own write; its WITH part named patient_visits is the written row, so the table is read by
 * its schema's name). It comes after the statement that locked the patient's assignments to the study
 * (checkReferences), as decision 149 asks of every read for a rebuild.
 */
export const windowInputsBeforeWrite = {
  [windowInputsKey]: sql`json_build_object(
    'plans', ${asJson(plansSql(sql`p.study_id = "patient_visits"."study_id"`))},
    'recorded', ${asJson(sql`select ${recordedColumns} from "public"."patient_visits" pv
      where pv.patient_id = "patient_visits"."patient_id" and pv.study_id = "patient_visits"."study_id"`)},
    'deviations', ${asJson(storedDeviationsSql(sql`d.patient_id = "patient_visits"."patient_id" and d.study_id = "patient_visits"."study_id"`))})`,
};

/**
 * The writes a patient visit's save makes to its patient's windows in the study, from what its write
 * statement read (windowInputsBeforeWrite) and the locked assignments: the engine's rows with the
 * recorded visits as they were and as they are now, compared (decision 169). The stored rows are the
 * engine's rows of what was, as every write keeps them, so they are not read: that read was the save's
 * costliest after its commit (issue 14). Without the locked assignments, the whole rebuild.
 */
async function windowsOfSavedVisit(
  tx: Tx,
  target: { patientId: number; studyId: number },
  inputs: unknown,
  saved: Recorded,
  later: Write[],
  change: ChangeContext,
  batch: LockedAssignments | undefined,
) {
  if (!batch) return rebuildVisitSchedules(tx, target, later, change);
  const read = fromJson(
    inputs as { plans: PlanRow[]; recorded: Recorded[]; deviations: StoredDeviation[] } | string,
  );
  const plan = plansFrom(read.plans).get(target.studyId) ?? null;
  const now = [...read.recorded.filter((visit) => visit.id !== saved.id), saved];
  const before = new Map<number, ScheduleRow[]>();
  const after = new Map<number, ScheduleRow[]>();
  for (const assignment of batch) {
    before.set(assignment.id, engineRows(assignment, plan, read.recorded));
    after.set(assignment.id, engineRows(assignment, plan, now));
  }
  // The stored deviations came with the write statement; a save that changes nothing the engine
  // derives writes none (deviationWrites answers no writes then).
  const stored = read.deviations.filter((d) => batch.some((a) => a.id === d.studyPatientId));
  const derived = new Map(batch.map((a) => [a.id, derivedDeviations(after.get(a.id) ?? [])]));
  const kept = deviationWrites(batch, derived, stored, change);
  markOpenDeviations([...before.values()].flat(), openAsStored(stored));
  markOpenDeviations([...after.values()].flat(), kept.open);
  later.push(...kept.writes);
  later.push(...changesOf([...before.values()].flat(), [...after.values()].flat()));
}

/**
 * A resource's afterChange hook: rebuilds the target the record after the write names, then the one
 * before it when that differs (e.g. the old patient of a moved patient visit). Answers the writes,
 * which the machinery runs with the audit row; the targets' assignments differ, so no rebuild reads
 * what another leaves. A patient visit's write statement also read its window inputs (`alongside`).
 */
export const keepVisitSchedules =
  (target: (record: Record<string, unknown>) => ScheduleTarget) =>
  async (
    tx: Tx,
    before: Record<string, unknown> | null,
    after: Record<string, unknown> | null,
    alongside: Record<string, unknown> | undefined,
    change: ChangeContext,
    locked?: LockedAssignments,
  ): Promise<Write[]> => {
    const later: Write[] = [];
    const afterTarget = after && target(after);
    const inputs = alongside?.[windowInputsKey];
    if (after && afterTarget && "patientId" in afterTarget && inputs !== undefined)
      await windowsOfSavedVisit(tx, afterTarget, inputs, after as Recorded, later, change, locked);
    else if (afterTarget) await rebuildVisitSchedules(tx, afterTarget, later, change);
    const beforeTarget = before && target(before);
    if (beforeTarget && JSON.stringify(beforeTarget) !== JSON.stringify(afterTarget))
      await rebuildVisitSchedules(tx, beforeTarget, later, change);
    return later;
  };

/**
 * The stored windows of one patient's visits in a study, keyed by visit id, with their state on
 * `asOf`: from the active assignment, else the latest one (as the visit summary shows them).
 */
export async function scheduleOfPatient(db: Db | Tx, patientId: number, studyId: number, asOf: string) {
  const rows = await queryRows<{
    visitId: number;
    sequence: number | null;
    expectedDate: string | null;
    windowStart: string | null;
    windowEnd: string | null;
    state: VisitState;
    bookedOutsideWindow: boolean;
    bookingPassed: boolean;
  }>(
    db,
    sql`select vs.visit_id as "visitId", vs.sequence, vs.expected_date::text as "expectedDate",
        vs.window_start::text as "windowStart", vs.window_end::text as "windowEnd",
        ${visitStateSql(asOf)} as state, vs.booked_outside_window as "bookedOutsideWindow",
        ${bookingPassedSql(asOf)} as "bookingPassed"
      from visit_schedule vs
      where vs.study_patient_id = (select sp.id from study_patients sp
        where sp.patient_id = ${patientId} and sp.study_id = ${studyId}
        order by sp.active desc, sp.id desc limit 1)`,
  );
  return new Map(rows.map((row) => [row.visitId, row]));
}
