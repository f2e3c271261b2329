import {
  isValidIsoDate,
  planColumns,
  toIsoDate,
  type VisitSummary,
  type VisitSummaryProfile,
  type VisitSummaryVisit,
} from "@trialdesk/domain";
import { eq, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { currentUser, type SessionUser } from "../../auth/guards";
import { type Db, queryRows } from "../../db/client";
import type { Deps } from "../../deps";
import { send } from "../../http/envelope";
import { notFound } from "../../http/errors";
import { patients } from "../patients/patients.table";
import { parseQuery } from "../resource";
import { studies } from "../studies/studies.table";
import { studyPatients } from "../study-patients/study-patients.table";
import { visits } from "../visits/visits.table";
import { plansOf, visitStateSql } from "../worklist/visit-schedule";

const params = z.object({ studyUuid: z.string().max(80) });
const query = z.strictObject({
  asOf: z.string().refine(isValidIsoDate, "asOf must be a real date written as yyyy-MM-dd").optional(),
  siteId: z.coerce
    .number({ error: "Site must be a number" })
    .int("Site must be a number")
    .positive("Site must be a number")
    .max(2_147_483_647, "Site must be a number")
    .optional(),
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
 * The grid's rows in one query: every patient assigned to the study (active or closed) that the
 * user may see (DESIGN §4: their sites; administrators all; `siteId` narrows to one of them), each
 * with the stored visit windows of that assignment as small JSON cells (no empty fields; the window
 * follows from the expected date and the column) and their state on `asOf`. A
 * patient closed and assigned again is one row, with the active (else the latest) assignment.
 */
function patientStudyProfiles(db: Db, studyId: number, user: SessionUser, asOf: string, siteId?: number) {
  // Site ids are integers, handed over as one array literal parameter ('{}' matches nothing).
  const siteScope = user.isAdmin
    ? sql``
    : sql`and p.recorder_site_id = any(${`{${user.siteIds.map(Number).join(",")}}`}::int[])`;
  const oneSite = siteId === undefined ? sql`` : sql`and p.recorder_site_id = ${siteId}`;
  return queryRows<VisitSummaryProfile>(
    db,
    sql`select p.uuid as "patientUuid", p.barcode, p.first_name as "firstName", p.last_name as "lastName",
        a.screen_nr as "screenNr", a.active,
        coalesce((select json_agg(json_strip_nulls(json_build_object('visitId', vs.visit_id,
              'visitDate', vs.visit_date, 'expectedDate', vs.expected_date, 'state', ${visitStateSql(asOf)},
              'bookedOutsideWindow', case when vs.booked_outside_window then true end))
            order by vs.sequence nulls last, vs.visit_id)
          from visit_schedule vs where vs.study_patient_id = a.id), '[]'::json) as visits
      from (select distinct on (sp.patient_id) sp.id, sp.patient_id, sp.screen_nr, sp.active
          from ${studyPatients} sp
          where sp.study_id = ${studyId}
          order by sp.patient_id, sp.active desc, sp.id desc) a
      join ${patients} p on p.id = a.patient_id
      where true ${siteScope} ${oneSite}
      order by a.screen_nr nulls last, p.last_name, p.first_name, p.id`,
  );
}

/**
 * GET /api/patient-visit-summary/{studyUuid}?asOf=&siteId= (spec §2.5, §3, §7): the per-study visit
 * summary grid, each cell with its planned window and state on asOf (default today).
 */
export function visitSummaryRoutes(app: FastifyInstance, deps: Deps) {
  app.get(
    "/api/patient-visit-summary/:studyUuid",
    { schema: { params, querystring: query, tags: ["patient-visit-summary"] } },
    async (request, reply) => {
      const user = currentUser(request);
      const { studyUuid } = request.params as z.infer<typeof params>;
      const q = parseQuery(query, request.query);
      const [study] = await deps.db
        .select({ id: studies.id })
        .from(studies)
        .where(eq(studies.uuid, studyUuid));
      if (!study) throw notFound("Study not found");
      const [columns, profiles] = await Promise.all([
        studyVisits(deps.db, study.id),
        patientStudyProfiles(deps.db, study.id, user, q.asOf ?? toIsoDate(new Date()), q.siteId),
      ]);
      const summary: VisitSummary = { studyVisits: columns, patientStudyProfiles: profiles };
      return send(request, reply, summary);
    },
  );
}
