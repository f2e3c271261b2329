import {
  type CalculationMode,
  type Plan,
  type RecordedVisit,
  scheduleVisits,
  type VisitState,
  type VisitStatus,
} from "@trialdesk/domain";
import { eq, type Placeholder, type SQL, sql } from "drizzle-orm";
import { settings } from "../../auth/auth.table";
import { type Db, queryRows, type Tx, type Write, writeTogether } from "../../db/client";
import { intArray } from "../resource-query";
import type { visitSchedule } from "./visit-schedule.table";

/**
 * Keeps visit_schedule equal to what the domain's engine (scheduleVisits) says, for the assignments
 * a write touched. Every write that changes an input of the engine calls it in its own transaction:
 * patient visits (their patient and study), assignments, studyplans (all of the study's assignments).
 */

/** Raised when the engine's rules change, so that a start rebuilds every stored schedule once. */
export const visitScheduleEngineVersion = "1";
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
 * A patient's assignments to a study that a statement of this transaction has already locked and
 * read (lockedAssignmentsJson), for the rebuild to use instead of locking and reading them again: one
 * statement less for every patient visit's save (issue 14). They cannot change while locked, and the
 * rebuild's read of visits still comes in a later statement, after the locks (decision 149).
 */
const lockedInTransaction = new WeakMap<Db | Tx, Map<string, AssignmentRow[]>>();
const pairKey = (patientId: number, studyId: number) => `${patientId}/${studyId}`;

/**
 * The patient's assignments to the study (the `patientId` and `studyId` placeholders), locked (FOR
 * UPDATE, in id order, as every rebuild locks them) and answered as a JSON array, for a statement that
 * checks them and is built once; `keepLockedAssignments` hands its answer to this transaction's rebuild.
 */
export const lockedAssignmentsJson = sql<
  AssignmentRow[] | string
>`(select coalesce(json_agg(a order by a.id), '[]')
  from (${assignmentsSql(
    sql`sp.patient_id = ${sql.placeholder("patientId")} and sp.study_id = ${sql.placeholder("studyId")}`,
    true,
  )}) a)`;

/** The answer of `lockedAssignmentsJson` for the patient and study, kept for this transaction's rebuild. */
export function keepLockedAssignments(
  tx: Tx,
  patientId: number,
  studyId: number,
  answer: AssignmentRow[] | string,
): AssignmentRow[] {
  const rows = fromJson(answer);
  const locked = lockedInTransaction.get(tx) ?? new Map<string, AssignmentRow[]>();
  locked.set(pairKey(patientId, studyId), rows);
  lockedInTransaction.set(tx, locked);
  return rows;
}

type PlanRow = {
  studyId: number;
  calculationMode: CalculationMode;
  fromVisitId: number | null;
  toVisitId: number | null;
  daysFromStart: number;
  allowedDaysBefore: number;
  allowedDaysAfter: number;
  sequence: number;
};

const plansSql = (studyIds: number[]) =>
  sql`select p.study_id as "studyId", p.calculation_mode as "calculationMode",
        e.from_visit_id as "fromVisitId", e.to_visit_id as "toVisitId", e.days_from_start as "daysFromStart",
        e.allowed_days_before as "allowedDaysBefore", e.allowed_days_after as "allowedDaysAfter", e.sequence
      from studyplans p left join studyplan_schedule_entries e on e.studyplan_id = p.id
      where ${oneOf("p.study_id", studyIds)}
      order by p.study_id, e.sequence`;

function plansFrom(rows: PlanRow[]): Map<number, Plan> {
  const plans = new Map<number, Plan>();
  for (const row of rows) {
    const plan = plans.get(row.studyId) ?? { calculationMode: row.calculationMode, schedule: [] };
    if (row.fromVisitId !== null) (plan.schedule as unknown[]).push({ ...row, fromVisitId: row.fromVisitId });
    plans.set(row.studyId, plan);
  }
  return plans;
}

export async function plansOf(db: Db | Tx, studyIds: number[]): Promise<Map<number, Plan>> {
  return plansFrom(await queryRows<PlanRow>(db, plansSql(studyIds)));
}

type Recorded = RecordedVisit & { id: number; patientId: number; studyId: number };

