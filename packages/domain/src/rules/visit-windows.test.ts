import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { VisitStatus } from "../constants";
import { addDays } from "./dates";
import {
  type Assignment,
  bookingPassed,
  countingRecords,
  daysOutsideText,
  decreasingDays,
  derivedDeviations,
  isOutsideWindow,
  outsidePlannedWindow,
  type Plan,
  planColumns,
  type RecordedVisit,
  scheduleVisits,
  stateAsOf,
  visitDayText,
  windowAround,
  windowText,
} from "./visit-windows";

/** A plan over visits 1..n: entry k (from visit k) carries [days, before, after] placing visit k+1. */
function plan(mode: Plan["calculationMode"], steps: [number, number, number][]): Plan {
  const ids = [...steps.map((_, i) => i + 1), steps.length + 1];
  return {
    calculationMode: mode,
    schedule: ids.map((fromVisitId, index) => ({
      fromVisitId,
      toVisitId: ids[index + 1] ?? null,
      daysFromStart: steps[index]?.[0] ?? 0,
      allowedDaysBefore: steps[index]?.[1] ?? 0,
      allowedDaysAfter: steps[index]?.[2] ?? 0,
      sequence: index + 1,
    })),
  };
}

const active: Assignment = { startDate: "2026-03-01", active: true, closeDate: null };
const visit = (visitId: number, visitDate: string | null, visitStatus: VisitStatus): RecordedVisit => ({
  visitId,
  visitDate,
  visitStatus,
});

/** Generators of the property tests: a calculation mode, a plan's steps, recorded visits of ids 1..9. */
const anyMode = fc.constantFrom<Plan["calculationMode"]>("default", "previous");
const anySteps = (maxDays: number) =>
  fc.array(fc.tuple(fc.nat(maxDays), fc.nat(10), fc.nat(10)), { maxLength: 8 });
const anyVisits = (minOffset: number, maxOffset: number) =>
  fc.array(
    fc.tuple(
      fc.integer({ min: 1, max: 9 }),
      fc.integer({ min: minOffset, max: maxOffset }),
      fc.constantFrom<VisitStatus>("BOOKED", "CANCELLED", "NO_SHOW", "ARRIVED", "COMPLETED"),
    ),
    { maxLength: 9 },
  );
/** The generated visits as recorded, days counted from `from`, one per visit id (the last wins). */
const recordedFrom = (from: string, visits: [number, number, VisitStatus][]) => [
  ...new Map(visits.map(([id, offset, s]) => [id, visit(id, addDays(from, offset), s)])).values(),
];

