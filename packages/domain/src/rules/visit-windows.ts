import type { CalculationMode, VisitStatus } from "../constants";
import type { ScheduleEntry } from "../resources/studyplans";
import { addDays, dayNumberOf, isoOfDayNumber } from "./dates";
import { scheduleFromPlan } from "./studyplans";

/**
 * THE visit-window engine: from a studyplan, one study assignment and the patient's recorded visits
 * of that study, when each plan visit is expected, its window, and its state on a given day. The
 * worklist, the visit summary grid and the patient-visit form all read what this computes (the
 * server stores its dates on every write), so they never disagree.
 *
 * Dates are ISO yyyy-MM-dd strings; windows are inclusive at both ends.
 */

export const visitStates = [
  { value: "done", label: "Done" },
  { value: "out-of-window", label: "Out of window" },
  { value: "booked", label: "Booked" },
  { value: "due", label: "Due" },
  { value: "overdue", label: "Overdue" },
  { value: "upcoming", label: "Upcoming" },
  { value: "not-applicable", label: "Not applicable" },
  { value: "unscheduled", label: "Unscheduled" },
  { value: "missed", label: "Missed" },
] as const;
export type VisitState = (typeof visitStates)[number]["value"];
export const visitStateValues = visitStates.map((s) => s.value) as VisitState[];
export const visitStateLabel = (state: VisitState): string =>
  visitStates.find((s) => s.value === state)?.label ?? state;

/**
 * What a visit is apart from the day it is looked at: settled by its record and the assignment
 * ("open" visits become upcoming, due or overdue depending on the day). The server stores this.
 */
export const visitKinds = [
  "done",
  "out-of-window",
  "booked",
  "open",
  "not-applicable",
  "unscheduled",
  // Last, so the letters of the kinds before it in packed summary cells stay as they were.
  "missed",
] as const;
export type VisitKind = (typeof visitKinds)[number];

/**
 * The worklist's chips: the states a site can still act on, then "missed" and "deviations-open"
 * (visits missed or completed outside their window whose protocol deviation is still open), which
 * the default view leaves out: nothing can be done about them but the deviation's paperwork.
 */
export const worklistStates = [
  "overdue",
  "due",
  "booked",
  "upcoming",
  "unscheduled",
  "missed",
  "deviations-open",
] as const;
export type WorklistState = (typeof worklistStates)[number];
/** The chips of the worklist's default view (no chip chosen). */
export const defaultWorklistStates = [
  "overdue",
  "due",
  "booked",
  "upcoming",
  "unscheduled",
] as const satisfies readonly WorklistState[];
export const worklistStateLabel = (state: WorklistState): string =>
  state === "deviations-open" ? "Deviations open" : visitStateLabel(state);

/** What a screen says of a booking whose day has passed without an outcome. */
export const bookingPassedText = "Booked date passed: record the outcome";

/** How far ahead the worklist looks by default: visits whose window opens within 14 days. */
export const worklistHorizonDays = 14;

export type VisitWindow = {
  expectedDate: string | null;
  windowStart: string | null;
  windowEnd: string | null;
};

export type Plan = {
  calculationMode: CalculationMode;
  /** The study's visits of type Unscheduled (100): recorded whenever needed, never missed. */
  unscheduledVisitIds?: readonly number[];
  schedule: readonly Pick<
    ScheduleEntry,
    "fromVisitId" | "toVisitId" | "daysFromStart" | "allowedDaysBefore" | "allowedDaysAfter" | "sequence"
  >[];
};

export type Assignment = { startDate: string | null; active: boolean; closeDate: string | null };

/** A patient-visit record; a plan visit may have several (a no-show, then the visit itself). */
export type RecordedVisit = {
  id?: number;
  visitId: number;
  visitDate: string | null;
  visitStatus: VisitStatus;
};

export type ScheduledVisit = VisitWindow & {
  visitId: number;
  /** The visit's position in the plan from 1; null for a recorded visit the plan does not hold. */
  sequence: number | null;
  kind: VisitKind;
  /** A booking whose date lies outside the window. */
  bookedOutsideWindow: boolean;
  /** The record that counts for the visit (countingRecords), if it has any. */
  record: RecordedVisit | undefined;
};