const recordedSql = (batch: AssignmentRow[]) => {
  const patientIds = [...new Set(batch.map((a) => a.patientId))];
  const studyIds = [...new Set(batch.map((a) => a.studyId))];
  return sql`select id, patient_id as "patientId", study_id as "studyId", visit_id as "visitId",
        visit_date::text as "visitDate", visit_status as "visitStatus"
      from patient_visits
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
  sql`select id, ${storedColumns} from visit_schedule
      where ${oneOf(
        "study_patient_id",
        batch.map((a) => a.id),
      )}`;

/**
 * What rebuilding a batch reads — its plans, its recorded visits and its stored rows — in one round
 * trip, as JSON (issue 14: a patient visit's save pays for each round trip).
 */
async function readBatch(db: Db | Tx, batch: AssignmentRow[]) {
  const studyIds = [...new Set(batch.map((a) => a.studyId))];
  const asJson = (query: SQL, order = sql``) =>
    sql`(select coalesce(json_agg(q ${order}), '[]') from (${query}) q)`;
  const [row] = await queryRows<{ plans: PlanRow[]; recorded: Recorded[]; stored: StoredRow[] }>(
    db,
    sql`select ${asJson(plansSql(studyIds), sql`order by q."studyId", q.sequence`)} as plans, ${asJson(recordedSql(batch))} as recorded,
        ${asJson(storedSql(batch))} as stored`,
  );
  return {
    plans: plansFrom(fromJson(row.plans)),
    recorded: recordedByPair(fromJson(row.recorded)),
    stored: fromJson(row.stored),
  };
}

/**
 * Writes the engine's answer for a batch of (locked) assignments, replacing what was stored; with
 * `later`, leaves the writes there for the caller to run (see writeTogether).
 */
async function writeBatch(db: Db | Tx, batch: AssignmentRow[], later?: Write[]) {
  if (batch.length === 0) return;
  const { plans, recorded, stored } = await readBatch(db, batch);
  const rows: (typeof visitSchedule.$inferInsert)[] = [];
  for (const assignment of batch) {
    const visits = recorded.get(`${assignment.patientId}/${assignment.studyId}`) ?? [];
    const byVisit = new Map(visits.map((v) => [v.visitId, v]));
    for (const scheduled of scheduleVisits(plans.get(assignment.studyId) ?? null, assignment, visits)) {
      const record = byVisit.get(scheduled.visitId);
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
  }
  const writes = changesOf(stored, rows);
  if (later) later.push(...writes);
  else await writeTogether(db, writes);
}

type ScheduleRow = typeof visitSchedule.$inferInsert;
type StoredRow = ScheduleRow & { id: number };
const rowKey = (row: { studyPatientId: number; visitId: number }) => `${row.studyPatientId}/${row.visitId}`;
/** Whether a stored row differs from the engine's, column by column (both have dates as text). */
const differs = (stored: ScheduleRow, row: ScheduleRow) =>
  recordsetColumns.some((column) => (stored[column] ?? null) !== (row[column] ?? null));
const recordsetColumns = [
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
const updatedColumns = sql.raw(
  recordsetColumns
    .filter((column) => column !== "studyPatientId" && column !== "visitId")
    .map((column) => `"${snakeCase(column)}" = r."${column}"`)
    .join(", "),
);
/** The rows (one JSON parameter), read back as a record set (not 15 parameters a row). */
const recordset = (rows: Placeholder, withId = false) => sql`json_to_recordset(${rows}::json) as r(
  ${sql.raw(withId ? "id int, " : "")}"studyPatientId" int, "patientId" int, "studyId" int, "siteId" int,
  active boolean, "visitId" int, sequence int, "expectedDate" date, "windowStart" date, "windowEnd" date,
  kind varchar, "bookedOutsideWindow" boolean, "patientVisitId" int, "visitDate" date, "visitStatus" varchar)`;

/**
 * The writes that store the engine's rows by changing only what differs from what is stored: a
 * recorded visit usually changes one row of an assignment's forty, and rewriting all of them (and
 * their index entries) made saving a patient visit cost 30 ms (issue 14). They touch different rows,
 * so they can run as one statement; each is of a fixed shape, its rows one parameter.
 */
function changesOf(stored: StoredRow[], rows: ScheduleRow[]): Write[] {
  const storedByKey = new Map(stored.map((row) => [rowKey(row), row]));
  const inserts: ScheduleRow[] = [];
  const updates: (ScheduleRow & { id: number })[] = [];
  for (const row of rows) {
    const old = storedByKey.get(rowKey(row));
    storedByKey.delete(rowKey(row));
    if (!old) inserts.push(row);
    else if (differs(old, row)) updates.push({ ...row, id: old.id });
  }
  const deletes = [...storedByKey.values()].map((row) => row.id);
  const writes: Write[] = [];
  if (deletes.length === 1)
    writes.push({
      key: "delete a visit_schedule row",
      build: (value) => sql`delete from visit_schedule where id = ${value("id")}`,
      values: { id: deletes[0] },
    });
  else if (deletes.length > 1)
    writes.push({
      key: "delete visit_schedule rows",
      build: (value) => sql`delete from visit_schedule where id = any(${value("ids")}::int[])`,
      values: { ids: intArray(deletes) },
    });
  if (updates.length > 0)
    writes.push({
      key: "update visit_schedule",
      build: (value) =>
        sql`update visit_schedule vs set ${updatedColumns} from ${recordset(value("rows"), true)} where vs.id = r.id`,
      values: { rows: JSON.stringify(updates) },
    });
  if (inserts.length > 0)
    writes.push({
      key: "insert visit_schedule",
      build: (value) =>
        sql`insert into visit_schedule (${insertedColumns}) select ${recordColumns} from ${recordset(value("rows"))}`,
      values: { rows: JSON.stringify(inserts) },
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
): Promise<void> {
  if ("all" in target) {
    let afterId = 0;
    for (;;) {
      const batch = await assignments(db, sql`true`, false, afterId, batchSize);
      if (batch.length === 0) return;
      await db.transaction((tx) => writeBatch(tx, batch));
      afterId = batch.at(-1)?.id ?? afterId;
    }
  }
  const known =
    "patientId" in target && lockedInTransaction.get(db)?.get(pairKey(target.patientId, target.studyId));
  if (known) return writeBatch(db, known, later);
  const where = targetWhere(target);
  let afterId = 0;
  for (;;) {
    const batch = await assignments(db, where, true, afterId, batchSize);
    const last = batch.length < batchSize;
    await writeBatch(db, batch, last ? later : undefined);
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
 * (a property test feeds both random plans, visits and days). Only "open" rows depend on the day:
 * upcoming before their window, overdue after it, due inside it; open rows always have a window.
 */
export function statePredicates(asOf: string, alias = "vs"): Record<VisitState, SQL> {
  const col = (name: string) => sql.raw(`${alias}.${name}`);
  const kind = (value: string) => sql`${col("kind")} = ${value}`;
  const day = sql`${asOf}::date`;
  return {
    done: kind("done"),
    "out-of-window": kind("out-of-window"),
    booked: kind("booked"),
    "not-applicable": kind("not-applicable"),
    unscheduled: kind("unscheduled"),
    upcoming: sql`(${kind("open")} and ${day} < ${col("window_start")})`,
    overdue: sql`(${kind("open")} and ${day} > ${col("window_end")})`,
    due: sql`(${kind("open")} and ${day} between ${col("window_start")} and ${col("window_end")})`,
  };
}

/** The state of a stored row on a day, in SQL, from statePredicates. */
export function visitStateSql(asOf: string, alias = "vs"): SQL {
  const is = statePredicates(asOf, alias);
  return sql`(case when ${is.upcoming} then 'upcoming' when ${is.overdue} then 'overdue'
    when ${is.due} then 'due' else ${sql.raw(`${alias}.kind`)} end)`;
}

/**
 * A resource's afterChange hook: rebuilds the target each of the records before and after the
 * write names (once each), e.g. the old and the new patient of a moved patient visit. Answers the
 * last writes, which the machinery runs with the audit row; the targets' assignments differ, so no
 * rebuild reads what another leaves.
 */
export const keepVisitSchedules =
  (target: (record: Record<string, unknown>) => ScheduleTarget) =>
  async (tx: Tx, ...records: (Record<string, unknown> | null)[]): Promise<Write[]> => {
    const done = new Set<string>();
    const later: Write[] = [];
    for (const record of records) {
      if (!record) continue;
      const t = target(record);
      if (done.has(JSON.stringify(t))) continue;
      done.add(JSON.stringify(t));
      await rebuildVisitSchedules(tx, t, later);
    }
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
  }>(
    db,
    sql`select vs.visit_id as "visitId", vs.sequence, vs.expected_date::text as "expectedDate",
        vs.window_start::text as "windowStart", vs.window_end::text as "windowEnd",
        ${visitStateSql(asOf)} as state, vs.booked_outside_window as "bookedOutsideWindow"
      from visit_schedule vs
      where vs.study_patient_id = (select sp.id from study_patients sp
        where sp.patient_id = ${patientId} and sp.study_id = ${studyId}
        order by sp.active desc, sp.id desc limit 1)`,
  );
  return new Map(rows.map((row) => [row.visitId, row]));
}
