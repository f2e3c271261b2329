import type { VisitSummary, VisitSummaryProfile, VisitSummaryVisit } from "@trialdesk/domain";
import { eq, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { currentUser, type SessionUser } from "../../auth/guards";
import { type Db, queryRows } from "../../db/client";
import type { Deps } from "../../deps";
import { send } from "../../http/envelope";
import { notFound } from "../../http/errors";
import { patientVisits } from "../patient-visits/patient-visits.table";
import { patients } from "../patients/patients.table";
import { studies } from "../studies/studies.table";
import { studyPatients } from "../study-patients/study-patients.table";
import { studyplanScheduleEntries, studyplans } from "../studyplans/studyplans.table";
import { visits } from "../visits/visits.table";

const params = z.object({ studyUuid: z.string().max(80) });

/** The grid's columns: the plan's visits by schedule sequence, then the study's other visits by id. */
function studyVisits(db: Db, studyId: number) {
  return queryRows<VisitSummaryVisit>(
    db,
    sql`select v.id, v.name as "visitName", v.visit_type_id as "visitType"
      from ${visits} v
      left join ${studyplans} p on p.study_id = v.study_id
      left join ${studyplanScheduleEntries} e on e.studyplan_id = p.id and e.from_visit_id = v.id
      where v.study_id = ${studyId}
      order by e.sequence nulls last, v.id`,
  );
}

/**
 * The grid's rows in one query: every patient assigned to the study (active or closed) that the
 * user may see (DESIGN §4: their sites; administrators all), each with this study's visits as JSON.
 * A patient closed and assigned again is one row, with the active (else the latest) assignment's
 * screen number. The visits come from the (patient_id, study_id, visit_id) unique index, so 2,000
 * patients with 40 visits each answer in one round trip.
 */
function patientStudyProfiles(db: Db, studyId: number, user: SessionUser) {
  // Site ids are integers, handed over as one array literal parameter ('{}' matches nothing).
  const siteScope = user.isAdmin
    ? sql``
    : sql`and p.recorder_site_id = any(${`{${user.siteIds.map(Number).join(",")}}`}::int[])`;
  return queryRows<VisitSummaryProfile>(
    db,
    sql`select p.barcode, p.first_name as "firstName", p.last_name as "lastName", a.screen_nr as "screenNr",
        coalesce((select json_agg(json_build_object('visitId', pv.visit_id, 'visitDate', pv.visit_date)
            order by pv.visit_id)
          from ${patientVisits} pv
          where pv.patient_id = p.id and pv.study_id = ${studyId}), '[]'::json) as visits
      from (select distinct on (sp.patient_id) sp.patient_id, sp.screen_nr
          from ${studyPatients} sp
          where sp.study_id = ${studyId}
          order by sp.patient_id, sp.active desc, sp.id desc) a
      join ${patients} p on p.id = a.patient_id
      where true ${siteScope}
      order by a.screen_nr nulls last, p.last_name, p.first_name, p.id`,
  );
}

/** GET /api/patient-visit-summary/{studyUuid} (spec §2.5, §3, §7): the per-study visit summary grid. */
export function visitSummaryRoutes(app: FastifyInstance, deps: Deps) {
  app.get(
    "/api/patient-visit-summary/:studyUuid",
    { schema: { params, tags: ["patient-visit-summary"] } },
    async (request, reply) => {
      const user = currentUser(request);
      const { studyUuid } = request.params as z.infer<typeof params>;
      const [study] = await deps.db
        .select({ id: studies.id })
        .from(studies)
        .where(eq(studies.uuid, studyUuid));
      if (!study) throw notFound("Study not found");
      const [columns, profiles] = await Promise.all([
        studyVisits(deps.db, study.id),
        patientStudyProfiles(deps.db, study.id, user),
      ]);
      const summary: VisitSummary = { studyVisits: columns, patientStudyProfiles: profiles };
      return send(request, reply, summary);
    },
  );
}
