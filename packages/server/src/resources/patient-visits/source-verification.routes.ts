import { sdvStatusValues, sdvVerifiable } from "@trialdesk/domain";
import { and, eq, sql } from "drizzle-orm";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { recordAudit } from "../../audit/audit";
import { currentUser, type SessionUser, userName } from "../../auth/guards";
import { queryRows } from "../../db/client";
import type { Deps } from "../../deps";
import { sendCsv } from "../../http/csv";
import { send } from "../../http/envelope";
import { conflict, forbidden, notFound, validationError } from "../../http/errors";
import { answers, csvAnswer } from "../../http/openapi-responses";
import { parseBody, resourceAnswers, resourceService } from "../resource";
import { changeContext } from "../resource-routes";
import { lockSample } from "../study-patients/sdv-sample";
import { studyPatientsResource } from "../study-patients/study-patients.resource";
import { patientVisitsResource } from "./patient-visits.resource";
import { patientVisits } from "./patient-visits.table";
import { sdvStatusSql } from "./sdv-columns";

export const verificationMessages = {
  monitorsOnly: "Only a monitor assigned to the study verifies its visits",
  notVerifiable: "Only a pending or reopened visit can be verified",
  notSwappable: "Only a sampled patient without a verified visit can be swapped",
  replacementRequired: "Choose a patient of the same study and site who is not in the sample",
} as const;

const uuidParams = z.object({ uuid: z.string().max(80) });

/** The caller, who must be a monitor: staff and administrators do not verify (issue 44). */
function monitorOf(request: FastifyRequest): SessionUser {
  const user = currentUser(request);
  if (user.kind !== "monitor") throw forbidden(verificationMessages.monitorsOnly);
  return user;
}

/**
 * Source-data verification (issue 44):
 * - POST /api/patient-visits/{uuid}/verification: a monitor assigned to the visit's study and site
 *   verifies a PENDING or REOPENED visit (409 otherwise), audited like every change;
 * - GET /api/source-verification (and /export): the visits the monitor has to verify or has verified,
 *   the patient-visits list in its `sdv` format, filtered by study, site and state.
 */