/**
 * A visit's window around its expected date: the allowances of the schedule entry that places it
 * (none for the plan's first visit, whose window is day 0 itself).
 */
export function windowAround(
  expectedDate: string | null | undefined,
  placing: { allowedDaysBefore: number | null; allowedDaysAfter: number | null } | undefined,
): Pick<VisitWindow, "windowStart" | "windowEnd"> {
  if (!expectedDate) return { windowStart: null, windowEnd: null };
  return {
    windowStart: addDays(expectedDate, -(placing?.allowedDaysBefore ?? 0)),
    windowEnd: addDays(expectedDate, placing?.allowedDaysAfter ?? 0),
  };
}

/** A record tells that the visit took place: completed, or the patient has arrived. */
export const tookPlace = (visit: RecordedVisit | undefined): boolean =>
  visit?.visitStatus === "COMPLETED" || visit?.visitStatus === "ARRIVED";

/** A visit anchors later dates only once it took place. */
const anchors = (visit: RecordedVisit | undefined): string | null =>
  visit && tookPlace(visit) ? visit.visitDate : null;

const isBooking = (visit: RecordedVisit | undefined) =>
  !!visit?.visitDate && (visit.visitStatus === "BOOKED" || visit.visitStatus === "ARRIVED");

/** How much a record's status counts: what took place, then a booking, then a no-show or cancellation. */
const weight = (visit: RecordedVisit) => (tookPlace(visit) ? 2 : visit.visitStatus === "BOOKED" ? 1 : 0);
/** Later: the later date (a dated record after an undated one), then the later record. */
const later = (a: RecordedVisit, b: RecordedVisit) =>
  (a.visitDate ?? "") > (b.visitDate ?? "") ||
  ((a.visitDate ?? "") === (b.visitDate ?? "") && (a.id ?? 0) > (b.id ?? 0));

/**
 * The record that counts for each visit: the latest COMPLETED or ARRIVED one, else the latest BOOKED
 * one, else the latest NO_SHOW or CANCELLED one (issue 43). The others stay as what happened.
 */
export function countingRecords<R extends RecordedVisit>(recorded: readonly R[]): Map<number, R> {
  const byVisit = new Map<number, R>();
  for (const visit of recorded) {
    const current = byVisit.get(visit.visitId);
    if (
      !current ||
      weight(visit) > weight(current) ||
      (weight(visit) === weight(current) && later(visit, current))
    )
      byVisit.set(visit.visitId, visit);
  }
  return byVisit;
}

/** True when the date lies outside the (inclusive) window; false without a date or a window. */
export function isOutsideWindow(
  date: string | null | undefined,
  window: Pick<VisitWindow, "windowStart" | "windowEnd">,
): boolean {
  if (!date || !window.windowStart || !window.windowEnd) return false;
  return date < window.windowStart || date > window.windowEnd;
}

/** Days a date lies outside a window: negative before its start, positive after its end, 0 inside. */
export function daysOutside(date: string, window: Pick<VisitWindow, "windowStart" | "windowEnd">): number {
  if (window.windowStart && date < window.windowStart)
    return dayNumberOf(date) - dayNumberOf(window.windowStart);
  if (window.windowEnd && date > window.windowEnd) return dayNumberOf(date) - dayNumberOf(window.windowEnd);
  return 0;
}

/** "+2 days", "−1 day": how the screens write days outside a window. */
export function daysOutsideText(days: number | null | undefined): string {
  if (days === null || days === undefined) return "";
  const sign = days > 0 ? "+" : days < 0 ? "−" : "";
  const n = Math.abs(days);
  return `${sign}${n} ${n === 1 ? "day" : "days"}`;
}

/**
 * Whether a visit date deserves the form's "Outside the planned window" note: outside the window, and
 * not the plan's first visit (its date becomes day 0, so it can never be out of its own window).
 */
