import {
  type CompactVisitSummary,
  decodeVisitSummary,
  isValidIsoDate,
  planColumns,
  type SdvStatus,
  toIsoDate,
  type VisitSummaryCell,
  type VisitSummaryRow,
  type VisitSummaryVisit,
  visitStateLabel,
  visitSummaryAvailable,
  visitSummaryDayZero,
  visitSummaryDecoder,
  visitSummaryRow,
} from "@trialdesk/domain";
import { and, eq, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { currentUser, type SessionUser } from "../../auth/guards";
import { type Db, queryRows } from "../../db/client";
import type { Deps } from "../../deps";
import { sendCsv } from "../../http/csv";
import { send } from "../../http/envelope";
import { badRequest, notFound } from "../../http/errors";
import { answers, csvAnswer, day } from "../../http/openapi-responses";
import { column, monitorSeesSite, monitorSeesStudy } from "../monitor-assignments/monitor-scope";
import { booleanParam } from "../params";
import { sdvStatusSql } from "../patient-visits/sdv-columns";
import { patients } from "../patients/patients.table";
import { parseQuery } from "../resource";
import { inSites } from "../site-scope";
import { studies } from "../studies/studies.table";
import { studyPatients } from "../study-patients/study-patients.table";
import { plansOf } from "../visit-schedule/visit-schedule";
import { visits } from "../visits/visits.table";

const params = z.object({ studyUuid: z.string().max(80) });
const query = z.strictObject({
  asOf: z.string().refine(isValidIsoDate, "asOf must be a real date written as yyyy-MM-dd").optional(),
  /** The screen's form of the answer (CompactVisitSummary); without it the spec's plain one. */
  compact: booleanParam.optional(),
  /** With compact: the day the asking screen counts the cells' days from (visitSummaryDayZero). */
  dayZero: z.string().max(10).optional(),
  siteId: z.coerce
    .number({ error: "Site must be a number" })
    .int("Site must be a number")
    .positive("Site must be a number")
    .max(2_147_483_647, "Site must be a number")
    .optional(),
});

/** The export takes the summary's day, site and the screen's one filter (issue 46, point 10). */
const exportQuery = query.omit({ compact: true, dayZero: true }).extend({
  /** Only the patients with a visit overdue on asOf, as the screen's "Only patients with overdue visits". */
  overdue: booleanParam.optional(),
});

/**
 * The grid's columns: the plan's visits by schedule sequence, then the study's other visits by id,
 * each with the day and window that place it in the plan.
 */
async function studyVisits(db: Db, studyId: number): Promise<VisitSummaryVisit[]> {
  const [rows, plans] = await Promise.all([
    queryRows<{ id: number; visitName: string; visitType: number }>(
      db,
      sql`select v.id, v.name as "visitName", v.visit_type_id as "visitType"
        from ${visits} v where v.study_id = ${studyId} order by v.id`,
    ),
    plansOf(db, [studyId]),
  ]);
  const plan = plans.get(studyId);
  const columns = plan ? planColumns(plan) : new Map();
  return rows
    .map((visit) => ({
      ...visit,
      sequence: null,
      daysFromStart: null,
      allowedDaysBefore: null,
      allowedDaysAfter: null,
      calculationMode: null,
      ...(columns.has(visit.id) ? { ...columns.get(visit.id), calculationMode: plan?.calculationMode } : {}),
    }))
    .sort(
      (a, b) =>
        (a.sequence ?? Number.MAX_SAFE_INTEGER) - (b.sequence ?? Number.MAX_SAFE_INTEGER) || a.id - b.id,
    );
}

/**
 * The grid's rows, compact (CompactVisitSummary): every patient assigned to the study (active or
 * closed) that the user may see (design §4: their sites; administrators all; `siteId` narrows to one of
 * them). A patient closed and assigned again is one row, with the active (else the latest) assignment.
 * Its cells are the stored visit windows of that assignment, each kept packed beside its row
 * (visit_schedule.cell), joined by string_agg: PostgreSQL's JSON of 80,000 cells took as long as the
 * rest of the call (issue 14), and writing each cell for every call half its time (decision 183).
 * One query: each shown assignment's patient is looked up by id (a join let the planner scan the
 * site's 50,000 patients for 2,000) and its cells read from the (assignment, visit) index, so
 * assignments not shown cost nothing (a grouped pass over the study's 80,000 cells spilled to disk).
 */
async function patientRows(
  db: Db,
  studyId: number,
  user: SessionUser,
  siteId?: number,
): Promise<VisitSummaryRow[]> {
  // Staff see their sites' patients (none without sites); administrators all; a monitor the sites of
  // their current assignment to the study (issue 44).
  const siteScope = user.isAdmin
    ? sql``
    : user.kind === "monitor"
      ? sql`and ${monitorSeesSite(sql`${user.id}`, sql`${studyId}`, sql.raw("p.recorder_site_id"))}`
      : sql`and ${inSites(sql.raw("p.recorder_site_id"), user)}`;
  const oneSite = siteId === undefined ? sql`` : sql`and p.recorder_site_id = ${siteId}`;
  const rows = await queryRows<{
    patientUuid: string;
    barcode: string;
    firstName: string;
    lastName: string;
    screenNr: string | null;
    active: boolean;
    cells: string | null;
  }>(
    db,
    sql`select p.uuid as "patientUuid", p.barcode, p.first_name as "firstName", p.last_name as "lastName",
        a.screen_nr as "screenNr", a.active,
        (select string_agg(vs.cell, ';') from visit_schedule vs where vs.study_patient_id = a.id) as cells
      from (select distinct on (sp.patient_id) sp.id, sp.patient_id, sp.screen_nr, sp.active
          from ${studyPatients} sp
          where sp.study_id = ${studyId}
          order by sp.patient_id, sp.active desc, sp.id desc) a
      -- offset 0 keeps the lookup per assignment: flattened, it became the join again.
      cross join lateral (select p.uuid, p.barcode, p.first_name, p.last_name from ${patients} p
          where p.id = a.patient_id ${siteScope} ${oneSite} offset 0) p
      order by a.screen_nr nulls last, p.last_name, p.first_name, a.patient_id`,
  );
  // A monitor never reads who the patient is: the row names the barcode alone.
  const named =
    user.kind === "monitor"
      ? (p: (typeof rows)[number]) => ({ ...p, firstName: "", lastName: "" })
      : (p: (typeof rows)[number]) => p;
  return rows.map((p) => visitSummaryRow(named(p), p.cells ?? ""));
}

/**
 * The summary's source-verification marks (CompactVisitSummary.sdv) for the patients shown: the visits
 * of the sample and the visits once verified (an index each), each in the state that most needs a
 * monitor among the visit's records.
 */
async function sdvMarks(db: Db, studyId: number, patientUuids: string[]) {
  if (patientUuids.length === 0) return [];
  const rows = await queryRows<{ patientUuid: string; visitId: number; status: SdvStatus }>(
    db,
    sql`select p.uuid as "patientUuid", pv.visit_id as "visitId",
        (array_agg(pv.state order by case pv.state when 'REOPENED' then 3 when 'PENDING' then 2 else 1 end desc))[1]
          as status
      from (select patient_visits.patient_id, patient_visits.visit_id, ${sdvStatusSql} as state
          from patient_visits
          where patient_visits.id in (
            select v.id from study_patients sp join patient_visits v
              on v.patient_id = sp.patient_id and v.study_id = sp.study_id
            where sp.study_id = ${studyId} and sp.sdv_selected
            union
            select v.id from patient_visits v where v.study_id = ${studyId} and v.sdv_verified_at is not null)) pv
      join ${patients} p on p.id = pv.patient_id
      where pv.state <> 'NOT_REQUIRED'
        and p.uuid in (select jsonb_array_elements_text(${JSON.stringify(patientUuids)}::jsonb))
      group by p.uuid, pv.visit_id`,
  );
  return rows.map((row): [string, number, SdvStatus] => [row.patientUuid, Number(row.visitId), row.status]);
}

/** What a compact call from a screen that reads the cells otherwise is answered. */
export const visitSummaryOutdated = "This page is out of date: reload it to see the visit summary.";

/** The summary's answer, for /api/docs: the grid (VisitSummary), or its compact form with ?compact=true. */
const summaryVisit = z.object({
  id: z.number(),
  visitName: z.string(),
  visitType: z.number(),
  sequence: z.number().nullable(),
  daysFromStart: z.number().nullable(),
  allowedDaysBefore: z.number().nullable(),
  allowedDaysAfter: z.number().nullable(),
  calculationMode: z.string().nullable(),
});
const summaryAnswer = answers(
  z.union([
    z.object({
      studyVisits: z.array(summaryVisit),
      patientStudyProfiles: z.array(
        z.object({
          barcode: z.string(),
          firstName: z.string(),
          lastName: z.string(),
          screenNr: z.string().nullable(),
          patientUuid: z.string(),
          active: z.boolean(),
          visits: z.array(
            z.object({
              visitId: z.number(),
              visitDate: day.optional(),
              expectedDate: day.optional(),
              state: z.string(),
              bookedOutsideWindow: z.literal(true).optional(),
            }),
          ),
        }),
      ),
    }),
    z
      .object({
        studyVisits: z.array(summaryVisit),
        asOf: day,
        dayZero: day.describe("the day the cells' days count from"),
        rows: z.array(z.array(z.union([z.string(), z.boolean(), z.null()]))),
        sdv: z
          .array(z.tuple([z.string(), z.number(), z.string()]))
          .optional()
          .describe("source verification: [patientUuid, visitId, state]"),
      })
      .describe(
        "?compact=true: [patientUuid, barcode, firstName, lastName, screenNr, active, cells] per patient",
      ),
  ]),
);

/**
 * GET /api/patient-visit-summary/{studyUuid}?asOf=&siteId=&compact= (spec §2.5, §3, §7): the per-study
 * visit summary grid, each cell with its state on asOf (default today); `compact=true` (with the
 * `dayZero` the screen reads the cells from) answers the same as the screen reads it
 * (CompactVisitSummary), else as the spec's objects, decoded here.
 */
export function visitSummaryRoutes(fastify: FastifyInstance, deps: Deps) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  /**
   * The study's summary as the user may see it: a monitor only a study of their current assignments
   * (else 404, as an unknown study), its columns, and the rows of the patients the user sees.
   */
  async function summaryOf(user: SessionUser, studyUuid: string, siteId: number | undefined) {
    const [study] = await deps.db
      .select({ id: studies.id })
      .from(studies)
      .where(
        and(
          eq(studies.uuid, studyUuid),
          user.kind === "monitor" ? monitorSeesStudy(sql`${user.id}`, column("studies", "id")) : undefined,
        ),
      );
    if (!study) throw notFound("Study not found");
    const [columns, rows] = await Promise.all([
      studyVisits(deps.db, study.id),
      patientRows(deps.db, study.id, user, siteId),
    ]);
    return { study, columns, rows };
  }

  app.get(
    "/api/patient-visit-summary/:studyUuid",
    {
      config: { monitors: true },
      schema: { params, querystring: query, tags: ["patient-visit-summary"], response: summaryAnswer },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const { studyUuid } = request.params;
      const q = parseQuery(query, request.query);
      // A screen of an earlier build (a tab open since before an update) would read the cells' days
      // from another day and show wrong dates: it is told to reload instead (decision 183).
      if (q.compact === "true" && q.dayZero !== visitSummaryDayZero) throw badRequest(visitSummaryOutdated);
      const asOf = q.asOf ?? toIsoDate(new Date());
      const { study, columns, rows } = await summaryOf(user, studyUuid, q.siteId);
      const sdv = await sdvMarks(
        deps.db,
        study.id,
        rows.map((row) => row[0]),
      );
      const compact: CompactVisitSummary = {
        studyVisits: columns,
        asOf,
        dayZero: visitSummaryDayZero,
        rows,
        sdv,
      };
      return send(request, reply, q.compact === "true" ? compact : decodeVisitSummary(compact));
    },
  );

  /**
   * GET /api/patient-visit-summary/{studyUuid}/export?asOf=&siteId=&overdue= (issue 46, point 10): the
   * grid as CSV, scoped as the grid is (the same rows, in its order): Nr., Screen Nr, Name (Barcode for
   * a monitor, who never reads names), then one column per study visit under its name, each cell as
   * the grid shows it (summaryCellText).
   */
  app.get(
    "/api/patient-visit-summary/:studyUuid/export",
    {
      config: { monitors: true },
      schema: { params, querystring: exportQuery, tags: ["patient-visit-summary"], response: csvAnswer },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const q = parseQuery(exportQuery, request.query);
      const asOf = q.asOf ?? toIsoDate(new Date());
      const { columns, rows } = await summaryOf(user, request.params.studyUuid, q.siteId);
      const monitor = user.kind === "monitor";
      const decode = visitSummaryDecoder({ studyVisits: columns, asOf, dayZero: visitSummaryDayZero });
      const header = ["Nr.", "Screen Nr", monitor ? "Barcode" : "Name", ...columns.map((c) => c.visitName)];
      // Decoded a batch at a time as the client takes the file: 80,000 cells are not held as text at once.
      async function* batches() {
        let nr = 0;
        const batchRows = deps.config.exportBatchRows;
        for (let start = 0; start < rows.length; start += batchRows) {
          const profiles = rows.slice(start, start + batchRows).map(decode);
          const shown =
            q.overdue === "true"
              ? profiles.filter((p) => p.visits.some((cell) => cell.state === "overdue"))
              : profiles;
          yield shown.map((p) => {
            const cells = new Map(p.visits.map((cell) => [cell.visitId, cell]));
            return [
              String(++nr),
              p.screenNr ?? "",
              monitor ? p.barcode : `${p.lastName} ${p.firstName}`,
              ...columns.map((c) => summaryCellText(cells.get(c.id))),
            ];
          });
        }
      }
      return sendCsv(reply, "visit-summary", header, batches());
    },
  );
}

/**
 * A summary cell in the CSV, as the grid shows it: the visit date (yyyy-MM-dd), else "available"; then,
 * where the grid shows one, the state in brackets, with the expected date of an upcoming visit and the
 * deviation on file of a missed or out-of-window one: "2025-03-27 (Booked outside the window)",
 * "available (Upcoming, expected 2026-04-15)".
 */
function summaryCellText(cell: VisitSummaryCell | undefined): string {
  if (!cell) return visitSummaryAvailable;
  const notes = [
    `${visitStateLabel(cell.state)}${cell.bookedOutsideWindow ? " outside the window" : ""}`,
    cell.state === "upcoming" && cell.expectedDate && `expected ${cell.expectedDate}`,
    (cell.state === "missed" || cell.state === "out-of-window") && "protocol deviation on file",
  ].filter(Boolean);
  return `${cell.visitDate ?? visitSummaryAvailable} (${notes.join(", ")})`;
}