export function sourceVerificationRoutes(fastify: FastifyInstance, deps: Deps) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const visits = resourceService(deps.db, patientVisitsResource);
  const forMonitors = { monitors: true };

  app.post(
    "/api/patient-visits/:uuid/verification",
    {
      config: forMonitors,
      schema: {
        params: uuidParams,
        tags: ["source verification"],
        response: answers(resourceAnswers(visits).record),
      },
    },
    async (request, reply) => {
      const monitor = monitorOf(request);
      const { uuid } = request.params;
      const change = changeContext(request);
      const name = userName(monitor) ?? monitor.email;
      await deps.db.transaction(async (tx) => {
        // Locked: of two monitors verifying at once, the second finds it verified (409).
        const [visit] = await tx
          .select({ id: patientVisits.id, status: sdvStatusSql })
          .from(patientVisits)
          .where(and(eq(patientVisits.uuid, uuid), visits.scopeOf(monitor)))
          .for("update");
        if (!visit) throw notFound("Patient visit not found");
        if (!sdvVerifiable(visit.status)) throw conflict(verificationMessages.notVerifiable);
        await tx
          .update(patientVisits)
          .set({
            sdvVerifiedAt: sql`now()`,
            sdvVerifiedBy: monitor.id,
            sdvVerifiedByName: name,
            sdvReopened: false,
          })
          .where(eq(patientVisits.id, visit.id));
        await recordAudit(tx, change, {
          resource: "patient-visits",
          uuid,
          action: "update",
          changes: [
            { field: "sdvStatus", old: visit.status, new: "VERIFIED" },
            { field: "sdvVerifiedByName", old: null, new: name },
          ],
        });
      });
      return send(request, reply, await visits.get(uuid, {}, monitor));
    },
  );

  const assignments = resourceService(deps.db, studyPatientsResource);
  const swapBody = z.strictObject({ replacementUuid: z.string().max(80) });
  /**
   * POST /api/study-patients/{uuid}/sdv-swap {replacementUuid}: a monitor takes a sampled patient
   * without a verified visit out of the sample and puts another of the same study and site in.
   */
  app.post(
    "/api/study-patients/:uuid/sdv-swap",
    {
      config: forMonitors,
      schema: {
        params: uuidParams,
        body: swapBody,
        tags: ["source verification"],
        response: answers(z.unknown()),
      },
    },
    async (request, reply) => {
      const monitor = monitorOf(request);
      const change = changeContext(request);
      const { uuid } = request.params;
      const { replacementUuid } = parseBody(swapBody, request.body);
      await deps.db.transaction(async (tx) => {
        const read = async (key: string) => {
          const [row] = await queryRows<{
            id: number;
            studyId: number;
            siteId: number;
            selected: boolean;
            verified: boolean;
          }>(
            tx,
            // The table by its name: the monitor's scope names its columns so.
            sql`select sp.id, sp.study_id as "studyId", p.recorder_site_id as "siteId",
                sp.sdv_selected as selected,
                exists(select 1 from patient_visits pv where pv.patient_id = sp.patient_id
                  and pv.study_id = sp.study_id and pv.sdv_verified_at is not null) as verified
              from study_patients sp join patients p on p.id = sp.patient_id
              where sp.uuid = ${key} and exists(select 1 from study_patients
                where study_patients.id = sp.id and ${assignments.scopeOf(monitor)})`,
          );
          return row;
        };
        const sampled = await read(uuid);
        if (!sampled) throw notFound("Study patient not found");
        await lockSample(tx, sampled.studyId, sampled.siteId);
        const [out, replacement] = [await read(uuid), await read(replacementUuid)];
        if (!out.selected || out.verified) throw conflict(verificationMessages.notSwappable);
        if (
          !replacement ||
          replacement.selected ||
          replacement.studyId !== out.studyId ||
          replacement.siteId !== out.siteId
        )
          throw validationError({ replacementUuid: verificationMessages.replacementRequired });
        // Kept as swaps, so the sample's later recomputations keep them (sdvSample).
        await tx.execute(
          sql`update study_patients set sdv_swapped = case when id = ${replacement.id} then 'IN' else 'OUT' end,
            sdv_selected = (id = ${replacement.id})
            where id in (${out.id}, ${replacement.id})`,
        );
        for (const [key, was] of [
          [uuid, true],
          [replacementUuid, false],
        ] as const)
          await recordAudit(tx, change, {
            resource: "study-patients",
            uuid: key,
            action: "update",
            changes: [{ field: "sdvSelected", old: was, new: !was }],
          });
      });
      return send(request, reply, await assignments.get(replacementUuid, {}, monitor));
    },
  );

  const listQuery = z.strictObject({
    studyId: z.string().max(12).optional(),
    siteId: z.string().max(12).optional(),
    sdvStatus: z.string().max(20).optional().describe(sdvStatusValues.join(", ")),
    searchTerm: z.string().max(100).optional(),
    page: z.string().max(12).optional(),
    pagesize: z.string().max(12).optional(),
    order: z.string().max(40).optional(),
    direction: z.string().max(4).optional(),
  });
  /** The patient-visits list call the screen's parameters mean: every visit to verify, or one state. */
  const sdvList = (query: Record<string, unknown>) => ({
    ...query,
    format: "sdv",
    ...(query.sdvStatus === undefined ? { sdv: "true" } : {}),
  });
  app.get(
    "/api/source-verification",
    {
      config: forMonitors,
      schema: { querystring: listQuery, tags: ["source verification"], response: answers(z.unknown()) },
    },
    async (request, reply) => {
      const monitor = monitorOf(request);
      return send(
        request,
        reply,
        await visits.list(sdvList(request.query), monitor, deps.config.defaultPageSize),
      );
    },
  );
  app.get(
    "/api/source-verification/export",
    {
      config: forMonitors,
      schema: {
        querystring: listQuery
          .omit({ page: true, pagesize: true })
          .extend({ columns: z.string().max(20_000).optional() }),
        tags: ["source verification"],
        response: csvAnswer,
      },
    },
    async (request, reply) => {
      const monitor = monitorOf(request);
      const { header, batches } = await visits.export(
        sdvList(request.query),
        monitor,
        deps.config.exportBatchRows,
      );
      return sendCsv(reply, "source-verification", header, batches);
    },
  );
}