export function outsidePlannedWindow(
  date: string | null | undefined,
  visit: { windowStart?: string | null; windowEnd?: string | null; sequence?: number | null },
): boolean {
  const window = { windowStart: visit.windowStart ?? null, windowEnd: visit.windowEnd ?? null };
  return visit.sequence !== 1 && isOutsideWindow(date, window);
}

/**
 * A visit's entry in the schedule: its window and what its records and the assignment make of it.
 * Written out whole, one shape for every visit (the engine runs for every window of every save).
 * `settledAfter` is the day after which the visit can no longer take place: the date of a later plan
 * visit that took place, or the close date of a closed assignment (null: neither).
 */
function scheduled(
  visitId: number,
  sequence: number | null,
  expectedDate: string | null,
  windowStart: string | null,
  windowEnd: string | null,
  visit: RecordedVisit | undefined,
  completed: boolean,
  mayBeMissed: boolean,
  settledAfter: string | null,
  assignment: Assignment,
): ScheduledVisit {
  const window = { windowStart, windowEnd };
  let kind: VisitKind = "open";
  let bookedOutsideWindow = false;
  if (visit?.visitStatus === "COMPLETED")
    kind = isOutsideWindow(visit.visitDate, window) ? "out-of-window" : "done";
  // Missed: settled by records, not by the day (a later visit took place, or the assignment was
  // closed, after the window had ended), so it is stored like done.
  else if (
    mayBeMissed &&
    !completed &&
    windowEnd !== null &&
    settledAfter !== null &&
    settledAfter > windowEnd
  )
    kind = "missed";
  // A closed assignment owes no further visit.
  else if (!assignment.active) kind = "not-applicable";
  else if (isBooking(visit)) {
    kind = "booked";
    bookedOutsideWindow = isOutsideWindow(visit?.visitDate, window);
  } else if (!windowStart) kind = "unscheduled";
  return {
    visitId,
    sequence,
    expectedDate,
    windowStart,
    windowEnd,
    kind,
    bookedOutsideWindow,
    record: visit,
  };
}

/** A date as a day number, or null (day numbers are the engine's arithmetic; see dates.ts). */
const dayOf = (iso: string | null | undefined) => (iso ? dayNumberOf(iso) : null);
const isoOf = (day: number | null) => (day === null ? null : isoOfDayNumber(day));

/**
 * Every plan visit of one assignment, in plan order, then the recorded visits the plan does not hold.
 * A visit with several records is judged by the one that counts (countingRecords).
 *
 * Day 0 is the recorded date of the plan's first visit (once it took place), else the assignment's
 * start date; with neither, plan visits are unscheduled. The schedule entry of visit k places visit
 * k+1: "default" at day 0 + its days, "previous" at visit k's date (recorded, else expected) + its
 * days; the window is expected − before … expected + after. The first visit's window is day 0 itself.
 * A plan visit not completed is missed once its window has ended before a later plan visit took place
 * or before the assignment was closed; Unscheduled visits never are.
 */
