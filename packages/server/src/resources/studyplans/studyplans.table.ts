import { sql } from "drizzle-orm";
import { check, integer, numeric, pgTable, uniqueIndex, varchar } from "drizzle-orm/pg-core";
import { fkIndex, recordColumns, ref, requiredRef, unique, uuidUnique } from "../../db/columns";
import { studies } from "../studies/studies.table";
import { visits } from "../visits/visits.table";

/** A study's visit plan: one per study. */
export const studyplans = pgTable(
  "studyplans",
  {
    ...recordColumns(),
    studyId: requiredRef(() => studies.id),
    calculationMode: varchar({ length: 20 }).notNull().default("default"),
  },
  (t) => [uuidUnique("studyplans", t.uuid), unique("studyplans", "study_id", t.studyId)],
);

/** One used visit of a plan, in order; toVisitId is null for the last one (spec §3). */
export const studyplanScheduleEntries = pgTable(
  "studyplan_schedule_entries",
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    studyplanId: requiredRef(() => studyplans.id, "cascade"),
    fromVisitId: requiredRef(() => visits.id),
    toVisitId: ref(() => visits.id),
    daysFromStart: integer().notNull().default(0),
    allowedDaysBefore: integer().notNull().default(0),
    allowedDaysAfter: integer().notNull().default(0),
    sequence: integer().notNull(),
    /** The visit's own share of the patient fee in percent (issue 45); a plan's shares add up to 100. */
    feeShare: numeric({ precision: 5, scale: 2 }),
  },
  (t) => [
    uniqueIndex("studyplan_schedule_entries_studyplan_id_sequence_unique").on(t.studyplanId, t.sequence),
    uniqueIndex("studyplan_schedule_entries_studyplan_id_from_visit_id_unique").on(
      t.studyplanId,
      t.fromVisitId,
    ),
    fkIndex("studyplan_schedule_entries", "from_visit_id", t.fromVisitId),
    fkIndex("studyplan_schedule_entries", "to_visit_id", t.toVisitId),
    check("studyplan_schedule_entries_days_check", sql`${t.daysFromStart} between 0 and 999`),
    check("studyplan_schedule_entries_before_check", sql`${t.allowedDaysBefore} between 0 and 99`),
    check("studyplan_schedule_entries_after_check", sql`${t.allowedDaysAfter} between 0 and 99`),
    check("studyplan_schedule_entries_fee_share_check", sql`${t.feeShare} > 0 and ${t.feeShare} <= 100`),
  ],
);
