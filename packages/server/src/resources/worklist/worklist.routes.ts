import {
  addDays,
  bookingPassedText,
  countBound,
  daysOutsideText,
  defaultWorklistStates,
  isValidIsoDate,
  maxPageSize,
  toIsoDate,
  visitStateLabel,
  visitStateValues,
  type WorklistData,
  type WorklistRow,
  type WorklistState,
  worklistHorizonDays,
  worklistStates,
} from "@trialdesk/domain";
import { type SQL, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { currentUser, type SessionUser } from "../../auth/guards";
import { type Db, queryRows, readsOf } from "../../db/client";
import type { Deps } from "../../deps";
import { type CsvColumn, cellText, parseCsvColumns, sendCsv } from "../../http/csv";
import { send } from "../../http/envelope";
import { answers, csvAnswer, day, listPage } from "../../http/openapi-responses";
import { patients } from "../patients/patients.table";
import {
  exportBatchSize,
  foldedText,
  intArray,
  keysetAfter,
  parseQuery,
  searchCondition,
  throughKey,
} from "../resource";
import { studies } from "../studies/studies.table";
import { visits } from "../visits/visits.table";
import { bookingPassedSql, statePredicateParts } from "./visit-schedule";

const isoDate = (name: string) =>
  z.string().refine(isValidIsoDate, `${name} must be a real date written as yyyy-MM-dd`).optional();
const positive = (message: string, max = 2_147_483_647) =>
  z.coerce.number({ error: message }).int(message).positive(message).max(max, message);

const query = z.strictObject({
  siteId: positive("Site must be a number").optional(),
  asOf: isoDate("asOf"),
  /** Comma-separated states; without it, the default view's (defaultWorklistStates). */
  state: z
    .string()
    .max(200)
    .refine(
      (value) => value.split(",").every((s) => (worklistStates as readonly string[]).includes(s)),
      `state must be a comma-separated list of: ${worklistStates.join(", ")}`,
    )
    .optional(),
  from: isoDate("from"),
  to: isoDate("to"),
  search: z.string().max(100).optional(),
  /** The generic lists' name for search. */
  searchTerm: z.string().max(100).optional(),
  page: positive("Page must be a positive number").optional(),
  pagesize: positive(`Page size must be between 1 and ${maxPageSize}`, maxPageSize).optional(),
  order: z.enum(["windowEnd"]).optional(),
  direction: z.enum(["asc", "desc"]).optional(),
});

/** The export takes the list's filters, search and order, no paging, and the list's columns. */
const exportQuery = query.omit({ page: true, pagesize: true }).extend({
  columns: z.string().max(20_000).describe("JSON list of [key, title] pairs").optional(),
});

/** Booked for shows a booking's date, and its notes, while it is booked or its day has passed. */
const bookingShown = (row: WorklistRow) =>
  (row.state === "booked" || row.bookingPassed) && Boolean(row.visitDate);

/**
 * The worklist's columns in a spreadsheet (issue 46, point 10): the patient and the state's label as
 * the screen shows them, every date as an ISO date (yyyy-MM-dd, which a spreadsheet reads as a date and
 * sorts), and nothing but the date in a date's cell: a booking's notes go to a column of their own.
 */
const worklistText: Record<string, (row: WorklistRow) => string> = {
  patientName: (row) => `${row.patientName} (${row.barcode})`,
  windowStart: (row) => row.windowStart ?? "",
  windowEnd: (row) => row.windowEnd ?? "",
  expectedDate: (row) => row.expectedDate ?? "",
  state: (row) => visitStateLabel(row.state),
  visitDate: (row) => (bookingShown(row) ? (row.visitDate ?? "") : ""),
  bookingNote: (row) =>
    bookingShown(row)
      ? [row.bookedOutsideWindow && "Outside the planned window", row.bookingPassed && bookingPassedText]
          .filter(Boolean)
          .join(". ")
      : "",
  daysOutside: (row) => daysOutsideText(row.daysOutside),
};
const worklistColumns = new Set([
  ...Object.keys(worklistText),
  ...["barcode", "screenNr", "studyName", "visitName", "visitStatus", "deviationStatus"],
]);

/**
 * The columns a worklist export writes for the columns asked. The screen's Window column (windowEnd,
 * asked without windowStart) is two: "Window start" and "Window end", each a date; Booked for
 * (visitDate, asked without bookingNote) is followed by "Booking note". Asked for by key, each is one
 * column under the title given.
 */
function worklistExportColumns(asked: CsvColumn[]): CsvColumn[] {
  const has = (key: string) => asked.some((column) => column.key === key);
  return asked.flatMap((column) => {
    if (column.key === "windowEnd" && !has("windowStart"))
      return [
        { key: "windowStart", title: "Window start" },
        { key: "windowEnd", title: "Window end" },
      ];
    if (column.key === "visitDate" && !has("bookingNote"))
      return [column, { key: "bookingNote", title: "Booking note" }];
    return [column];
  });
}

/** The sites whose visits the call may see: the one asked for if the user has it, else all of theirs. */
function siteScope(user: SessionUser, siteId: number | undefined): SQL {
  if (siteId !== undefined) {
    // Another site's id answers an empty list, as the patient lists do: nothing leaks.
    if (!user.isAdmin && !user.siteIds.includes(siteId)) return sql`false`;
    return sql`vs.site_id = ${siteId}`;
  }
  return user.isAdmin ? sql`true` : sql`vs.site_id = any(${intArray(user.siteIds)}::int[])`;
}

/**
 * A value of the row a worklist row refers to, looked up by id, one subquery per value: joining the
 * six tables instead cost PostgreSQL ~8 ms per call just to plan (at 100k patients), these ten rows'
 * lookups well under one. `x` is the looked-up row.
 */
const lookup = (table: string, key: string) => (column: string) =>
  sql.raw(`(select x.${column} from ${table} x where x.id = vs.${key})`);
const patient = lookup("patients", "patient_id");
const study = lookup("studies", "study_id");
const visit = lookup("visits", "visit_id");

/** The row's automatic deviation (missed or out of window), if it has one: its open one first. */
const automaticDeviationOf = `from protocol_deviations d where d.study_patient_id = vs.study_patient_id
  and d.visit_id = vs.visit_id and d.source = 'AUTOMATIC'`;
const rowDeviation = (column: string) =>
  sql.raw(
    `(select d.${column} ${automaticDeviationOf} order by (d.status = 'OPEN') desc, d.id desc limit 1)`,
  );

/** A count per state, named apart from the row's own fields when it rides along with the rows. */
const countKey = <S extends WorklistState>(state: S) => `count:${state}` as const;
type Counts = { [S in WorklistState as `count:${S}`]: number };

/**
 * A whole number written into the statement's text: PostgreSQL prices a generic plan's limit passed
 * as a parameter for a tenth of the rows, which ruled out ever keeping one (decision 182).
 */
const whole = (n: number) => sql.raw(String(Math.trunc(n)));

/** The patient (the patient search's text, decision 134), the study's working name, the visit's name. */
const searchColumns = [
  throughKey(sql`vs.patient_id`, patients.id, foldedText(patients.searchText), false),
  throughKey(sql`vs.study_id`, studies.id, studies.workingName, false),
  throughKey(sql`vs.visit_id`, visits.id, visits.name, false),
];

/**
 * Every typed word must match the patient (name, barcode, SSN or phone), the study or the visit. Each
 * word's matches are looked up first and passed on as lists of ids (searchCondition): the planner then
 * knows how few rows a rare word means and reads them by patient (a rare name: ~0.8 s → a few ms at a
 * 50,000-assignment site) instead of walking the site's whole worklist range in order.
 */
async function searchWords(db: Db, text: string | undefined): Promise<SQL> {
  const words = (text ?? "").trim().split(/\s+/).filter(Boolean).slice(0, 8);
  return (await searchCondition(db, words, searchColumns))?.page ?? sql`true`;
}

/**
 * The widest window of any plan (before + after), as a bound the index can use: a due row's window
 * ends within it after the day, an upcoming row's within it after the horizon. Stored windows always
 * come from the current plans (a plan's save rebuilds its study's rows).
 */
const widestWindow = sql`(select coalesce(max(e.allowed_days_before + e.allowed_days_after), 0)
  from studyplan_schedule_entries e)`;

/**
 * GET /api/worklist: what a site has to do — one row per active assignment × plan visit whose state
 * on `asOf` is not done or not applicable, and whose window opens by `to` (default: 14 days after
 * asOf; rows without a window always), ordered by window end. Site-scoped like patient visits. The
 * counts per state ignore the state filter (they label the screen's filter chips) and, like every
 * list's count, are exact up to countBound. Each state is read as its own range of the worklist index
 * (site, kind, window end), so a page or a count costs what it reads, not what the site holds.
 */
/** The worklist's answer (WorklistData), for /api/docs. */
const worklistAnswer = answers(
  listPage(
    z.object({
      rowId: z.string(),
      patientId: z.number(),
      patientUuid: z.string(),
      barcode: z.string(),
      patientName: z.string(),
      screenNr: z.string().nullable(),
      studyId: z.number(),
      studyUuid: z.string(),
      studyName: z.string(),
      visitId: z.number(),
      visitName: z.string(),
      visitType: z.number(),
      expectedDate: day.nullable(),
      windowStart: day.nullable(),
      windowEnd: day.nullable(),
      state: z.enum(visitStateValues as [string, ...string[]]),
      bookedOutsideWindow: z.boolean(),
      bookingPassed: z.boolean(),
      deviationUuid: z.string().nullable(),
      deviationStatus: z.string().nullable(),
      daysOutside: z.number().nullable(),
      patientVisitId: z.number().nullable(),
      patientVisitUuid: z.string().nullable(),
      visitDate: day.nullable(),
      visitStatus: z.string().nullable(),
    }),
    { counts: z.record(z.enum(worklistStates), z.number()) },
  ),
);

export function worklistRoutes(app: FastifyInstance, deps: Deps) {
  type Params = z.infer<typeof exportQuery>;

  /** The worklist a call means: its states' rows (each its own index range), their counts, the order. */
  async function worklistOf(user: SessionUser, q: Params) {
    const asOf = q.asOf ?? toIsoDate(new Date());
    const to = q.to ?? addDays(asOf, worklistHorizonDays);
    const states: WorklistState[] = q.state
      ? [...new Set(q.state.split(",") as WorklistState[])]
      : [...defaultWorklistStates];
    const is = statePredicateParts(asOf);
    const opensBy = sql`(vs.window_start is null or vs.window_start <= ${to}::date)`;
    const each = (parts: SQL[], bounds: SQL) => parts.map((part) => sql`${part} and ${bounds}`);
    // Each state's rows, as parts of one kind each (each its own index range): its rule, the horizon,
    // and bounds the rule implies that the index can use.
    const parted: Record<WorklistState, SQL[]> = {
      overdue: is.overdue,
      due: each(is.due, sql`vs.window_end between ${asOf}::date and ${asOf}::date + ${widestWindow}`),
      upcoming: each(
        is.upcoming,
        sql`vs.window_start <= ${to}::date
        and vs.window_end > ${asOf}::date and vs.window_end <= ${to}::date + ${widestWindow}`,
      ),
      booked: each(is.booked, opensBy),
      unscheduled: is.unscheduled,
      missed: is.missed,
      // What happened and cannot be done any more, whose automatic deviation is still open.
      "deviations-open": [sql`vs.deviation_open`],
    };
    // A search reads its few patients' rows by patient: there each state is one read, its parts OR-ed.
    const searched = Boolean((q.search ?? q.searchTerm)?.trim());
    const rowsOf = Object.fromEntries(
      Object.entries(parted).map(([state, parts]) => [
        state,
        searched && parts.length > 1 ? [sql`(${sql.join(parts, sql` or `)})`] : parts,
      ]),
    ) as Record<WorklistState, SQL[]>;
    const common = sql`vs.active and vs.sequence is not null and ${siteScope(user, q.siteId)}
      and ${q.from ? sql`(vs.window_end is null or vs.window_end >= ${q.from}::date)` : sql`true`}
      and ${await searchWords(deps.db, q.search ?? q.searchTerm)}`;
    const desc = q.direction === "desc";
    const order = (alias: string) =>
      sql.raw(
        desc
          ? `${alias}.window_end desc nulls first, ${alias}.id desc`
          : `${alias}.window_end asc nulls last, ${alias}.id asc`,
      );
    const counted = (state: WorklistState) =>
      sql`least(${sql.join(
        rowsOf[state].map(
          (part) => sql`(select count(*)::int from (select 1 from visit_schedule vs
            where ${part} and ${common} limit ${whole(countBound + 1)}) c)`,
        ),
        sql` + `,
      )}, ${whole(countBound + 1)}) as ${sql.identifier(countKey(state))}`;
    const countFields = sql.join(worklistStates.map(counted), sql`, `);
    /**
     * Rows in order: each asked state's first rows (after `after`, if given), merged; `withCounts`
     * adds the counts per state to every row, computed once (one round trip for a page, issue 14).
     */
    const rows = (
      limit: number,
      offset: number,
      after: SQL = sql`true`,
      withCounts = false,
      db: Db = deps.db,
    ) => {
      // A deviations-open row is in the state of its visit (missed or out of window); a union, not
      // union all, so a missed row asked for under both chips comes once.
      const branches = states.flatMap((state) =>
        rowsOf[state].map(
          (part) => sql`(select vs.id, vs.window_end, ${
            state === "deviations-open" ? sql`vs.kind::text` : sql`${state}::text`
          } as state from visit_schedule vs
          where ${part} and ${common} and ${after}
          order by ${order("vs")} limit ${whole(offset + limit)})`,
        ),
      );
      return queryRows<WorklistRow & Counts & { keysetWindowEnd: string | null; keysetId: number }>(
        db,
        sql`select vs.study_patient_id || '-' || vs.visit_id as "rowId",
            vs.patient_id as "patientId", ${patient("uuid")} as "patientUuid", ${patient("barcode")} as barcode,
            ${patient("last_name || ' ' || x.first_name")} as "patientName",
            ${lookup("study_patients", "study_patient_id")("screen_nr")} as "screenNr",
            vs.study_id as "studyId", ${study("uuid")} as "studyUuid", ${study("working_name")} as "studyName",
            vs.visit_id as "visitId", ${visit("name")} as "visitName", ${visit("visit_type_id")} as "visitType",
            vs.expected_date::text as "expectedDate", vs.window_start::text as "windowStart",
            vs.window_end::text as "windowEnd", w.state, vs.booked_outside_window as "bookedOutsideWindow",
            ${bookingPassedSql(asOf)} as "bookingPassed",
            ${rowDeviation("uuid")} as "deviationUuid", ${rowDeviation("status")} as "deviationStatus",
            ${rowDeviation("days_outside")} as "daysOutside",
            vs.patient_visit_id as "patientVisitId",
            ${lookup("patient_visits", "patient_visit_id")("uuid")} as "patientVisitUuid",
            vs.visit_date::text as "visitDate", vs.visit_status as "visitStatus",
            vs.window_end::text as "keysetWindowEnd", vs.id as "keysetId"${withCounts ? sql`, ${countFields}` : sql``}
          from (select * from (${sql.join(branches, sql` union `)}) b
            order by ${order("b")} limit ${whole(limit)} offset ${whole(offset)}) w
          join visit_schedule vs on vs.id = w.id
          order by ${order("w")}`,
      );
    };
    const counts = (db: Db = deps.db) => queryRows<Counts>(db, sql`select ${countFields}`);
    /**
     * The first page unsearched, the one a site keeps open, goes as a named statement: parsed once per
     * connection, not on every call (decision 182). Searches are planned for their words (decision
     * 148); later pages stay unnamed, as their limits are written into the text.
     */
    const run = <T>(work: (db: Db) => Promise<T>, offset: number) => {
      const reads = readsOf(deps.db, "list", !((q.search ?? q.searchTerm)?.trim() || offset > 0));
      return reads.run(() => work(reads.db));
    };
    return { states, rows, counts, desc, run };
  }

  app.get(
    "/api/worklist",
    { schema: { querystring: query, tags: ["worklist"], response: worklistAnswer } },
    async (request, reply) => {
      const user = currentUser(request);
      const q = parseQuery(query, request.query);
      const page = q.page ?? 1;
      const pageSize = q.pagesize ?? deps.config.defaultPageSize;
      const worklist = await worklistOf(user, q);
      const offset = (page - 1) * pageSize;
      const read = await worklist.run((db) => worklist.rows(pageSize, offset, undefined, true, db), offset);
      // A page past the end has no row to carry the counts: they are asked on their own.
      const countRow = read[0] ?? (await worklist.run((db) => worklist.counts(db), offset))[0];
      const counts = Object.fromEntries(
        worklistStates.map((state) => [state, Number(countRow?.[countKey(state)] ?? 0)]),
      ) as Record<WorklistState, number>;
      const items: WorklistRow[] = read.map(
        ({ keysetWindowEnd: _, keysetId: __, ...row }) =>
          Object.fromEntries(Object.entries(row).filter(([key]) => !key.startsWith("count:"))) as WorklistRow,
      );
      const total = worklist.states.reduce((sum, s) => sum + counts[s], 0);
      const data: WorklistData = { items, pagination: { page, pageSize, total }, counts };
      return send(request, reply, data);
    },
  );

  /**
   * GET /api/worklist/export: the whole worklist the call means as CSV (issue 15), in its order, read
   * in batches after the last row's window end and id; dates as ISO dates, the window in two columns
   * (worklistExportColumns, issue 46).
   */
  app.get(
    "/api/worklist/export",
    { schema: { querystring: exportQuery, tags: ["worklist"], response: csvAnswer } },
    async (request, reply) => {
      const user = currentUser(request);
      const q = parseQuery(exportQuery, request.query);
      const columns = worklistExportColumns(parseCsvColumns(q.columns, worklistColumns));
      const worklist = await worklistOf(user, q);
      const keys = [
        { key: sql`vs.window_end`, nullable: true },
        { key: sql`vs.id`, nullable: false },
      ];
      async function* batches() {
        let last: unknown[] | null = null;
        for (;;) {
          const read = await worklist.rows(
            exportBatchSize,
            0,
            last ? keysetAfter(keys, last, worklist.desc) : undefined,
          );
          if (read.length === 0) return;
          const end = read[read.length - 1];
          last = [end.keysetWindowEnd, end.keysetId];
          yield read.map((row) =>
            columns.map(({ key }) => worklistText[key]?.(row) ?? cellText(row[key as keyof WorklistRow])),
          );
          if (read.length < exportBatchSize) return;
        }
      }
      return sendCsv(
        reply,
        "worklist",
        columns.map((column) => column.title),
        batches(),
      );
    },
  );
}
