import type { StudyplanStatus } from "../constants";
import type { PlanCounts, ScheduleEntry } from "../resources/studyplans";
import { sharesComplete, sharesTotal } from "./money";

/**
 * The schedule after any change in the editor (spec §4): one entry per used visit, in order. An
 * unchanged from/to pair keeps its id and day settings; a new pair starts at 0 days, 0 before,
 * 0 after. Sequence is the position from 1, and the last visit has no target.
 */
export function rebuildSchedule(
  usedVisitIds: readonly number[],
  previousSchedule: readonly ScheduleEntry[],
): ScheduleEntry[] {
  return usedVisitIds.map((fromVisitId, index) => {
    const toVisitId = usedVisitIds[index + 1] ?? null;
    const kept = previousSchedule.find((e) => e.fromVisitId === fromVisitId && e.toVisitId === toVisitId);
    // A share is the visit's, wherever it moves in the plan.
    const feeShare = previousSchedule.find((e) => e.fromVisitId === fromVisitId)?.feeShare;
    return {
      id: kept?.id ?? null,
      fromVisitId,
      toVisitId,
      daysFromStart: kept?.daysFromStart ?? 0,
      allowedDaysBefore: kept?.allowedDaysBefore ?? 0,
      allowedDaysAfter: kept?.allowedDaysAfter ?? 0,
      sequence: index + 1,
      ...(feeShare ? { feeShare } : {}),
    };
  });
}

/**
 * The used visits of a loaded plan, in order: the from-visits by sequence plus the last to-visit
 * (a plan whose last entry still names a target). Each visit once.
 */
export function scheduleFromPlan(schedule: readonly ScheduleEntry[]): number[] {
  const ordered = [...schedule].sort((a, b) => a.sequence - b.sequence);
  const ids = ordered.map((e) => e.fromVisitId);
  const last = ordered.at(-1);
  if (last?.toVisitId != null) ids.push(last.toVisitId);
  return [...new Set(ids)];
}

/** The visits of the study not in the plan, in the study's order: the "Available visits" pane. */
export function availableVisits<V extends { id: number }>(
  studyVisits: readonly V[],
  usedVisitIds: readonly number[],
): V[] {
  return studyVisits.filter((visit) => !usedVisitIds.includes(visit.id));
}

/**
 * Why a schedule sent to the server is not one rebuildSchedule could give, or null when it is:
 * each visit once, sequence 1..n, each entry leading to the next and the last to nothing.
 */
export function scheduleProblem(
  schedule: readonly Pick<ScheduleEntry, "fromVisitId" | "toVisitId" | "sequence">[],
): string | null {
  const ordered = [...schedule].sort((a, b) => a.sequence - b.sequence);
  const from = ordered.map((e) => e.fromVisitId);
  if (new Set(from).size !== from.length) return "A visit appears more than once in the studyplan";
  for (const [index, entry] of ordered.entries()) {
    if (entry.sequence !== index + 1) return "Studyplan sequence must run from 1 without gaps";
    if (entry.toVisitId !== (ordered[index + 1]?.fromVisitId ?? null))
      return "Each studyplan visit must lead to the next one, and the last to none";
  }
  return null;
}

/**
 * Fee shares (issue 45): none (each mandatory visit an equal part of the patient fee), or shares that
 * add up to 100 %.
 */
export function feeSharesProblem(schedule: readonly Pick<ScheduleEntry, "feeShare">[]): string | null {
  const shares = schedule.map((e) => e.feeShare).filter((share): share is string => Boolean(share));
  if (shares.length === 0 || sharesComplete(shares)) return null;
  return `The visits' fee shares must add up to 100 % (now ${sharesTotal(shares)} %)`;
}

/** The schedule row between two used visits: "N days (-before / +after)". */
export function scheduleRowText(
  entry: Pick<ScheduleEntry, "daysFromStart" | "allowedDaysBefore" | "allowedDaysAfter">,
) {
  return `${entry.daysFromStart} days (-${entry.allowedDaysBefore} / +${entry.allowedDaysAfter})`;
}

/**
 * The studyplans list's status badge (spec §4): Missing when there is no plan or it has no
 * (zero or null) mandatory visits; Incomplete when it has fewer mandatory visits than the study;
 * Complete when the counts are equal; Unknown otherwise.
 */
export function studyplanStatus(counts: Partial<PlanCounts>): StudyplanStatus {
  const { studyplanId, mandatoryStudyplanVisitCount: planned, mandatoryVisitCount: mandatory } = counts;
  if (studyplanId === null || studyplanId === undefined || !planned) return "Missing";
  if (typeof mandatory !== "number") return "Unknown";
  if (planned < mandatory) return "Incomplete";
  if (planned === mandatory) return "Complete";
  return "Unknown";
}
