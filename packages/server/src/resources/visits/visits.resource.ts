import { randomisationVisitType, type VisitInput, visitInUseMessage, visitTypes } from "@trialdesk/domain";
import { eq, type SQL, type SQLWrapper, sql } from "drizzle-orm";
import { holds, type Tx } from "../../db/client";
import { validationError } from "../../http/errors";
import { column, monitorSeesStudy } from "../monitor-assignments/monitor-scope";
import { idParam } from "../params";
import { patientVisits } from "../patient-visits/patient-visits.table";
import { projects } from "../projects/projects.table";
import { defineResource } from "../resource";
import { studies } from "../studies/studies.table";
import { studyplanScheduleEntries } from "../studyplans/studyplans.table";
import { visits } from "./visits.table";

/**
 * Whether a visit is recorded for a patient or planned in a studyplan: such a visit keeps its study,
 * or those records would name a visit of another study. The view answers it (the form shows the study
 * as fixed); the save asks it again after its lock: the visit's row is locked by its save, and the
 * saves that use a visit lock it too (FOR KEY SHARE), so a use saved at the same moment is seen.
 */
const inUse = (id: SQLWrapper) =>
  sql<boolean>`(exists(select 1 from ${patientVisits} where ${patientVisits.visitId} = ${id})
    or exists(select 1 from ${studyplanScheduleEntries}
      where ${studyplanScheduleEntries.fromVisitId} = ${id} or ${studyplanScheduleEntries.toVisitId} = ${id}))`;

const visitInUse = (tx: Tx, id: number) => holds(tx, inUse(sql`${id}`));

/** The visit type's label (e.g. "Randomisation") from the domain's list, so both sides name types alike. */
const visitTypeLabel: SQL<string> = sql`case ${visits.visitTypeId} ${sql.join(
  visitTypes.map((t) => sql`when ${sql.raw(String(t.value))} then ${t.label}`),
  sql` `,
)} end`;

export const visitNameUsedMessage = "A visit of this name already exists in the study";

/** The wire carries mandatory as 0 or 1 (spec §3); the table keeps a boolean. */
const mandatoryNumber = sql<0 | 1>`case when ${visits.mandatory} then 1 else 0 end`;

/** Visit definitions of a study (spec §2.5, §3); randomisation (type 50) at most once per study. */
export const visitsResource = defineResource<VisitInput>({
  name: "visits",
  table: visits,
  monitors: { scope: (m) => monitorSeesStudy(m, column("visits", "study_id")), search: [visits.name] },
  sort: {
    id: visits.id,
    visitName: visits.name,
    studyName: studies.workingName,
    visitTypeId: visits.visitTypeId,
    mandatory: visits.mandatory,
  },
  search: [visits.name, studies.workingName],
  filters: {
    studyId: {
      schema: idParam(),
      where: (id: number) => eq(visits.studyId, id),
    },
  },
  // Study setup is written by administrators (the registry, decision 226).
  // The list's Type column ("50 Randomisation") and its Mandatory check mark.
  exportText: {
    visitTypeId: (row) => `${row.visitTypeId} ${row.visitType ?? ""}`,
    mandatory: (row) => (row.mandatory === 1 ? "Yes" : "No"),
  },
  formats: {
    view: {
      fields: {
        id: visits.id,
        uuid: visits.uuid,
        version: visits.version,
        studyId: visits.studyId,
        name: visits.name,
        visitName: visits.name,
        visitTypeId: visits.visitTypeId,
        visitType: visitTypeLabel,
        mandatory: mandatoryNumber,
        studyName: studies.workingName,
        protocolNr: projects.protocolNr,
        inUse: inUse(visits.id),
      },
      joins: (query) =>
        query
          .innerJoin(studies, eq(studies.id, visits.studyId))
          .innerJoin(projects, eq(projects.id, studies.projectId)),
    },
  },
  toRow: async (input, { tx, existing }) => {
    if (existing && input.studyId !== existing.studyId && (await visitInUse(tx, existing.id as number)))
      throw validationError({ studyId: visitInUseMessage });
    return {
      studyId: input.studyId,
      name: input.name,
      visitTypeId: input.visitTypeId,
      mandatory: input.mandatory === 1,
    };
  },
  unique: {
    // The unique index on (study_id, lower(btrim(name))) (issue 46).
    visits_name_unique: { field: "name", message: visitNameUsedMessage },
    // The partial unique index on (study_id) where visit_type_id = 50.
    visits_visit_type_id_unique: {
      field: "visitTypeId",
      message: `Randomisation visit type ${randomisationVisitType} is allowed once per study`,
    },
  },
});
