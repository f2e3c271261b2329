import {
  deviationKindValues,
  deviationSeverityValues,
  deviationSourceValues,
  deviationStatusValues,
} from "@trialdesk/domain";
import { sql } from "drizzle-orm";
import { boolean, date, index, integer, pgTable, uniqueIndex, varchar } from "drizzle-orm/pg-core";
import { fkIndex, oneOf, recordColumns, ref, requiredRef, uuidUnique } from "../../db/columns";
import { patientVisits } from "../patient-visits/patient-visits.table";
import { patients } from "../patients/patients.table";
import { sites } from "../sites/sites.table";
import { studies } from "../studies/studies.table";
import { studyPatients } from "../study-patients/study-patients.table";
import { visits } from "../visits/visits.table";

/**
 * Protocol deviations (issue 43): entered by staff, or written by Trialdesk in the transaction of the
 * write that causes them. Nothing is deleted: an automatic one whose cause went away is withdrawn or,
 * once reported, marked as no longer applying.
 */
export const protocolDeviations = pgTable(
  "protocol_deviations",
  {
    ...recordColumns(),
    // The patient's site when it was recorded: the scope of lists reads it without a join.
    siteId: requiredRef(() => sites.id),
    patientId: requiredRef(() => patients.id),
    studyId: requiredRef(() => studies.id),
    studyPatientId: requiredRef(() => studyPatients.id),
    visitId: ref(() => visits.id),
    // A visit record deleted leaves its deviation (withdrawn) without it.
    patientVisitId: ref(() => patientVisits.id, "set null"),
    kind: varchar({ length: 30 }).notNull(),
    source: varchar({ length: 10 }).notNull(),
    detectedOn: date({ mode: "string" }).notNull(),
    daysOutside: integer(),
    description: varchar({ length: 2000 }).notNull(),
    severity: varchar({ length: 10 }).notNull().default("MINOR"),
    status: varchar({ length: 10 }).notNull().default("OPEN"),
    reportedOn: date({ mode: "string" }),
    correctiveAction: varchar({ length: 2000 }),
    closedOn: date({ mode: "string" }),
    noLongerApplies: boolean().notNull().default(false),
  },
  (t) => [
    uuidUnique("protocol_deviations", t.uuid),
    oneOf("protocol_deviations", "kind", t.kind, deviationKindValues),
    oneOf("protocol_deviations", "source", t.source, deviationSourceValues),
    oneOf("protocol_deviations", "severity", t.severity, deviationSeverityValues),
    oneOf("protocol_deviations", "status", t.status, deviationStatusValues),
    // At most one automatic deviation per assignment, plan visit and kind, whatever writes it.
    uniqueIndex("protocol_deviations_automatic_unique")
      .on(t.studyPatientId, t.visitId, t.kind)
      .where(sql`${t.source} = 'AUTOMATIC'`),
    // A site's deviations, newest first (the list's default order).
    index("protocol_deviations_site_id_detected_on_idx").on(t.siteId, t.detectedOn, t.id),
    fkIndex("protocol_deviations", "patient_id", t.patientId),
    fkIndex("protocol_deviations", "study_id", t.studyId),
    fkIndex("protocol_deviations", "visit_id", t.visitId),
    fkIndex("protocol_deviations", "patient_visit_id", t.patientVisitId),
  ],
);
