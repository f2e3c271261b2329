import { addDays, newUuid, type VisitResult, type VisitStatus } from "@trialdesk/domain";
import { asc, count, eq, inArray } from "drizzle-orm";
import type { Db } from "../db/client";
import { patientVisits } from "../resources/patient-visits/patient-visits.table";
import { studyPatients } from "../resources/study-patients/study-patients.table";
import { studyplanScheduleEntries, studyplans } from "../resources/studyplans/studyplans.table";
import { visits } from "../resources/visits/visits.table";

/** Days between consecutive visits of a study without a plan. */
const defaultStepDays = 21;
/** Unscheduled visits (type 100) happen when needed, never on a timetable. */
const unscheduledVisitType = 100;

/** A study's timetable: its visits in order with the days from the first one. */
async function timetable(db: Db, studyId: number): Promise<{ visitId: number; day: number }[]> {
  const [plan] = await db
    .select({ id: studyplans.id })
    .from(studyplans)
    .where(eq(studyplans.studyId, studyId));
  if (plan) {
    const steps = await db
      .select()
      .from(studyplanScheduleEntries)
      .where(eq(studyplanScheduleEntries.studyplanId, plan.id))
      .orderBy(asc(studyplanScheduleEntries.sequence));
    let day = 0;
    const out: { visitId: number; day: number }[] = [];
    for (const step of steps) {
      out.push({ visitId: step.fromVisitId, day });
      day += step.daysFromStart;
      if (step.toVisitId === null) break;
    }
    const last = steps.at(-1);
    if (last?.toVisitId) out.push({ visitId: last.toVisitId, day });
    return out;
  }
  const studyVisits = await db
    .select({ id: visits.id, visitTypeId: visits.visitTypeId })
    .from(visits)
    .where(eq(visits.studyId, studyId))
    .orderBy(asc(visits.id));
  return studyVisits
    .filter((v) => v.visitTypeId !== unscheduledVisitType)
    .map((v, index) => ({ visitId: v.id, day: index * defaultStepDays }));
}

type Row = typeof patientVisits.$inferInsert;

/**
 * Demo patient visits (issue 7) for every demo assignment: each patient has got a different way
 * through the study's timetable. The visits done are COMPLETED (mostly OK, some FAILED, the latest
 * sometimes still PENDING), a few were missed (NO_SHOW) or CANCELLED; an active patient's next visit
 * is BOOKED within the next two weeks of the day the seed runs — except that every fourth active patient
 * came to the last visit late enough for the next one to be due on the seed's day (not booked yet), and
 * every fourth (another) has not booked the next one at all (overdue, or due soon), so the worklist has
 * something of each kind. A closed assignment stops at its close date. Nothing is added when any patient visit exists, so seeding twice adds nothing.
 */