export function scheduleVisits(
  plan: Plan | null,
  assignment: Assignment,
  recorded: readonly RecordedVisit[],
): ScheduledVisit[] {
  const byVisit = countingRecords(recorded);
  const completed = new Set<number>();
  for (const visit of recorded) if (visit.visitStatus === "COMPLETED") completed.add(visit.visitId);
  const planVisits = plan ? scheduleFromPlan(plan.schedule as ScheduleEntry[]) : [];
  const entryFrom = new Map<number, Plan["schedule"][number]>();
  for (const entry of plan?.schedule ?? []) entryFrom.set(entry.fromVisitId, entry);
  const neverMissed = new Set(plan?.unscheduledVisitIds ?? []);
  const fromPrevious = plan?.calculationMode === "previous";
  // For each plan visit, the latest date on which a later plan visit took place.
  const laterTookPlace: (string | null)[] = new Array(planVisits.length).fill(null);
  let latest: string | null = null;
  for (let index = planVisits.length - 1; index >= 0; index--) {
    laterTookPlace[index] = latest;
    const date = anchors(byVisit.get(planVisits[index] as number));
    if (date !== null && (latest === null || date > latest)) latest = date;
  }
  const closedOn = assignment.active ? null : assignment.closeDate;
  const out: ScheduledVisit[] = [];
  const first = planVisits[0];
  const day0 = first === undefined ? null : dayOf(anchors(byVisit.get(first)) ?? assignment.startDate);
  let previousVisitId = 0;
  let previousExpected: number | null = null;
  for (let index = 0; index < planVisits.length; index++) {
    const visitId = planVisits[index] as number;
    let expected: number | null = null;
    let start: number | null = null;
    let end: number | null = null;
    if (day0 !== null && index === 0) {
      expected = start = end = day0;
    } else if (day0 !== null) {
      const entry = entryFrom.get(previousVisitId);
      const base: number | null = fromPrevious
        ? (dayOf(anchors(byVisit.get(previousVisitId))) ?? previousExpected)
        : day0;
      if (base !== null) {
        const placed: number = base + (entry?.daysFromStart ?? 0);
        expected = placed;
        start = placed - (entry?.allowedDaysBefore ?? 0);
        end = placed + (entry?.allowedDaysAfter ?? 0);
      }
    }
    const laterDate = laterTookPlace[index] ?? null;
    const settledAfter =
      laterDate !== null && closedOn !== null
        ? laterDate > closedOn
          ? laterDate
          : closedOn
        : (laterDate ?? closedOn);
    out.push(
      scheduled(
        visitId,
        index + 1,
        isoOf(expected),
        isoOf(start),
        isoOf(end),
        byVisit.get(visitId),
        completed.has(visitId),
        !neverMissed.has(visitId),
        settledAfter,
        assignment,
      ),
    );
    previousVisitId = visitId;
    previousExpected = expected;
  }
  const inPlan = new Set(planVisits);
  for (const visit of [...byVisit.values()].sort((a, b) => a.visitId - b.visitId)) {
    if (inPlan.has(visit.visitId)) continue;
    out.push(scheduled(visit.visitId, null, null, null, null, visit, false, false, null, assignment));
  }
  return out;
}

/**
 * A booking (or an arrival) whose day has passed without an outcome: it counts as not done, and the
 * screens ask for the outcome.
 */
export function bookingPassed(
  visit: { kind: VisitKind; visitDate?: string | null; record?: RecordedVisit | undefined },
  asOf: string,
): boolean {
  const date = visit.visitDate ?? visit.record?.visitDate ?? null;
  return visit.kind === "booked" && date !== null && date < asOf;
}

/**
 * The state of a visit on a given day (asOf). Only "open" visits, and bookings whose day has passed
 * (bookingPassed), depend on the day: before the window upcoming, inside it due, after it overdue. The
 * server's SQL (visitStateSql) says the same; a property test holds the two together.
 */
export function stateAsOf(
  visit: Pick<ScheduledVisit, "kind" | "windowStart" | "windowEnd"> & {
    visitDate?: string | null;
    record?: RecordedVisit | undefined;
  },
  asOf: string,
): VisitState {
  if (visit.kind !== "open" && !(bookingPassed(visit, asOf) && visit.windowStart !== null)) return visit.kind;
  if (visit.windowStart !== null && asOf < visit.windowStart) return "upcoming";
  if (visit.windowEnd !== null && asOf > visit.windowEnd) return "overdue";
  return "due";
}

/** The deviations the engine derives from a schedule, one per visit and kind at most (issue 43). */
export type DerivedDeviation = {
  visitId: number;
  kind: "OUT_OF_WINDOW" | "MISSED_VISIT";
  /** For OUT_OF_WINDOW: negative before the window's start, positive after its end. */
  daysOutside: number | null;
  /** The record it is about: the completed visit, or the no-show or cancellation of a missed one. */
  patientVisitId: number | null;
  windowStart: string | null;
  windowEnd: string | null;
};

/** What derivedDeviations reads of a visit: the engine's answer, or a stored row of it. */
type DeviationCause = {
  visitId: number;
  kind: string;
  windowStart?: string | null;
  windowEnd?: string | null;
  /** The counting record's date and id, flat as stored, or as its `record`. */
  visitDate?: string | null;
  patientVisitId?: number | null;
  record?: RecordedVisit | undefined;
};

