import { sql } from "drizzle-orm";
import { boolean, index, integer, pgTable, uniqueIndex, varchar } from "drizzle-orm/pg-core";
import { fkIndex, oneOf, recordColumns, requiredRef, trgm, uuidUnique } from "../../db/columns";
import { randomisationVisitTypeId, visitTypeIds } from "../../db/enums";
import { studies } from "../studies/studies.table";

/** The visit definitions of a study. */
export const visits = pgTable(
  "visits",
  {
    ...recordColumns(),
    studyId: requiredRef(() => studies.id),
    name: varchar({ length: 50 }).notNull(),
    visitTypeId: integer().notNull(),
    mandatory: boolean().notNull().default(false),
  },
  (t) => [
    uuidUnique("visits", t.uuid),
    oneOf("visits", "visit_type_id", t.visitTypeId, visitTypeIds),
    // Randomisation (type 50) at most once per study (spec §9).
    uniqueIndex("visits_visit_type_id_unique")
      .on(t.studyId)
      .where(sql`visit_type_id = ${sql.raw(String(randomisationVisitTypeId))}`),
    // A visit name once per study, compared trimmed and in any case (issue 46): the summary's columns,
    // the plan and the worklist name visits by it.
    uniqueIndex("visits_name_unique").on(t.studyId, sql`lower(btrim(${t.name}))`),
    fkIndex("visits", "study_id", t.studyId),
    index("visits_study_id_name_idx").on(t.studyId, t.name),
    trgm("visits", "name", t.name),
  ],
);
