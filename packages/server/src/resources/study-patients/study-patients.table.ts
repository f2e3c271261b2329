import { sql } from "drizzle-orm";
import { boolean, check, date, index, pgTable, uniqueIndex, varchar } from "drizzle-orm/pg-core";
import { fkIndex, oneOf, recordColumns, ref, requiredRef, trgm, uuidUnique } from "../../db/columns";
import { closeReasons } from "../../db/enums";
import { patients } from "../patients/patients.table";
import { studies } from "../studies/studies.table";
import { users } from "../users/users.table";

/** The assignment of a patient to a study. */
export const studyPatients = pgTable(
  "study_patients",
  {
    ...recordColumns(),
    studyId: requiredRef(() => studies.id),
    patientId: requiredRef(() => patients.id),
    screenNr: varchar({ length: 50 }),
    randomNr: varchar({ length: 50 }),
    active: boolean().notNull().default(true),
    startDate: date({ mode: "string" }),
    startedBy: ref(() => users.id),
    closeDate: date({ mode: "string" }),
    closeReason: varchar({ length: 10 }),
    closedBy: ref(() => users.id),
    notes: varchar({ length: 2000 }),
    /** In the sample of patients to source-verify (issue 44): kept, recomputed by each assignment write. */
    sdvSelected: boolean().notNull().default(false),
    /** A monitor's swap into ("IN") or out of ("OUT") the sample, kept through later recomputations. */
    sdvSwapped: varchar({ length: 3 }),
  },
  (t) => [
    uuidUnique("study_patients", t.uuid),
    // One ACTIVE assignment per patient and study; closed ones stay as history and never block a new one.
    uniqueIndex("study_patients_active_study_id_patient_id_unique")
      .on(t.studyId, t.patientId)
      .where(sql`${t.active}`),
    oneOf("study_patients", "close_reason", t.closeReason, closeReasons),
    oneOf("study_patients", "sdv_swapped", t.sdvSwapped, ["IN", "OUT"]),
    // The close reason is mandatory when closed (spec §5).
    check("study_patients_closed_check", sql`${t.active} or ${t.closeReason} is not null`),
    fkIndex("study_patients", "patient_id", t.patientId),
    // A patient's active assignments (the lookup of patients with one): asked from the index alone.
    index("study_patients_active_patient_id_idx").on(t.patientId).where(sql`${t.active}`),
    fkIndex("study_patients", "started_by", t.startedBy),
    fkIndex("study_patients", "closed_by", t.closedBy),
    index("study_patients_study_id_screen_nr_idx").on(t.studyId, t.screenNr),
    // A site's assignments in id order (through their patients), counted and paged from the index alone.
    index("study_patients_id_patient_id_idx").on(t.id, t.patientId),
    // The list search (screen and random numbers; barcode and names are searched on patients).
    trgm("study_patients", "screen_nr", t.screenNr),
    trgm("study_patients", "random_nr", t.randomNr),
  ],
);
