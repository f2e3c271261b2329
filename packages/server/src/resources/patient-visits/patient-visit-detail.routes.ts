import {
  countingRecords,
  type PatientVisitDetail,
  toIsoDate,
  type VisitOption,
  type VisitResult,
  type VisitStatus,
} from "@trialdesk/domain";
import { and, asc, desc, eq, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { currentUser, type SessionUser } from "../../auth/guards";
import type { Db } from "../../db/client";
import type { Deps } from "../../deps";
import { send } from "../../http/envelope";
import { notFound, validationError } from "../../http/errors";
import { answers, day } from "../../http/openapi-responses";
import { idParam } from "../params";
import { patientScope } from "../patients/patients.resource";
import { patients } from "../patients/patients.table";
import { projects } from "../projects/projects.table";
import { protocolDeviations } from "../protocol-deviations/protocol-deviations.table";
import { parseQuery } from "../resource";
import { studies } from "../studies/studies.table";
import { studyPatients } from "../study-patients/study-patients.table";
import { scheduleOfPatient } from "../visit-schedule/visit-schedule";
import { visits } from "../visits/visits.table";
import { patientVisitScope } from "./patient-visits.resource";
import { patientVisits } from "./patient-visits.table";

const query = z.strictObject({
  patientVisitUuid: z.string().min(1).max(80).optional(),
  patientId: idParam("Patient must be a number").optional(),
  studyId: idParam("Study must be a number").optional(),
});

/** The patient's study when none is named: the most recent active assignment, else the latest one. */
async function assignedStudyId(db: Db, patientId: number): Promise<number | null> {
  const [row] = await db
    .select({ studyId: studyPatients.studyId })
    .from(studyPatients)
    .where(eq(studyPatients.patientId, patientId))
    .orderBy(
      desc(studyPatients.active),
      sql`${studyPatients.startDate} desc nulls last`,
      desc(studyPatients.id),
    )
    .limit(1);
  return row?.studyId ?? null;
}

/**
 * Every visit of the study in id order, with the patient's data of the record that counts where there
 * is one (countingRecords), all its records latest first, and its protocol deviations (issue 43).
 */
async function visitOptions(
  db: Db,
  patientId: number,
  studyId: number,
): Promise<Record<string, VisitOption>> {
  const [studyVisits, records, deviations] = await Promise.all([
    db
      .select({
        visitName: visits.name,
        visitUuid: visits.uuid,
        visitId: visits.id,
        visitType: visits.visitTypeId,
        mandatory: sql<0 | 1>`case when ${visits.mandatory} then 1 else 0 end`,
      })
      .from(visits)
      .where(eq(visits.studyId, studyId))
      .orderBy(asc(visits.id)),
    db
      .select({
        id: patientVisits.id,
        visitId: patientVisits.visitId,
        patientVisitId: patientVisits.id,
        patientVisitUuid: patientVisits.uuid,
        patientVisitVersion: patientVisits.version,
        visitDate: patientVisits.visitDate,
        visitTime: sql<string | null>`to_char(${patientVisits.visitTime}, 'HH24:MI')`,
        visitStatus: sql<VisitStatus>`${patientVisits.visitStatus}`,
        visitResult: sql<VisitResult | null>`${patientVisits.visitResult}`,
        notes: patientVisits.notes,
      })
      .from(patientVisits)
      .where(and(eq(patientVisits.patientId, patientId), eq(patientVisits.studyId, studyId)))
      .orderBy(sql`${patientVisits.visitDate} desc nulls last`, desc(patientVisits.id)),
    db
      .select({
        uuid: protocolDeviations.uuid,
        visitId: protocolDeviations.visitId,
        patientVisitId: protocolDeviations.patientVisitId,
        kind: protocolDeviations.kind,
        daysOutside: protocolDeviations.daysOutside,
        status: protocolDeviations.status,
        severity: protocolDeviations.severity,
        noLongerApplies: protocolDeviations.noLongerApplies,
        description: protocolDeviations.description,
      })
      .from(protocolDeviations)
      .where(and(eq(protocolDeviations.patientId, patientId), eq(protocolDeviations.studyId, studyId)))
      .orderBy(desc(protocolDeviations.id)),
  ]);
  const counting = countingRecords(records);
  const today = toIsoDate(new Date());
  // Each visit's planned window and state today, as the worklist and the summary show them.
  const windows = await scheduleOfPatient(db, patientId, studyId, today);
  return Object.fromEntries(
    studyVisits.map((visit) => {
      const record = counting.get(visit.visitId);
      const { visitId: _, ...window } = windows.get(visit.visitId) ?? {
        visitId: visit.visitId,
        sequence: null,
        expectedDate: null,
        windowStart: null,
        windowEnd: null,
        state: null,
        bookedOutsideWindow: false,
        bookingPassed: false,
      };
      const option: VisitOption = {
        ...visit,
        visitStatus: record?.visitStatus ?? null,
        visitResult: record?.visitResult ?? null,
        visitDate: record?.visitDate ?? null,
        visitTime: record?.visitTime ?? null,
        notes: record?.notes ?? null,
        patientVisitId: record?.id ?? null,
        patientVisitUuid: record?.patientVisitUuid ?? null,
        patientVisitVersion: record?.patientVisitVersion ?? null,
        ...window,
        // As the form lists them: without what only counting them needed.
        records: records
          .filter((r) => r.visitId === visit.visitId)
          .map(({ id: _, visitId: __, patientVisitVersion: ___, ...shown }) => shown),
        deviations: deviations.filter((d) => d.visitId === visit.visitId),
      };
      return [String(visit.visitId), option];
    }),
  );
}

async function detailOf(
  db: Db,
  user: SessionUser,
  patientId: number,
  studyId: number | null,
): Promise<PatientVisitDetail> {
  const [patient] = await db
    .select({
      patientId: patients.id,
      barcode: patients.barcode,
      firstName: patients.firstName,
      lastName: patients.lastName,
    })
    .from(patients)
    .where(and(eq(patients.id, patientId), patientScope(user)));
  if (!patient) throw notFound("Patient not found");
  const chosenStudy = studyId ?? (await assignedStudyId(db, patientId));
  if (chosenStudy === null) return { patient, study: null, visits: {} };
  const [study] = await db
    .select({
      studyId: studies.id,
      studyUuid: studies.uuid,
      internalCode: projects.internalCode,
      projectWorkingName: projects.workingName,
    })
    .from(studies)
    .innerJoin(projects, eq(projects.id, studies.projectId))
    .where(eq(studies.id, chosenStudy));
  if (!study) throw notFound("Study not found");
  return { patient, study, visits: await visitOptions(db, patientId, study.studyId) };
}

/** The answer (PatientVisitDetail), for /api/docs. */
const detailAnswer = answers(
  z.object({
    patient: z.object({
      patientId: z.number(),
      barcode: z.string(),
      firstName: z.string(),
      lastName: z.string(),
    }),
    study: z
      .object({
        studyId: z.number(),
        studyUuid: z.string(),
        internalCode: z.string(),
        projectWorkingName: z.string(),
      })
      .nullable(),
    visits: z
      .record(
        z.string(),
        z.looseObject({
          visitName: z.string(),
          visitUuid: z.string(),
          visitId: z.number(),
          visitType: z.number(),
          mandatory: z.number(),
          visitStatus: z.string().nullable(),
          visitResult: z.string().nullable(),
          visitDate: day.nullable(),
          patientVisitId: z.number().nullable(),
          patientVisitUuid: z.string().nullable(),
        }),
      )
      .describe("The study's visits by visit id"),
  }),
);

/**
 * GET /api/patient-visit-detail?patientVisitUuid=… | ?patientId=…[&studyId=…] (spec §3, §7): the
 * patient, the study (the patient visit's, the one named, or the patient's current assignment's)
 * and all the study's visits keyed by visit id, each with the patient's data for it when recorded.
 * Site-scoped like the records: another site's patient or visit reads as missing.
 */
export function patientVisitDetailRoutes(app: FastifyInstance, deps: Deps) {
  app.get(
    "/api/patient-visit-detail",
    { schema: { querystring: query, tags: ["patient-visits"], response: detailAnswer } },
    async (request, reply) => {
      const user = currentUser(request);
      const q = parseQuery(query, request.query);
      if (q.patientVisitUuid !== undefined) {
        const [visit] = await deps.db
          .select({ patientId: patientVisits.patientId, studyId: patientVisits.studyId })
          .from(patientVisits)
          .where(and(eq(patientVisits.uuid, q.patientVisitUuid), patientVisitScope(user)));
        if (!visit) throw notFound("Patient visit not found");
        return send(request, reply, await detailOf(deps.db, user, visit.patientId, visit.studyId));
      }
      if (q.patientId === undefined) {
        throw validationError(
          [{ field: "patientId", message: "Give patientVisitUuid or patientId" }],
          "Invalid query parameters",
        );
      }
      return send(request, reply, await detailOf(deps.db, user, q.patientId, q.studyId ?? null));
    },
  );
}
