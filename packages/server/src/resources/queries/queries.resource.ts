import {
  queryMessages as messages,
  optionLabel,
  type QueryInput,
  type QueryStatus,
  queryStatuses,
  queryStatusValues,
} from "@trialdesk/domain";
import { asc, eq, inArray, sql } from "drizzle-orm";
import { z } from "zod";
import type { SessionUser } from "../../auth/guards";
import { queryRows } from "../../db/client";
import { conflict, forbidden, validationError } from "../../http/errors";
import { column, monitorSeesSite } from "../monitor-assignments/monitor-scope";
import { idParam } from "../params";
import { patientVisitsResource } from "../patient-visits/patient-visits.resource";
import { patientVisits } from "../patient-visits/patient-visits.table";
import { patients } from "../patients/patients.table";
import { defineResource } from "../resource";
import { inSites } from "../site-scope";
import { studies } from "../studies/studies.table";
import { visits } from "../visits/visits.table";
import { queries, queryMessages } from "./queries.table";

/** Staff see their sites' queries; administrators all (the row keeps its visit's patient's site). */
const queryScope = (user: SessionUser | null) => (user?.isAdmin ? undefined : inSites(queries.siteId, user));

const isoAt = (at: unknown) => sql<string>`to_char(${at} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`;

/**
 * Queries (issue 44): a monitor's question on a patient visit, answered by the site in a thread of
 * messages (POST /api/queries/{uuid}/messages, queries.routes.ts). A monitor opens one (POST) and closes
 * or reopens it (PUT with the status); its text stays as asked. Never deleted.
 */
export const queriesResource = defineResource<QueryInput>({
  name: "queries",
  table: queries,
  scope: queryScope,
  monitors: {
    scope: (m) => monitorSeesSite(m, column("queries", "study_id"), column("queries", "site_id")),
    search: [queries.text],
  },
  sort: {
    id: queries.id,
    createdAt: queries.createdAt,
    updatedAt: queries.updatedAt,
    status: queries.status,
    barcode: patients.barcode,
    visitDate: patientVisits.visitDate,
  },
  defaultSort: "updatedAt",
  defaultDirection: "desc",
  search: [queries.text],
  exportText: { status: (row) => optionLabel(queryStatuses, row.status as QueryStatus) },
  filters: {
    status: {
      schema: z.enum(queryStatusValues, { error: "Status must be OPEN, ANSWERED or CLOSED" }),
      where: (status: QueryStatus) => eq(queries.status, status),
    },
    studyId: { schema: idParam("Study must be a number"), where: (id: number) => eq(queries.studyId, id) },
    siteId: { schema: idParam("Site must be a number"), where: (id: number) => eq(queries.siteId, id) },
    patientVisitId: {
      schema: idParam("Patient visit must be a number"),
      where: (id: number) => eq(queries.patientVisitId, id),
    },
  },
  formats: {
    view: {
      fields: {
        id: queries.id,
        uuid: queries.uuid,
        version: queries.version,
        patientVisitId: queries.patientVisitId,
        patientVisitUuid: patientVisits.uuid,
        barcode: patients.barcode,
        studyId: queries.studyId,
        studyName: studies.workingName,
        siteId: queries.siteId,
        visitName: visits.name,
        visitDate: patientVisits.visitDate,
        text: queries.text,
        status: queries.status,
        openedByName: queries.openedByName,
        createdAt: isoAt(queries.createdAt),
        updatedAt: isoAt(queries.updatedAt),
      },
      joins: (query) =>
        query
          .innerJoin(patientVisits, eq(patientVisits.id, queries.patientVisitId))
          .innerJoin(patients, eq(patients.id, patientVisits.patientId))
          .innerJoin(studies, eq(studies.id, queries.studyId))
          .innerJoin(visits, eq(visits.id, patientVisits.visitId)),
      joinsKeepRows: true,
    },
  },
  // A record read alone carries its thread; list rows do not.
  expand: async (db, records) => {
    if (records.length !== 1) return records;
    const thread = await db
      .select({
        at: isoAt(queryMessages.at),
        authorKind: queryMessages.authorKind,
        authorName: queryMessages.authorName,
        text: queryMessages.text,
      })
      .from(queryMessages)
      .where(inArray(queryMessages.queryId, [records[0].id as number]))
      .orderBy(asc(queryMessages.id));
    return [{ ...records[0], messages: thread }];
  },
  toRow: async (input, { tx, user, existing }) => {
    if (user?.kind !== "monitor") throw forbidden(messages.monitorsOnly);
    if (existing) {
      // The question stays as asked; the monitor closes or reopens it.
      const status = input.status ?? (existing.status as QueryStatus);
      return { status };
    }
    const visitScope = patientVisitsResource.monitors?.scope(sql`${user.id}`) ?? sql`false`;
    const [visit] = await queryRows<{ id: number; studyId: number; siteId: number }>(
      tx,
      sql`select patient_visits.id, patient_visits.study_id as "studyId", p.recorder_site_id as "siteId"
        from patient_visits join patients p on p.id = patient_visits.patient_id
        where patient_visits.id = ${input.patientVisitId as number} and ${visitScope}`,
    );
    if (!visit) throw validationError({ patientVisitId: messages.patientVisitNotFound });
    return {
      patientVisitId: visit.id,
      studyId: visit.studyId,
      siteId: visit.siteId,
      text: (input.text as string).trim(),
      status: "OPEN",
      openedBy: user.id,
      openedByName: `${user.profile.firstName} ${user.profile.lastName}`.trim() || user.email,
    };
  },
  beforeDelete: async () => {
    throw conflict(messages.neverDeleted);
  },
});
