import {
  addDays,
  bookingPassedText,
  countBound,
  daysOutsideText,
  defaultWorklistStates,
  isValidIsoDate,
  maxPageSize,
  type PatientSchedule,
  type PatientScheduleAssignment,
  type PatientScheduleRow,
  searchedWithin,
  searchWords,
  toIsoDate,
  visitStateLabel,
  visitStateValues,
  type WorklistData,
  type WorklistOrder,
  type WorklistRow,
  type WorklistState,
  worklistHorizonDays,
  worklistOrders,
  worklistStates,
} from "@trialdesk/domain";
import { and, eq, type SQL, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { currentUser, type SessionUser } from "../../auth/guards";
import { type Db, queryRows, readsOf } from "../../db/client";
import type { Deps } from "../../deps";
import { type CsvColumn, cellText, parseCsvColumns, sendCsv } from "../../http/csv";
import { send } from "../../http/envelope";
import { notFound } from "../../http/errors";
import { answers, csvAnswer, day, listPage } from "../../http/openapi-responses";
import { idParam } from "../params";
import { patientScope } from "../patients/patients.resource";
import { patients } from "../patients/patients.table";
import {
  foldedText,
  intArray,
  type KeysetKey,
  keysetAfter,
  parseQuery,
  searchCondition,
  throughKey,
} from "../resource";
import { studies } from "../studies/studies.table";
import { studyPatients } from "../study-patients/study-patients.table";
import { bookingPassedSql, statePredicateParts, visitStateSql } from "../visit-schedule/visit-schedule";

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
  order: z.enum(worklistOrders).optional(),
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
  visitTime: (row) => (bookingShown(row) ? (row.visitTime ?? "") : ""),
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
 * (visitDate, asked without visitTime and bookingNote) is followed by "Booked time" and "Booking
 * note". Asked for by key, each is one column under the title given.
 */
function worklistExportColumns(asked: CsvColumn[]): CsvColumn[] {
  const has = (key: string) => asked.some((column) => column.key === key);
  return asked.flatMap((column) => {
    if (column.key === "windowEnd" && !has("windowStart"))
      return [
        { key: "windowStart", title: "Window start" },
        { key: "windowEnd", title: "Window end" },
      ];
    if (column.key === "visitDate" && !has("bookingNote") && !has("visitTime"))
      return [
        column,
        { key: "visitTime", title: "Booked time" },
        { key: "bookingNote", title: "Booking note" },
      ];
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

/**
 * Where a word that names no visit is looked for: the patient (the patient search's text, decision
 * 134), the assignment's screen number, the study's working name.
 */
const searchColumns = [
  throughKey(sql`vs.patient_id`, patients.id, foldedText(patients.searchText), false),
  throughKey(sql`vs.study_patient_id`, studyPatients.id, studyPatients.screenNr, false),
  throughKey(sql`vs.study_id`, studies.id, studies.workingName, false),
];

/**
 * The visits each word is a whole word of (the domain's isWordOf, on names folded as the patients'
 * search text is), in one statement: the visits are few, read whole.
 */
async function visitsNamedBy(db: Db, words: string[]): Promise<number[][]> {
  const [row] = await queryRows<Record<string, number[]>>(
    db,
    sql`select ${sql.join(
      words.map(
        (word, w) => sql`array(select v.id from visits v
          where search_fold(${word}) = any(regexp_split_to_array(search_fold(v.name), '[^[:alnum:]]+')))
          as ${sql.identifier(`w${w}`)}`,
      ),
      sql`, `,
    )}`,
  );
  return words.map((_, w) => (row?.[`w${w}`] ?? []).map(Number));
}

/**
 * The search's condition (the domain's word-search rule): a word that is a whole word of a visit's name
 * matches those visits only; any other word of two characters or more the patient, the screen number
 * or the study; a word of one character naming no visit is left out. The patient's and the others'
 * matches are looked up first and passed on as lists of ids (searchCondition): the planner then knows
 * how few rows a rare word means and reads them by patient (a rare name: ~0.8 s → a few ms at a
 * 50,000-assignment site) instead of walking the site's whole worklist range in order. `byPatient`
 * says whether such a word narrows the rows to a few patients.
 */
async function searchOf(
  db: Db,
  text: string | undefined,
): Promise<{ condition: SQL; byPatient: boolean } | null> {
  const words = searchWords(text);
  if (words.length === 0) return null;
  const named = await visitsNamedBy(db, words);
  const visitWords = named.filter((ids) => ids.length > 0);
  const within = words.filter((word, w) => named[w]?.length === 0 && searchedWithin(word));
  const found = (await searchCondition(db, within, searchColumns))?.page;
  const parts = [...visitWords.map((ids) => sql`vs.visit_id = any(${intArray(ids)}::int[])`)];
  if (found) parts.push(found);
  if (parts.length === 0) return null;
  return { condition: and(...parts) as SQL, byPatient: Boolean(found) };
}

/** The time of the record a row refers to: a booking's hour. */
const recordTime = sql.raw("(select x.visit_time from patient_visits x where x.id = vs.patient_visit_id)");

/**
 * The keys of each order, in turn, the row's id last: the window's end, or the recorded date and time.
 * Read back from each row, they are where the export's next batch starts (keysetAfter).
 */
const orderKeys: Record<WorklistOrder, KeysetKey[]> = {
  windowEnd: [
    { key: sql`vs.window_end`, nullable: true },
    { key: sql`vs.id`, nullable: false },
  ],
  visitDate: [
    { key: sql`vs.visit_date`, nullable: true },
    { key: recordTime, nullable: true },
    { key: sql`vs.id`, nullable: false },
  ],
};

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
/** A visit's stored window and state, as the worklist and a patient's schedule answer it (/api/docs). */
const windowRowFields = {
  visitId: z.number(),
  visitName: z.string(),
  visitType: z.number(),
  expectedDate: day.nullable(),
  windowStart: day.nullable(),
  windowEnd: day.nullable(),
  state: z.enum(visitStateValues as [string, ...string[]]),
  bookedOutsideWindow: z.boolean(),
  bookingPassed: z.boolean(),
};

const worklistAnswer = answers(
  listPage(
    z.object({
      rowId: z.string(),
      patientId: z.number(),
      patientUuid: z.string(),
      barcode: z.string(),
      patientName: z.string(),
      patientStatus: z.number(),
      screenNr: z.string().nullable(),
      studyId: z.number(),
      studyUuid: z.string(),
      studyName: z.string(),
      ...windowRowFields,
      deviationUuid: z.string().nullable(),
      deviationStatus: z.string().nullable(),
      daysOutside: z.number().nullable(),
      patientVisitId: z.number().nullable(),
      patientVisitUuid: z.string().nullable(),
      visitDate: day.nullable(),
      visitTime: z.string().nullable(),
      visitStatus: z.string().nullable(),
    }),
    { counts: z.record(z.enum(worklistStates), z.number()) },
  ),
);

export function worklistRoutes(app: FastifyInstance, deps: Deps) {
  patientScheduleRoute(app, deps);
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
    // A date range keeps the rows whose window reaches into it (and those without a window); a
    // booking by its booked date instead (decision 234): next week's appointments are the visits
    // booked for next week, whatever their windows.
    const fromWindow = q.from ? sql`(vs.window_end is null or vs.window_end >= ${q.from}::date)` : sql`true`;
    const bookedIn = sql`(vs.visit_date <= ${to}::date and ${q.from ? sql`vs.visit_date >= ${q.from}::date` : sql`true`}
      or vs.visit_date is null and ${opensBy} and ${fromWindow})`;
    const each = (parts: SQL[], bounds: SQL) => parts.map((part) => sql`${part} and ${bounds}`);
    // Each state's rows, as parts of one kind each (each its own index range): its rule, the range,
    // and bounds the rule implies that the index can use.
    const parted: Record<WorklistState, SQL[]> = {
      overdue: each(is.overdue, fromWindow),
      due: each(
        is.due,
        sql`vs.window_end between ${asOf}::date and ${asOf}::date + ${widestWindow} and ${fromWindow}`,
      ),
      upcoming: each(
        is.upcoming,
        sql`vs.window_start <= ${to}::date
        and vs.window_end > ${asOf}::date and vs.window_end <= ${to}::date + ${widestWindow} and ${fromWindow}`,
      ),
      // The default view keeps a booking while its window opens by the horizon (one booked far outside
      // it is seen now); a range asked for takes the bookings of its days.
      booked: each(is.booked, q.from || q.to ? bookedIn : opensBy),
      unscheduled: each(is.unscheduled, fromWindow),
      missed: each(is.missed, fromWindow),
      // What happened and cannot be done any more, whose automatic deviation is still open.
      "deviations-open": each([sql`vs.deviation_open`], fromWindow),
    };
    const search = await searchOf(deps.db, q.search ?? q.searchTerm);
    // A search for a few patients reads their rows by patient: there each state is one read, its parts
    // OR-ed. Words that name visits only keep each part its own range, read in order to the page.
    const rowsOf = Object.fromEntries(
      Object.entries(parted).map(([state, parts]) => [
        state,
        search?.byPatient && parts.length > 1 ? [sql`(${sql.join(parts, sql` or `)})`] : parts,
      ]),
    ) as Record<WorklistState, SQL[]>;
    const common = sql`vs.active and vs.sequence is not null and ${siteScope(user, q.siteId)}
      and ${search?.condition ?? sql`true`}`;
    const desc = q.direction === "desc";
    const keys = orderKeys[q.order ?? "windowEnd"];
    // The sorted keys before the id, as k0, k1 … in each branch's rows.
    const sorted = keys.slice(0, -1);
    const direction = sql.raw(desc ? " desc nulls first" : " asc nulls last");
    const idDirection = sql.raw(desc ? " desc" : " asc");
    const order = (alias: string | null) =>
      sql.join(
        [
          ...sorted.map((key, i) => sql`${alias ? sql.raw(`${alias}.k${i}`) : key.key}${direction}`),
          sql`${sql.raw(`${alias ?? "vs"}.id`)}${idDirection}`,
        ],
        sql`, `,
      );
    const keyColumns = sql.join(
      sorted.map((key, i) => sql`, ${key.key} as ${sql.raw(`k${i}`)}`),
      sql``,
    );
    const keysetColumns = sql.join(
      sorted.map((_, i) => sql`, ${sql.raw(`w.k${i}`)}::text as ${sql.identifier(`keyset${i}`)}`),
      sql``,
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
          (part) => sql`(select vs.id${keyColumns}, ${
            state === "deviations-open" ? sql`vs.kind::text` : sql`${state}::text`
          } as state from visit_schedule vs
          where ${part} and ${common} and ${after}
          order by ${order(null)} limit ${whole(offset + limit)})`,
        ),
      );
      return queryRows<
        WorklistRow & Counts & Record<`keyset${number}`, string | null> & { keysetId: number }
      >(
        db,
        sql`select vs.study_patient_id || '-' || vs.visit_id as "rowId",
            vs.patient_id as "patientId", ${patient("uuid")} as "patientUuid", ${patient("barcode")} as barcode,
            ${patient("last_name || ' ' || x.first_name")} as "patientName", ${patient("status")} as "patientStatus",
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
            vs.visit_date::text as "visitDate", to_char(${recordTime}, 'HH24:MI') as "visitTime",
            vs.visit_status as "visitStatus",
            vs.id as "keysetId"${keysetColumns}${withCounts ? sql`, ${countFields}` : sql``}
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
      const reads = readsOf(deps.db, "list", !(search || offset > 0));
      return reads.run(() => work(reads.db));
    };
    /** Where the next batch of an export starts: after the last row's keys. */
    const after = (last: Record<string, unknown>) =>
      keysetAfter(keys, [...sorted.map((_, i) => last[`keyset${i}`]), last.keysetId], desc);
    return { states, rows, counts, after, run };
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
      // The rows carry only their own fields: not the counts, nor the keys an export goes on from.
      const items: WorklistRow[] = read.map(
        (row) =>
          Object.fromEntries(
            Object.entries(row).filter(([key]) => !key.startsWith("count:") && !key.startsWith("keyset")),
          ) as WorklistRow,
      );
      const total = worklist.states.reduce((sum, s) => sum + counts[s], 0);
      const data: WorklistData = { items, pagination: { page, pageSize, total }, counts };
      return send(request, reply, data);
    },
  );

  /**
   * GET /api/worklist/export: the whole worklist the call means as CSV (issue 15), in its order, read
   * in batches after the last row's keys of the order (its window end, or its recorded date and time)
   * and id; dates as ISO dates, the window in two columns (worklistExportColumns, issue 46).
   */
  app.get(
    "/api/worklist/export",
    { schema: { querystring: exportQuery, tags: ["worklist"], response: csvAnswer } },
    async (request, reply) => {
      const user = currentUser(request);
      const q = parseQuery(exportQuery, request.query);
      const columns = worklistExportColumns(parseCsvColumns(q.columns, worklistColumns));
      const worklist = await worklistOf(user, q);
      async function* batches() {
        let last: Record<string, unknown> | null = null;
        for (;;) {
          const read = await worklist.rows(
            deps.config.exportBatchRows,
            0,
            last ? worklist.after(last) : undefined,
          );
          if (read.length === 0) return;
          last = read[read.length - 1] as Record<string, unknown>;
          yield read.map((row) =>
            columns.map(({ key }) => worklistText[key]?.(row) ?? cellText(row[key as keyof WorklistRow])),
          );
          if (read.length < deps.config.exportBatchRows) return;
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

const scheduleQuery = z.strictObject({
  patientId: idParam("Patient must be a number"),
  asOf: isoDate("asOf"),
});

/** The schedule's answer (PatientSchedule), for /api/docs. */
const scheduleAnswer = answers(
  z.object({
    patientId: z.number(),
    assignments: z.array(
      z.object({
        studyPatientUuid: z.string(),
        studyId: z.number(),
        studyUuid: z.string(),
        studyName: z.string(),
        screenNr: z.string().nullable(),
        startDate: day.nullable(),
        active: z.boolean(),
        closeDate: day.nullable(),
        rows: z.array(
          z.object({
            ...windowRowFields,
            sequence: z.number().nullable(),
            patientVisitUuid: z.string().nullable(),
            visitDate: day.nullable(),
            visitTime: z.string().nullable(),
            visitStatus: z.string().nullable(),
          }),
        ),
      }),
    ),
  }),
);

/** A JSON value as read: PGlite answers it parsed, pg as text. */
const fromJson = <T>(value: T | string): T => (typeof value === "string" ? JSON.parse(value) : value);

/**
 * GET /api/worklist/schedule?patientId= (issue 46, point 11): the patient's study assignments, active
 * first, each with its visit schedule — the stored engine rows the worklist reads, every state, in plan
 * order (recorded visits the plan does not hold after), with the record that counts. Scoped as the
 * patients are: another site's patient is not found; monitors, as on the whole worklist, are refused.
 */
async function patientSchedule(db: Db, patientId: number, asOf: string): Promise<PatientSchedule> {
  const rows = await queryRows<
    Omit<PatientScheduleAssignment, "rows"> & { rows: PatientScheduleRow[] | string }
  >(
    db,
    sql`select sp.uuid as "studyPatientUuid", sp.study_id as "studyId", s.uuid as "studyUuid",
        s.working_name as "studyName", sp.screen_nr as "screenNr", sp.start_date::text as "startDate",
        sp.active, sp.close_date::text as "closeDate",
        (select coalesce(json_agg(json_build_object(
            'visitId', vs.visit_id, 'visitName', v.name, 'visitType', v.visit_type_id, 'sequence', vs.sequence,
            'expectedDate', vs.expected_date::text, 'windowStart', vs.window_start::text,
            'windowEnd', vs.window_end::text, 'state', ${visitStateSql(asOf)},
            'bookedOutsideWindow', vs.booked_outside_window, 'bookingPassed', ${bookingPassedSql(asOf)},
            'patientVisitUuid', pv.uuid, 'visitDate', vs.visit_date::text,
            'visitTime', to_char(pv.visit_time, 'HH24:MI'), 'visitStatus', vs.visit_status)
            order by vs.sequence nulls last, vs.visit_date, vs.visit_id), '[]')
          from visit_schedule vs join visits v on v.id = vs.visit_id
            left join patient_visits pv on pv.id = vs.patient_visit_id
          where vs.study_patient_id = sp.id) as rows
      from study_patients sp join studies s on s.id = sp.study_id
      where sp.patient_id = ${patientId}
      order by sp.active desc, sp.start_date desc nulls last, sp.id desc`,
  );
  return { patientId, assignments: rows.map((row) => ({ ...row, rows: fromJson(row.rows) })) };
}

function patientScheduleRoute(app: FastifyInstance, deps: Deps) {
  app.get(
    "/api/worklist/schedule",
    { schema: { querystring: scheduleQuery, tags: ["worklist"], response: scheduleAnswer } },
    async (request, reply) => {
      const user = currentUser(request);
      const q = parseQuery(scheduleQuery, request.query);
      const [patient] = await deps.db
        .select({ id: patients.id })
        .from(patients)
        .where(and(eq(patients.id, q.patientId), patientScope(user)));
      if (!patient) throw notFound("Patient not found");
      return send(
        request,
        reply,
        await patientSchedule(deps.db, patient.id, q.asOf ?? toIsoDate(new Date())),
      );
    },
  );
}
