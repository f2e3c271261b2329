import { type MonitorAssignmentInput, monitorAssignmentMessages as messages } from "@trialdesk/domain";
import { eq, sql } from "drizzle-orm";
import { queryRows } from "../../db/client";
import { validationError } from "../../http/errors";
import { monitors } from "../monitors/monitors.table";
import { idParam } from "../params";
import { byName, defineResource } from "../resource";
import { intArray } from "../resource-query";
import { studies } from "../studies/studies.table";
import { monitorAssignments } from "./monitor-assignments.table";

const monitorName = sql<string>`${monitors.firstName} || ' ' || ${monitors.lastName}`;

/**
 * Monitor assignments (issue 44): which study a monitor may read, where and when. Administrators
 * alone list and write them (the registry); a monitor's reads follow them through monitor-scope.ts.
 */
export const monitorAssignmentsResource = defineResource<MonitorAssignmentInput>({
  name: "monitor-assignments",
  table: monitorAssignments,
  sort: {
    id: monitorAssignments.id,
    monitorName: [byName(monitors.lastName), byName(monitors.firstName)],
    studyName: studies.workingName,
    accessFrom: monitorAssignments.accessFrom,
    accessTo: monitorAssignments.accessTo,
  },
  defaultSort: "accessFrom",
  defaultDirection: "desc",
  search: [monitors.email, monitors.lastName, monitors.firstName, studies.workingName],
  filters: {
    monitorId: {
      schema: idParam("Monitor must be a number"),
      where: (id: number) => eq(monitorAssignments.monitorId, id),
    },
    studyId: {
      schema: idParam("Study must be a number"),
      where: (id: number) => eq(monitorAssignments.studyId, id),
    },
  },
  formats: {
    view: {
      fields: {
        id: monitorAssignments.id,
        uuid: monitorAssignments.uuid,
        version: monitorAssignments.version,
        monitorId: monitorAssignments.monitorId,
        studyId: monitorAssignments.studyId,
        siteIds: monitorAssignments.siteIds,
        accessFrom: monitorAssignments.accessFrom,
        accessTo: monitorAssignments.accessTo,
        notes: monitorAssignments.notes,
        monitorName,
        studyName: studies.workingName,
        current: sql<boolean>`current_date between ${monitorAssignments.accessFrom} and ${monitorAssignments.accessTo}`,
      },
      joins: (query) =>
        query
          .innerJoin(monitors, eq(monitors.id, monitorAssignments.monitorId))
          .innerJoin(studies, eq(studies.id, monitorAssignments.studyId)),
      joinsKeepRows: true,
    },
  },
  toRow: async (input, { tx }) => {
    const siteIds = [...new Set(input.siteIds ?? [])].sort((a, b) => a - b);
    const [found] = await queryRows<{ monitor: boolean; study: boolean; outside: number }>(
      tx,
      sql`select exists(select 1 from monitors where id = ${input.monitorId as number}) as monitor,
          exists(select 1 from studies where id = ${input.studyId as number}) as study,
          (select count(*)::int from unnest(${intArray(siteIds)}::int[]) as chosen(site_id)
            where not exists(select 1 from project_sites ps join studies s on s.project_id = ps.project_id
              where s.id = ${input.studyId as number} and ps.site_id = chosen.site_id)) as outside`,
    );
    const errors: Record<string, string> = {};
    if (!found.monitor) errors.monitorId = messages.monitorRequired;
    if (!found.study) errors.studyId = messages.studyRequired;
    else if (found.outside > 0) errors.siteIds = messages.siteOfOtherProject;
    if (Object.keys(errors).length > 0) throw validationError(errors);
    return {
      monitorId: input.monitorId,
      studyId: input.studyId,
      siteIds,
      accessFrom: input.accessFrom,
      accessTo: input.accessTo,
      notes: input.notes?.trim() ? input.notes.trim() : null,
    };
  },
});
