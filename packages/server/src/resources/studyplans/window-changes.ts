import {
  type Assignment,
  type CalculationMode,
  defaultCalculationMode,
  type Plan,
  type RecordedVisit,
  type ScheduledVisit,
  type StudyplanInput,
  scheduleVisits,
} from "@trialdesk/domain";
import { sql } from "drizzle-orm";
import { queryRows, type Tx } from "../../db/client";
import { AppError } from "../../http/errors";
import { plansOf } from "../visit-schedule/visit-schedule";

/**
 * A studyplan save that changes what visits already recorded are (issue 46, point 3): the save asks
 * first. The windows of every assignment of the study come from the domain's engine (scheduleVisits)
 * with the plan as stored and with the plan as sent; a recorded visit (an assignment's plan visit, or a
 * visit off the plan, that has a record counting for it) whose state differs between the two is what
 * the question is about. Nothing is written here: the caller refuses the save with the question.
 */

/** A JSON value as read: PGlite answers it parsed, pg as text. */
const fromJson = <T>(value: T | string): T => (typeof value === "string" ? JSON.parse(value) : value);

/** The 409's detail: how to answer the question. The editor's Save anyway sends the flag. */
export const confirmWindowChangesDetail =
  "Send confirmWindowChanges: true to save the studyplan all the same";

/**
 * What a recorded visit is, apart from the day it is looked at: the engine's stored kind (done, out
 * of window, missed, booked, open, not applicable, unscheduled), a booking outside its window told
 * apart, and a visit the plan does not hold as such. The day's upcoming/due/overdue of an open visit
 * is not a verdict on what was recorded, and changes by itself from day to day.
 */
type Verdict =
  | "out-of-window"
  | "missed"
  | "booked-outside"
  | "done"
  | "booked"
  | "no-longer-missed"
  | "open"
  | "not-applicable"
  | "unscheduled"
  | "off-plan";

function verdictOf(row: ScheduledVisit): Verdict {
  if (row.sequence === null) return "off-plan";
  if (row.kind === "booked") return row.bookedOutsideWindow ? "booked-outside" : "booked";
  return row.kind;
}

/** How the question says what the visits become, in this order ("3 become out of window"). */
const becomes: Record<Verdict, (n: number) => string> = {
  "out-of-window": (n) => `${n} ${n === 1 ? "becomes" : "become"} out of window`,
  missed: (n) => `${n} ${n === 1 ? "becomes" : "become"} missed`,
  "booked-outside": (n) => `${n} ${n === 1 ? "becomes" : "become"} booked outside the window`,
  done: (n) => `${n} ${n === 1 ? "becomes" : "become"} in window`,
  booked: (n) => `${n} ${n === 1 ? "becomes" : "become"} booked in window`,
  "no-longer-missed": (n) => `${n} ${n === 1 ? "is" : "are"} no longer missed`,
  open: (n) => `${n} ${n === 1 ? "becomes" : "become"} open`,
  "not-applicable": (n) => `${n} ${n === 1 ? "becomes" : "become"} not applicable`,
  unscheduled: (n) => `${n} ${n === 1 ? "becomes" : "become"} unscheduled`,
  "off-plan": (n) => `${n} ${n === 1 ? "leaves" : "leave"} the plan`,
};

/** What a plan change does to the recorded visits of a study. */
export type WindowChanges = {
  /** Recorded visits whose window moves (start or end), or whose state changes. */
  affected: number;
  /** Of those, the ones whose window moves. */
  moved: number;
  /** Recorded visits whose state changes, by what they become. */
  changed: Map<Verdict, number>;
};

type Recorded = RecordedVisit & { id: number; patientId: number };

/**
 * The engine's rows of each assignment under the plan before and after, compared for the visits that
 * have a counting record (the same records under both plans).
 */
