import { date, integer, pgTable, uniqueIndex, varchar } from "drizzle-orm/pg-core";
import { fkIndex, oneOf, recordColumns, requiredRef, trgm, uuidUnique } from "../../db/columns";
import { projectStatusIds, studyVariants } from "../../db/enums";
import { projects } from "../projects/projects.table";

export const studies = pgTable(
  "studies",
  {
    ...recordColumns(),
    projectId: requiredRef(() => projects.id),
    variant: varchar({ length: 20 }).notNull(),
    workingName: varchar({ length: 80 }).notNull(),
    fpfv: date({ mode: "string" }).notNull(),
    lpfv: date({ mode: "string" }).notNull(),
    lplv: date({ mode: "string" }).notNull(),
    variantDescription: varchar({ length: 200 }),
    projectStatusId: integer().notNull(),
  },
  (t) => [
    uuidUnique("studies", t.uuid),
    // A study is one variant of its project.
    uniqueIndex("studies_project_id_variant_unique").on(t.projectId, t.variant),
    oneOf("studies", "variant", t.variant, studyVariants),
    oneOf("studies", "project_status_id", t.projectStatusId, projectStatusIds),
    fkIndex("studies", "project_id", t.projectId),
    trgm("studies", "working_name", t.workingName),
  ],
);