describe("visit windows", () => {
  it("places default-mode visits from day 0, the start date while the first visit has not taken place", () => {
    const rows = scheduleVisits(
      plan("default", [
        [14, 2, 2],
        [28, 3, 5],
      ]),
      active,
      [],
    );
    expect(
      rows.map(({ visitId, expectedDate, windowStart, windowEnd }) => [
        visitId,
        expectedDate,
        windowStart,
        windowEnd,
      ]),
    ).toEqual([
      [1, "2026-03-01", "2026-03-01", "2026-03-01"],
      [2, "2026-03-15", "2026-03-13", "2026-03-17"],
      [3, "2026-03-29", "2026-03-26", "2026-04-03"],
    ]);
  });

  it("takes day 0 from the first visit once it took place", () => {
    const rows = scheduleVisits(plan("default", [[14, 2, 2]]), active, [visit(1, "2026-03-05", "COMPLETED")]);
    expect(rows[0]).toMatchObject({ expectedDate: "2026-03-05", kind: "done" });
    expect(rows[1]).toMatchObject({ expectedDate: "2026-03-19", windowStart: "2026-03-17" });
  });

  it("places previous-mode visits from the previous visit's recorded date, else its expected date", () => {
    const p = plan("previous", [
      [7, 1, 1],
      [7, 1, 1],
    ]);
    expect(scheduleVisits(p, active, []).map((r) => r.expectedDate)).toEqual([
      "2026-03-01",
      "2026-03-08",
      "2026-03-15",
    ]);
    const late = scheduleVisits(p, active, [visit(2, "2026-03-11", "COMPLETED")]);
    expect(late.map((r) => r.expectedDate)).toEqual(["2026-03-01", "2026-03-08", "2026-03-18"]);
    expect(late[1]?.kind).toBe("out-of-window");
  });

  it("leaves every visit unscheduled without a start date or a first visit", () => {
    const rows = scheduleVisits(plan("default", [[14, 2, 2]]), { ...active, startDate: null }, []);
    expect(rows.map((r) => [r.kind, r.expectedDate])).toEqual([
      ["unscheduled", null],
      ["unscheduled", null],
    ]);
  });

  it("tells the states on a day, with inclusive window boundaries", () => {
    const [, second] = scheduleVisits(plan("default", [[14, 2, 2]]), active, []);
    if (!second) throw new Error("no second visit");
    expect(stateAsOf(second, "2026-03-12")).toBe("upcoming");
    expect(stateAsOf(second, "2026-03-13")).toBe("due");
    expect(stateAsOf(second, "2026-03-17")).toBe("due");
    expect(stateAsOf(second, "2026-03-18")).toBe("overdue");
  });

  it("counts cancelled and no-show visits as not completed, and bookings as booked", () => {
    const p = plan("default", [
      [14, 2, 2],
      [28, 2, 2],
    ]);
    const rows = scheduleVisits(p, active, [
      visit(1, "2026-03-01", "NO_SHOW"),
      visit(2, "2026-03-20", "BOOKED"),
      visit(3, "2026-03-29", "CANCELLED"),
    ]);
    expect(rows.map((r) => [r.kind, r.bookedOutsideWindow])).toEqual([
      ["open", false],
      ["booked", true],
      ["open", false],
    ]);
    expect(stateAsOf(rows[0] as (typeof rows)[0], "2026-03-02")).toBe("overdue");
  });

  it("owes nothing more on a closed assignment but keeps what was completed", () => {
    const closed = { startDate: "2026-03-01", active: false, closeDate: "2026-03-10" };
    const rows = scheduleVisits(plan("default", [[14, 2, 2]]), closed, [visit(1, "2026-03-01", "COMPLETED")]);
    expect(rows.map((r) => r.kind)).toEqual(["done", "not-applicable"]);
  });

  it("lists recorded visits the plan does not hold after the plan's visits", () => {
    const rows = scheduleVisits(plan("default", [[14, 2, 2]]), active, [visit(9, "2026-03-03", "COMPLETED")]);
    expect(rows.at(-1)).toMatchObject({ visitId: 9, sequence: null, kind: "done", windowStart: null });
  });

  it("property: every window holds its expected date, and a completed visit is done exactly inside it", () => {
    fc.assert(
      fc.property(
        anyMode,
        anySteps(120),
        anyVisits(-30, 400),
        fc.boolean(),
        (mode, steps, visits, isActive) => {
          const recorded = recordedFrom("2026-03-01", visits);
          const rows = scheduleVisits(plan(mode, steps), { ...active, active: isActive }, recorded);
          for (const row of rows) {
            if (row.expectedDate === null) continue;
            expect(row.windowStart && row.windowStart <= row.expectedDate).toBe(true);
            expect(row.windowEnd && row.windowEnd >= row.expectedDate).toBe(true);
            const record = recorded.find((r) => r.visitId === row.visitId);
            if (record?.visitStatus === "COMPLETED") {
              expect(row.kind).toBe(isOutsideWindow(record.visitDate, row) ? "out-of-window" : "done");
            } else if (!isActive && row.kind !== "missed") {
              expect(row.kind).toBe("not-applicable");
            }
          }
          expect(rows.filter((r) => r.sequence !== null)).toHaveLength(steps.length + 1);
        },
      ),
    );
  });

  it("property: each expected date is day 0, or its base (day 0, or the previous visit's date) plus the entry's days", () => {
    fc.assert(
      fc.property(
        anyMode,
        anySteps(400),
        anyVisits(-400, 4000),
        fc.option(fc.integer({ min: -4000, max: 4000 })),
        (mode, steps, visits, start) => {
          const recorded = recordedFrom("2024-02-27", visits);
          const startDate = start === null ? null : addDays("2024-02-27", start);
          const rows = scheduleVisits(plan(mode, steps), { ...active, startDate }, recorded);
          // A visit's date counts once it took place (completed, or the patient arrived).
          const tookPlace = (id: number) =>
            recorded.find(
              (r) => r.visitId === id && (r.visitStatus === "COMPLETED" || r.visitStatus === "ARRIVED"),
            )?.visitDate ?? null;
          const day0 = tookPlace(1) ?? startDate;
          for (const [index, row] of rows.filter((r) => r.sequence !== null).entries()) {
            const base =
              index === 0 || mode === "default" ? day0 : (tookPlace(index) ?? rows[index - 1]?.expectedDate);
            const step = steps[index - 1] ?? [0, 0, 0];
            // Without a day 0 no plan visit is placed, not even after one that took place.
            const expected =
              base == null || day0 === null ? null : index === 0 ? base : addDays(base, step[0]);
            expect(row.expectedDate).toBe(expected);
            expect(row.windowStart).toBe(expected && addDays(expected, -step[1]));
            expect(row.windowEnd).toBe(expected && addDays(expected, step[2]));
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it("property: an open visit is upcoming, due or overdue by where the day falls against its window", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 60 }),
        fc.nat(10),
        fc.nat(10),
        fc.integer({ min: -100, max: 200 }),
        (days, before, after, offset) => {
          const [, row] = scheduleVisits(plan("default", [[days, before, after]]), active, []);
          if (!row?.windowStart || !row.windowEnd) throw new Error("no window");
          const asOf = addDays("2026-03-01", offset);
          const expected = asOf < row.windowStart ? "upcoming" : asOf > row.windowEnd ? "overdue" : "due";
          expect(stateAsOf(row, asOf)).toBe(expected);
        },
      ),
    );
  });
});

describe("the whole life of a visit (issue 43)", () => {
  const two = plan("default", [
    [14, 2, 2],
    [28, 2, 2],
  ]);
  const record = (id: number, visitId: number, visitDate: string | null, visitStatus: VisitStatus) => ({
    id,
    visitId,
    visitDate,
    visitStatus,
  });

  it("counts the latest record that took place, else the latest booking, else the latest no-show", () => {
    const records = [
      record(1, 2, "2026-03-15", "NO_SHOW"),
      record(2, 2, "2026-03-16", "BOOKED"),
      record(3, 2, "2026-03-14", "CANCELLED"),
    ];
    expect(countingRecords(records).get(2)?.id).toBe(2);
    expect(countingRecords([...records, record(4, 2, "2026-03-17", "COMPLETED")]).get(2)?.id).toBe(4);
    expect(countingRecords([records[0], records[2]] as typeof records).get(2)?.id).toBe(1);
    // Same date: the later record.
    expect(
      countingRecords([record(7, 2, "2026-03-15", "NO_SHOW"), record(5, 2, "2026-03-15", "NO_SHOW")]).get(2)
        ?.id,
    ).toBe(7);
  });

  it("keeps a rescheduled visit's no-show and judges the visit by the completed record", () => {
    const rows = scheduleVisits(two, active, [
      record(1, 1, "2026-03-01", "COMPLETED"),
      record(2, 2, "2026-03-14", "NO_SHOW"),
      record(3, 2, "2026-03-16", "COMPLETED"),
    ]);
    expect(rows[1]).toMatchObject({ kind: "done", record: { id: 3 } });
  });

  it("misses a visit once a later visit took place after its window ended", () => {
    const noShow = [record(1, 1, "2026-03-01", "COMPLETED"), record(2, 2, "2026-03-15", "NO_SHOW")];
    expect(scheduleVisits(two, active, noShow)[1]?.kind).toBe("open");
    expect(stateAsOf(scheduleVisits(two, active, noShow)[1] as never, "2026-03-20")).toBe("overdue");
    const later = [...noShow, record(3, 3, "2026-03-29", "COMPLETED")];
    expect(scheduleVisits(two, active, later)[1]?.kind).toBe("missed");
    // A later visit inside this visit's window does not settle it.
    const overlapping = [...noShow, record(3, 3, "2026-03-16", "ARRIVED")];
    expect(scheduleVisits(two, active, overlapping)[1]?.kind).toBe("open");
  });

  it("misses a visit when the assignment was closed after its window ended, else owes nothing", () => {
    const started = [record(1, 1, "2026-03-01", "COMPLETED")];
    const closedLate = { startDate: "2026-03-01", active: false, closeDate: "2026-03-20" };
    expect(scheduleVisits(two, closedLate, started).map((r) => r.kind)).toEqual([
      "done",
      "missed",
      "not-applicable",
    ]);
    const closedEarly = { ...closedLate, closeDate: "2026-03-10" };
    expect(scheduleVisits(two, closedEarly, started)[1]?.kind).toBe("not-applicable");
  });

  it("never misses an Unscheduled visit", () => {
    const withUnscheduled = { ...two, unscheduledVisitIds: [2] };
    const rows = scheduleVisits(withUnscheduled, active, [
      record(1, 1, "2026-03-01", "COMPLETED"),
      record(3, 3, "2026-03-29", "COMPLETED"),
    ]);
    expect(rows[1]?.kind).toBe("open");
  });

  it("counts a booking whose day has passed as not done, and says so", () => {
    const [, row] = scheduleVisits(two, active, [
      record(1, 1, "2026-03-01", "COMPLETED"),
      record(2, 2, "2026-03-14", "BOOKED"),
    ]);
    if (!row) throw new Error("no row");
    expect(row.kind).toBe("booked");
    expect(bookingPassed(row, "2026-03-14")).toBe(false);
    expect(stateAsOf(row, "2026-03-14")).toBe("booked");
    expect(bookingPassed(row, "2026-03-15")).toBe(true);
    expect(stateAsOf(row, "2026-03-15")).toBe("due");
    expect(stateAsOf(row, "2026-03-18")).toBe("overdue");
  });

  it("derives a deviation for a visit completed outside its window, with its days, and for a missed one", () => {
    const rows = scheduleVisits(two, active, [
      record(1, 1, "2026-03-01", "COMPLETED"),
      record(2, 2, "2026-03-19", "COMPLETED"),
      record(3, 2, "2026-03-10", "NO_SHOW"),
    ]);
    expect(derivedDeviations(rows)).toEqual([
      {
        visitId: 2,
        kind: "OUT_OF_WINDOW",
        daysOutside: 2,
        patientVisitId: 2,
        windowStart: "2026-03-13",
        windowEnd: "2026-03-17",
      },
    ]);
    const early = scheduleVisits(two, active, [
      record(1, 1, "2026-03-01", "COMPLETED"),
      record(2, 2, "2026-03-12", "COMPLETED"),
    ]);
    expect(derivedDeviations(early)[0]?.daysOutside).toBe(-1);
    const missed = scheduleVisits(two, active, [
      record(1, 1, "2026-03-01", "COMPLETED"),
      record(5, 3, "2026-03-29", "COMPLETED"),
    ]);
    expect(derivedDeviations(missed)).toMatchObject([
      { visitId: 2, kind: "MISSED_VISIT", daysOutside: null },
    ]);
    expect([daysOutsideText(2), daysOutsideText(-1), daysOutsideText(null)]).toEqual([
      "+2 days",
      "−1 day",
      "",
    ]);
  });

  it("property: a plan visit is missed exactly when it has no completed record, its window ended, and a later visit took place or the assignment closed after that", () => {
    fc.assert(
      fc.property(
        anyMode,
        anySteps(60),
        anyVisits(-10, 300),
        fc.option(fc.integer({ min: 0, max: 300 })),
        (mode, steps, visits, closeOffset) => {
          const recorded = visits.map(([id, offset, s], index) => ({
            ...visit(id, addDays("2026-03-01", offset), s),
            id: index + 1,
          }));
          const assignment: Assignment =
            closeOffset === null
              ? active
              : { ...active, active: false, closeDate: addDays("2026-03-01", closeOffset) };
          const rows = scheduleVisits(plan(mode, steps), assignment, recorded);
          const counting = countingRecords(recorded);
          const planRows = rows.filter((r) => r.sequence !== null);
          planRows.forEach((row, index) => {
            const completed = recorded.some(
              (r) => r.visitId === row.visitId && r.visitStatus === "COMPLETED",
            );
            const laterDates = planRows
              .slice(index + 1)
              .map((r) => counting.get(r.visitId))
              .filter((r) => r && (r.visitStatus === "COMPLETED" || r.visitStatus === "ARRIVED"))
              .map((r) => r?.visitDate as string);
            const settled =
              row.windowEnd !== null &&
              (laterDates.some((d) => d > (row.windowEnd as string)) ||
                (assignment.closeDate !== null && assignment.closeDate > row.windowEnd));
            expect(row.kind === "missed").toBe(!completed && settled);
          });
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("visit window texts", () => {
  it("writes a window as the worklist shows it", () => {
    expect(windowText({ windowStart: "2026-03-12", windowEnd: "2026-03-16" })).toBe("12 Mar – 16 Mar 2026");
    expect(windowText({ windowStart: "2026-12-30", windowEnd: "2027-01-03" })).toBe(
      "30 Dec 2026 – 3 Jan 2027",
    );
    expect(windowText({ windowStart: "2026-03-12", windowEnd: "2026-03-12" })).toBe("12 Mar 2026");
    expect(windowText({ windowStart: null, windowEnd: null })).toBe("");
  });

  it("writes a column's day and window", () => {
    const col = {
      sequence: 2,
      daysFromStart: 14,
      allowedDaysBefore: 2,
      allowedDaysAfter: 2,
      calculationMode: "default" as const,
    };
    expect(visitDayText(col)).toBe("Day 14 ±2");
    expect(visitDayText({ ...col, allowedDaysAfter: 3 })).toBe("Day 14 −2/+3");
    expect(visitDayText({ ...col, calculationMode: "previous" })).toBe("+14 days ±2");
    expect(visitDayText({ ...col, sequence: 1 })).toBe("Day 0");
    expect(visitDayText({ ...col, sequence: null })).toBe("");
  });

  it("warns when days go down along a from-the-first-visit plan only", () => {
    // A two-step plan whose days go from the first number to the second.
    const decreasing = (mode: Plan["calculationMode"], first: number, second: number) =>
      decreasingDays(
        plan(mode, [
          [first, 0, 0],
          [second, 0, 0],
        ]),
      );
    expect(decreasing("default", 14, 7)).toBe(true);
    expect(decreasing("default", 7, 14)).toBe(false);
    expect(decreasing("previous", 14, 7)).toBe(false);
  });
});

describe("the form's outside-window note", () => {
  it("speaks of a date outside the window, except for the plan's first visit, whose date is day 0", () => {
    const window = { windowStart: "2026-03-13", windowEnd: "2026-03-17" };
    expect(outsidePlannedWindow("2026-03-18", { ...window, sequence: 2 })).toBe(true);
    expect(outsidePlannedWindow("2026-03-17", { ...window, sequence: 2 })).toBe(false);
    expect(outsidePlannedWindow("2026-03-20", { ...window, sequence: 1 })).toBe(false);
    expect(outsidePlannedWindow(null, { ...window, sequence: 2 })).toBe(false);
    expect(outsidePlannedWindow("2026-03-20", { windowStart: null, windowEnd: null, sequence: null })).toBe(
      false,
    );
  });
});

describe("a summary cell's window", () => {
  it("property: the expected date widened by its column's allowances is the engine's window", () => {
    fc.assert(
      fc.property(
        fc.constantFrom<Plan["calculationMode"]>("default", "previous"),
        fc.array(fc.tuple(fc.nat(120), fc.nat(10), fc.nat(10)), { maxLength: 8 }),
        (mode, steps) => {
          const p = plan(mode, steps);
          const columns = planColumns(p);
          for (const row of scheduleVisits(p, active, [])) {
            expect(windowAround(row.expectedDate, columns.get(row.visitId))).toEqual({
              windowStart: row.windowStart,
              windowEnd: row.windowEnd,
            });
          }
        },
      ),
    );
  });
});
