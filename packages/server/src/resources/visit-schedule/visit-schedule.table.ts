import { visitKindLetter, visitKinds, visitSummaryDayZero } from "@trialdesk/domain";
import { sql } from "drizzle-orm";
import { boolean, date, index, integer, pgTable, text, uniqueIndex, varchar } from "drizzle-orm/pg-core";
import { oneOf, ref, requiredRef } from "../../db/columns";
import { patientVisits } from "../patient-visits/patient-visits.table";
import { studyPatients } from "../study-patients/study-patients.table";

/**
 * A row's cell of the visit summary, packed as VisitSummaryRow describes it, its days from
 * visitSummaryDayZero: kept by PostgreSQL beside the row, so a summary of 80,000 cells joins them
 * instead of writing each (decision 183). Column names as they are in the table.
 */
const dayZero = sql.raw(`date '${visitSummaryDayZero}'`);
const packedCell = sql`visit_id::text
  || case kind ${sql.raw(visitKinds.map((kind) => `when '${kind}' then '${visitKindLetter(kind)}'`).join(" "))} end
  || coalesce((expected_date - ${dayZero})::text, '')
  || case when visit_date is null then '' when visit_date = expected_date then ':'
       else ':' || (visit_date - coalesce(expected_date, ${dayZero}))::text end
  || case when booked_outside_window then '!' else '' end`;

/**
 * The visit-window engine's answer, stored: one row per study assignment and plan visit (and per
 * recorded visit the plan does not hold). Rewritten in the same transaction as every write that
 * changes it (patient visits, assignments, studyplans), so lists read windows instead of computing
 * them; only the day-dependent part of the state (upcoming / due / overdue) is decided at read time.
 */
export const visitSchedule = pgTable(
  "visit_schedule",
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    studyPatientId: requiredRef(() => studyPatients.id, "cascade"),
    // Copies of the assignment's keys, so the worklist filters and orders on this table alone.
    patientId: integer().notNull(),
    studyId: integer().notNull(),
    siteId: integer().notNull(),
    active: boolean().notNull(),
    visitId: integer().notNull(),
    /** Position in the plan from 1; null for a recorded visit the plan does not hold. */
    sequence: integer(),
    expectedDate: date({ mode: "string" }),
    windowStart: date({ mode: "string" }),
    windowEnd: date({ mode: "string" }),
    kind: varchar({ length: 20 }).notNull(),
    bookedOutsideWindow: boolean().notNull().default(false),
    patientVisitId: ref(() => patientVisits.id, "set null"),
    visitDate: date({ mode: "string" }),
    visitStatus: varchar({ length: 10 }),
    /** The visit's automatic protocol deviation is OPEN (kept with the deviations, issue 43). */
    deviationOpen: boolean().notNull().default(false),
    cell: text().notNull().generatedAlwaysAs(packedCell),
  },
  (t) => [
    uniqueIndex("visit_schedule_study_patient_id_visit_id_unique").on(t.studyPatientId, t.visitId),
    oneOf("visit_schedule", "kind", t.kind, visitKinds),
    index("visit_schedule_study_id_idx").on(t.studyId),
    // A worklist search for a rare name reads its patients' rows (worklist.routes.ts, searchWords).
    index("visit_schedule_patient_id_idx").on(t.patientId),
    index("visit_schedule_patient_visit_id_idx").on(t.patientVisitId),
    // The worklist: a site's plan visits of active assignments, one range per kind in window-end order,
    // so each state's page and count read only its own rows. Done and not-applicable never enter it.
    // The window start, last, lets the states it bounds (due, upcoming, the horizon of booked and
    // out-of-window) count from the index alone: at 100k patients the counts took 16 → 9 ms.
    index("visit_schedule_worklist_idx")
      .on(t.siteId, t.kind, t.windowEnd, t.id, t.windowStart)
      .where(sql`${t.active} and ${t.sequence} is not null and ${t.kind} not in ('done', 'not-applicable')`),
    // The worklist's "Deviations open": a site's rows whose automatic deviation is open, by window end,
    // so its page and its count read only them (an exists per row cost the worklist 30 ms at 5,000).
    index("visit_schedule_deviations_open_idx")
      .on(t.siteId, t.windowEnd, t.id)
      .where(sql`${t.active} and ${t.sequence} is not null and ${t.deviationOpen}`),
  ],
);
