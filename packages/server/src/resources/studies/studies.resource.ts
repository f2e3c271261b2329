import { randomisationVisitType, type StudyInput } from "@trialdesk/domain";
import { eq, sql } from "drizzle-orm";
import { column, monitorSeesStudy } from "../monitor-assignments/monitor-scope";
import { projects } from "../projects/projects.table";
import { defineResource } from "../resource";
import { visits } from "../visits/visits.table";
import { studies } from "./studies.table";

/** Studies (spec §2.5, §3): one variant of a project, with its first/last patient dates. */
export const studiesResource = defineResource<StudyInput>({
  name: "studies",
  table: studies,
  monitors: { scope: (m) => monitorSeesStudy(m, column("studies", "id")), search: [studies.workingName] },
  sort: {
    id: studies.id,
    workingName: studies.workingName,
    variant: studies.variant,
    fpfv: studies.fpfv,
    lpfv: studies.lpfv,
    lplv: studies.lplv,
    projectWorkingName: projects.workingName,
    projectInternalCode: projects.internalCode,
  },
  // The study lookup finds a study by its own or its project's name and code (spec §7).
  search: [studies.workingName, projects.workingName, projects.internalCode],
  // Study setup is written by administrators (the registry, decision 226).
  formats: {
    view: {
      fields: {
        id: studies.id,
        uuid: studies.uuid,
        version: studies.version,
        projectId: studies.projectId,
        variant: studies.variant,
        workingName: studies.workingName,
        fpfv: studies.fpfv,
        lpfv: studies.lpfv,
        lplv: studies.lplv,
        variantDescription: studies.variantDescription,
        projectStatusId: studies.projectStatusId,
        projectWorkingName: projects.workingName,
        projectInternalCode: projects.internalCode,
        protocolNr: projects.protocolNr,
      },
      joins: (query) => query.innerJoin(projects, eq(projects.id, studies.projectId)),
    },
    // The study selects of the visit and studyplan editors (spec §3 Option view, §7: size 250).
    "option-view": {
      fields: {
        id: studies.id,
        uuid: studies.uuid,
        workingName: studies.workingName,
        protocolNr: projects.protocolNr,
        visitCount: sql<number>`(select count(*)::int from ${visits} where ${visits.studyId} = ${studies.id})`,
        hasRandomVisit: sql<boolean>`exists (select 1 from ${visits} where ${visits.studyId} = ${studies.id} and ${visits.visitTypeId} = ${randomisationVisitType})`,
      },
      joins: (query) => query.innerJoin(projects, eq(projects.id, studies.projectId)),
    },
  },
  unique: {
    studies_project_id_variant_unique: {
      field: "variant",
      message: "The project already has a study with this variant",
    },
  },
});
