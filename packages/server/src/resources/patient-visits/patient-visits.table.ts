import { sql } from "drizzle-orm";
import { boolean, date, index, pgTable, time, timestamp, varchar } from "drizzle-orm/pg-core";
import { fkIndex, oneOf, recordColumns, ref, requiredRef, uuidUnique } from "../../db/columns";
import { visitResults, visitStatuses } from "../../db/enums";
import { monitors } from "../monitors/monitors.table";
import { patients } from "../patients/patients.table";
import { studies } from "../studies/studies.table";
import { visits } from "../visits/visits.table";

export const patientVisits = pgTable(
  "patient_visits",
  {
    ...recordColumns(),
    patientId: requiredRef(() => patients.id),
    studyId: requiredRef(() => studies.id),
    visitId: requiredRef(() => visits.id),
    visitDate: date({ mode: "string" }),
    visitTime: time(),
    visitStatus: varchar({ length: 10 }).notNull().default("BOOKED"),
    visitResult: varchar({ length: 10 }),
    notes: varchar({ length: 2000 }),
    /** When and by whom a monitor last verified it against the source (issue 44). */
    sdvVerifiedAt: timestamp({ withTimezone: true }),
    sdvVerifiedBy: ref(() => monitors.id, "set null"),
    sdvVerifiedByName: varchar({ length: 120 }),
    /** Its verified data changed since: it needs verifying again. */
    sdvReopened: boolean().notNull().default(false),
  },
  (t) => [
    uuidUnique("patient_visits", t.uuid),
    // A patient's records of a study's visit: a visit may have several (issue 43: a no-show, then the
    // visit itself; Unscheduled visits as often as needed).
    index("patient_visits_patient_id_study_id_visit_id_idx").on(t.patientId, t.studyId, t.visitId),
    oneOf("patient_visits", "visit_status", t.visitStatus, visitStatuses),
    oneOf("patient_visits", "visit_result", t.visitResult, visitResults),
    fkIndex("patient_visits", "study_id", t.studyId),
    fkIndex("patient_visits", "visit_id", t.visitId),
    // Newest visits first (date, time, id); the patient id last lets a site's list (patients of the
    // site) skip deep pages and count from the index alone.
    index("patient_visits_visit_date_idx").on(t.visitDate, t.visitTime, t.id, t.patientId),
    // A study's verified visits (the visit summary's source-verification marks, issue 44).
    index("patient_visits_verified_study_id_idx").on(t.studyId).where(sql`${t.sdvVerifiedAt} is not null`),
    // A monitor removed sets their verifications' reference null: found by this index.
    index("patient_visits_sdv_verified_by_idx")
      .on(t.sdvVerifiedBy)
      .where(sql`${t.sdvVerifiedBy} is not null`),
  ],
);
