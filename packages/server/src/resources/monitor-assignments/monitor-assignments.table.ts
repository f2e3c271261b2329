import { sql } from "drizzle-orm";
import { check, date, index, integer, pgTable, varchar } from "drizzle-orm/pg-core";
import { fkIndex, recordColumns, requiredRef, uuidUnique } from "../../db/columns";
import { monitors } from "../monitors/monitors.table";
import { studies } from "../studies/studies.table";

/**
 * A monitor's dated, read-only access to a study (issue 44): at the listed sites, or at every site of
 * the study's project when none are listed. Every read of a monitor goes through `monitorSees`.
 */
export const monitorAssignments = pgTable(
  "monitor_assignments",
  {
    ...recordColumns(),
    monitorId: requiredRef(() => monitors.id, "cascade"),
    studyId: requiredRef(() => studies.id, "cascade"),
    siteIds: integer().array().notNull().default(sql`'{}'`),
    accessFrom: date({ mode: "string" }).notNull(),
    accessTo: date({ mode: "string" }).notNull(),
    notes: varchar({ length: 2000 }),
  },
  (t) => [
    uuidUnique("monitor_assignments", t.uuid),
    check("monitor_assignments_dates_check", sql`${t.accessTo} >= ${t.accessFrom}`),
    // A monitor's assignments of a study: what every read of theirs asks.
    index("monitor_assignments_monitor_id_study_id_idx").on(t.monitorId, t.studyId),
    fkIndex("monitor_assignments", "study_id", t.studyId),
  ],
);