/** A visit completed outside its window, or missed, deviates from the protocol by itself. */
export function derivedDeviations(schedule: readonly DeviationCause[]): DerivedDeviation[] {
  const out: DerivedDeviation[] = [];
  for (const visit of schedule) {
    if (visit.kind !== "out-of-window" && visit.kind !== "missed") continue;
    const date = visit.visitDate ?? visit.record?.visitDate ?? null;
    const common = {
      visitId: visit.visitId,
      patientVisitId: visit.patientVisitId ?? visit.record?.id ?? null,
      windowStart: visit.windowStart ?? null,
      windowEnd: visit.windowEnd ?? null,
    };
    if (visit.kind === "missed") out.push({ ...common, kind: "MISSED_VISIT", daysOutside: null });
    else if (date) out.push({ ...common, kind: "OUT_OF_WINDOW", daysOutside: daysOutside(date, common) });
  }
  return out;
}

const monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** "12 Mar 2026" */
export function shortDate(iso: string): string {
  const [year, month, day] = iso.split("-");
  return `${Number(day)} ${monthNames[Number(month) - 1]} ${year}`;
}

/** A window as the worklist shows it: "12 Mar – 16 Mar 2026" (years on both ends when they differ). */
export function windowText(window: Pick<VisitWindow, "windowStart" | "windowEnd">): string {
  const { windowStart: start, windowEnd: end } = window;
  if (!start || !end) return "";
  if (start === end) return shortDate(start);
  const startText = start.slice(0, 4) === end.slice(0, 4) ? shortDate(start).slice(0, -5) : shortDate(start);
  return `${startText} – ${shortDate(end)}`;
}

/** What a plan visit's column header says of its timing: "Day 0", "Day 14 ±2", "Day 28 −1/+3"; "+14 days …" from the previous visit. */
export function visitDayText(column: {
  sequence: number | null;
  daysFromStart: number | null;
  allowedDaysBefore: number | null;
  allowedDaysAfter: number | null;
  calculationMode: CalculationMode | null;
}): string {
  if (column.sequence === null) return "";
  if (column.sequence === 1 || column.daysFromStart === null) return "Day 0";
  const before = column.allowedDaysBefore ?? 0;
  const after = column.allowedDaysAfter ?? 0;
  const window =
    before === 0 && after === 0 ? "" : before === after ? ` ±${before}` : ` −${before}/+${after}`;
  return column.calculationMode === "previous"
    ? `+${column.daysFromStart} days${window}`
    : `Day ${column.daysFromStart}${window}`;
}

/**
 * The per-column timing of a plan: for each plan visit, the days and window of the entry that
 * places it (the previous visit's entry), null for the first.
 */
export function planColumns(plan: Plan): Map<
  number,
  {
    sequence: number;
    daysFromStart: number | null;
    allowedDaysBefore: number | null;
    allowedDaysAfter: number | null;
  }
> {
  const visits = scheduleFromPlan(plan.schedule as ScheduleEntry[]);
  const entryFrom = new Map(plan.schedule.map((entry) => [entry.fromVisitId, entry]));
  return new Map(
    visits.map((visitId, index) => {
      const placing = index === 0 ? undefined : entryFrom.get(visits[index - 1] as number);
      return [
        visitId,
        {
          sequence: index + 1,
          daysFromStart: placing?.daysFromStart ?? null,
          allowedDaysBefore: placing?.allowedDaysBefore ?? null,
          allowedDaysAfter: placing?.allowedDaysAfter ?? null,
        },
      ];
    }),
  );
}

/**
 * True when a "From the first visit" plan's days go down from one visit to a later one — almost
 * always a plan typed as intervals; the editor warns but does not block.
 */
export function decreasingDays(plan: Plan): boolean {
  if (plan.calculationMode !== "default") return false;
  const ordered = [...plan.schedule]
    .filter((e) => e.toVisitId !== null)
    .sort((a, b) => a.sequence - b.sequence);
  return ordered.some(
    (entry, index) => index > 0 && entry.daysFromStart < (ordered[index - 1]?.daysFromStart ?? 0),
  );
}