export async function seedPatientVisits(db: Db, today = new Date().toISOString().slice(0, 10)) {
  const [existing] = await db.select({ n: count() }).from(patientVisits);
  if (Number(existing.n) > 0) return;
  const assignments = await db
    .select()
    .from(studyPatients)
    .orderBy(asc(studyPatients.studyId), asc(studyPatients.id));
  if (assignments.length === 0) return;
  const timetables = new Map<number, { visitId: number; day: number }[]>();
  for (const studyId of new Set(assignments.map((a) => a.studyId))) {
    timetables.set(studyId, await timetable(db, studyId));
  }
  // A patient assigned to the same study twice keeps one record per visit.
  const taken = new Set(
    (
      await db
        .select({ p: patientVisits.patientId, s: patientVisits.studyId, v: patientVisits.visitId })
        .from(patientVisits)
        .where(inArray(patientVisits.patientId, [...new Set(assignments.map((a) => a.patientId))]))
    ).map((r) => `${r.p}/${r.s}/${r.v}`),
  );
  const rows: Row[] = [];
  assignments.forEach((assignment, k) => {
    const plan = timetables.get(assignment.studyId) ?? [];
    if (plan.length === 0) return;
    const start = assignment.startDate ?? addDays(today, -90);
    const end = assignment.active ? today : (assignment.closeDate ?? today);
    // An active patient has had every visit due before today (some missed); a closed one got
    // between one visit and the whole timetable before the close.
    const progress = assignment.active ? plan.length : 1 + ((k * 7) % plan.length);
    let booked = false;
    let lastRow: Row | null = null;
    plan.forEach(({ visitId, day }, j) => {
      const key = `${assignment.patientId}/${assignment.studyId}/${visitId}`;
      if (taken.has(key)) return;
      const due = addDays(start, day);
      const time = `${String(8 + ((k + j) % 8)).padStart(2, "0")}:${(k + j) % 2 ? "30" : "00"}`;
      let visitStatus: VisitStatus;
      let visitResult: VisitResult | null = null;
      let visitDate = due;
      if (j < progress && due < end) {
        const missed = (k + 3 * j) % 17 === 5;
        const cancelled = (k + 5 * j) % 19 === 7;
        visitStatus = missed ? "NO_SHOW" : cancelled ? "CANCELLED" : "COMPLETED";
        if (visitStatus === "COMPLETED")
          visitResult = (k + j) % 13 === 4 ? "FAILED" : j === progress - 1 && k % 4 === 1 ? "PENDING" : "OK";
      } else if (assignment.active && !booked) {
        booked = true;
        const step = day - (plan[j - 1]?.day ?? day);
        if (k % 4 === 2 && lastRow?.visitStatus === "COMPLETED" && step > 0) {
          // The last visit was moved so that this one falls due today, and it is not booked yet.
          const moved = addDays(today, -step);
          if (moved > (lastRow.visitDate ?? "")) lastRow.visitDate = moved;
          return;
        }
        if (k % 4 === 3) return; // not booked: overdue once its window has passed
        // The next visit is booked soon; a late patient's booking moves past the planned day.
        visitStatus = "BOOKED";
        visitDate = due > today ? due : addDays(today, 1 + (k % 14));
      } else {
        return;
      }
      taken.add(key);
      lastRow = {
        uuid: newUuid("patient-visits"),
        patientId: assignment.patientId,
        studyId: assignment.studyId,
        visitId,
        visitDate,
        visitTime: time,
        visitStatus,
        visitResult,
        notes:
          visitStatus === "NO_SHOW"
            ? "Did not attend; called to rebook"
            : visitStatus === "CANCELLED"
              ? "Cancelled by the patient"
              : visitResult === "FAILED"
                ? "Lab values out of range; repeat at next visit"
                : null,
      };
      rows.push(lastRow);
    });
  });
  rows.push(...(await moreRecordsOfAVisit(db, rows, assignments, today)));
  for (let i = 0; i < rows.length; i += 500) await db.insert(patientVisits).values(rows.slice(i, i + 500));
}

/**
 * What a site's records also hold (issue 43): a visit rescheduled after a no-show keeps its no-show
 * beside the completed visit, and an Unscheduled visit is recorded as often as it was needed.
 */
async function moreRecordsOfAVisit(
  db: Db,
  rows: Row[],
  assignments: (typeof studyPatients.$inferSelect)[],
  today: string,
): Promise<Row[]> {
  const extra: Row[] = [];
  const noShow = rows.find(
    (row) => row.visitStatus === "NO_SHOW" && row.visitDate && addDays(row.visitDate, 3) < today,
  );
  if (noShow?.visitDate)
    extra.push({
      ...noShow,
      uuid: newUuid("patient-visits"),
      visitDate: addDays(noShow.visitDate, 2),
      visitStatus: "COMPLETED",
      visitResult: "OK",
      notes: "Rescheduled after the no-show",
    });
  const unscheduled = await db
    .select({ id: visits.id, studyId: visits.studyId })
    .from(visits)
    .where(eq(visits.visitTypeId, unscheduledVisitType));
  const withUnscheduled = new Map(unscheduled.map((v) => [v.studyId, v.id]));
  const patient = assignments.find(
    (a) => a.active && a.startDate && addDays(a.startDate, 40) < today && withUnscheduled.has(a.studyId),
  );
  if (patient?.startDate)
    for (const [days, notes] of [
      [12, "Adverse event follow-up: rash, resolved"],
      [30, "Extra safety lab"],
    ] as const)
      extra.push({
        uuid: newUuid("patient-visits"),
        patientId: patient.patientId,
        studyId: patient.studyId,
        visitId: withUnscheduled.get(patient.studyId) as number,
        visitDate: addDays(patient.startDate, days),
        visitTime: "11:00",
        visitStatus: "COMPLETED",
        visitResult: "OK",
        notes,
      });
  return extra;
}