export function windowChanges(
  assignments: readonly (Assignment & { patientId: number })[],
  recorded: readonly Recorded[],
  before: Plan | null,
  after: Plan,
): WindowChanges {
  const byPatient = new Map<number, Recorded[]>();
  for (const visit of recorded)
    byPatient.set(visit.patientId, [...(byPatient.get(visit.patientId) ?? []), visit]);
  const result: WindowChanges = { affected: 0, moved: 0, changed: new Map() };
  for (const assignment of assignments) {
    const visits = byPatient.get(assignment.patientId);
    if (!visits) continue;
    const was = new Map(scheduleVisits(before, assignment, visits).map((row) => [row.visitId, row]));
    for (const now of scheduleVisits(after, assignment, visits)) {
      const old = was.get(now.visitId);
      // Every recorded visit has a row under both plans (off the plan, it is listed after the plan's).
      if (!old || now.record === undefined) continue;
      const moved = old.windowStart !== now.windowStart || old.windowEnd !== now.windowEnd;
      const from = verdictOf(old);
      const to = verdictOf(now);
      if (moved) result.moved++;
      if (moved || from !== to) result.affected++;
      if (from === to) continue;
      const said: Verdict = from === "missed" && to === "open" ? "no-longer-missed" : to;
      result.changed.set(said, (result.changed.get(said) ?? 0) + 1);
    }
  }
  return result;
}

/**
 * "This change moves the windows of 12 recorded visits (3 become out of window). Save anyway?"; when
 * some of them keep their window (a later visit leaves the plan, so an earlier one is no longer
 * missed), "This change affects …".
 */
export function windowChangesQuestion({ affected, moved, changed }: WindowChanges): string {
  const visits = `${affected} recorded ${affected === 1 ? "visit" : "visits"}`;
  const lead = moved === affected ? `moves the windows of ${visits}` : `affects ${visits}`;
  const parts = (Object.keys(becomes) as Verdict[])
    .filter((verdict) => changed.has(verdict))
    .map((verdict) => becomes[verdict](changed.get(verdict) as number));
  return `This change ${lead} (${parts.join(", ")}). Save anyway?`;
}

/**
 * Refuses the save with the question (409) when the plan as sent changes the state of a recorded
 * visit of the study; otherwise answers and the save goes on. The study's assignments are locked
 * first (FOR UPDATE, in id order, as the rebuild that follows locks them), so no visit is recorded
 * between this count and the save's own rebuild (a patient visit's save locks its assignments first);
 * the plan and the recorded visits are read after the locks. Reads only: nothing is written.
 */
export async function askAboutRecordedVisits(
  tx: Tx,
  studyId: number,
  input: Pick<StudyplanInput, "calculationMode" | "schedule">,
): Promise<void> {
  const assignments = await queryRows<Assignment & { id: number; patientId: number }>(
    tx,
    sql`select sp.id, sp.patient_id as "patientId", sp.active, sp.start_date::text as "startDate",
        sp.close_date::text as "closeDate"
      from study_patients sp where sp.study_id = ${studyId} order by sp.id for update of sp`,
  );
  if (assignments.length === 0) return;
  const [read] = await queryRows<{ recorded: Recorded[] | string; unscheduled: number[] | string }>(
    tx,
    sql`select
        (select coalesce(json_agg(json_build_object('id', pv.id, 'patientId', pv.patient_id,
            'visitId', pv.visit_id, 'visitDate', pv.visit_date::text, 'visitStatus', pv.visit_status)), '[]')
          from patient_visits pv where pv.study_id = ${studyId}) as recorded,
        (select coalesce(json_agg(v.id), '[]') from visits v
          where v.study_id = ${studyId} and v.visit_type_id = 100) as unscheduled`,
  );
  const recorded = fromJson(read.recorded);
  if (recorded.length === 0) return;
  const before = (await plansOf(tx, [studyId])).get(studyId) ?? null;
  const after: Plan = {
    calculationMode: (input.calculationMode ?? defaultCalculationMode) as CalculationMode,
    schedule: input.schedule,
    unscheduledVisitIds: fromJson(read.unscheduled),
  };
  const changes = windowChanges(assignments, recorded, before, after);
  if (changes.changed.size === 0) return;
  throw new AppError(409, windowChangesQuestion(changes), [], confirmWindowChangesDetail);
}
