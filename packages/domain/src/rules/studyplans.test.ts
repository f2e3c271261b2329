import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ScheduleEntry } from "../resources/studyplans";
import {
  availableVisits,
  rebuildSchedule,
  scheduleFromPlan,
  scheduleProblem,
  scheduleRowText,
  studyplanStatus,
} from "./studyplans";

const entry = (
  fromVisitId: number,
  toVisitId: number | null,
  days: number,
  sequence: number,
): ScheduleEntry => ({
  id: fromVisitId * 100,
  fromVisitId,
  toVisitId,
  daysFromStart: days,
  allowedDaysBefore: 1,
  allowedDaysAfter: 2,
  sequence,
});

describe("schedule rebuild", () => {
  const plan = [entry(1, 2, 7, 1), entry(2, 3, 14, 2), entry(3, null, 0, 3)];

  it("keeps settings of unchanged pairs and starts new pairs at zero", () => {
    // Visit 4 inserted between 2 and 3: 1→2 unchanged, 2→4 and 4→3 new, 3→null unchanged.
    const rebuilt = rebuildSchedule([1, 2, 4, 3], plan);
    expect(rebuilt).toEqual([
      {
        id: 100,
        fromVisitId: 1,
        toVisitId: 2,
        daysFromStart: 7,
        allowedDaysBefore: 1,
        allowedDaysAfter: 2,
        sequence: 1,
      },
      {
        id: null,
        fromVisitId: 2,
        toVisitId: 4,
        daysFromStart: 0,
        allowedDaysBefore: 0,
        allowedDaysAfter: 0,
        sequence: 2,
      },
      {
        id: null,
        fromVisitId: 4,
        toVisitId: 3,
        daysFromStart: 0,
        allowedDaysBefore: 0,
        allowedDaysAfter: 0,
        sequence: 3,
      },
      {
        id: 300,
        fromVisitId: 3,
        toVisitId: null,
        daysFromStart: 0,
        allowedDaysBefore: 1,
        allowedDaysAfter: 2,
        sequence: 4,
      },
    ]);
  });

  it("gives nothing for no visits and a single entry without target for one", () => {
    expect(rebuildSchedule([], plan)).toEqual([]);
    expect(rebuildSchedule([2], plan)).toMatchObject([{ fromVisitId: 2, toVisitId: null, sequence: 1 }]);
  });

  it("always gives a consistent schedule that reads back as the same visits", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 1, max: 50 }), { maxLength: 15 }),
        fc.uniqueArray(fc.integer({ min: 1, max: 50 }), { maxLength: 15 }),
        (before, after) => {
          const previous = rebuildSchedule(before, []).map((e, i) => ({ ...e, daysFromStart: i + 1 }));
          const rebuilt = rebuildSchedule(after, previous);
          expect(scheduleProblem(rebuilt)).toBeNull();
          expect(scheduleFromPlan(rebuilt)).toEqual(after);
          for (const e of rebuilt) {
            const old = previous.find((p) => p.fromVisitId === e.fromVisitId && p.toVisitId === e.toVisitId);
            expect(e.daysFromStart).toBe(old ? old.daysFromStart : 0);
          }
        },
      ),
    );
  });
});

describe("plan reading", () => {
  it("orders by sequence and adds a last to-visit when the plan names one", () => {
    expect(scheduleFromPlan([entry(3, null, 0, 3), entry(1, 2, 0, 1), entry(2, 3, 0, 2)])).toEqual([1, 2, 3]);
    expect(scheduleFromPlan([entry(1, 2, 0, 1), entry(2, 5, 0, 2)])).toEqual([1, 2, 5]);
    expect(scheduleFromPlan([])).toEqual([]);
  });

  it("lists the unused visits as available, in the study's order", () => {
    const visits = [{ id: 1 }, { id: 2 }, { id: 3 }, { id: 4 }];
    expect(availableVisits(visits, [3, 1])).toEqual([{ id: 2 }, { id: 4 }]);
  });

  it("names what is wrong with an inconsistent schedule", () => {
    expect(scheduleProblem([entry(1, 2, 0, 1), entry(1, null, 0, 2)])).toMatch(/more than once/);
    expect(scheduleProblem([entry(1, 2, 0, 1), entry(2, null, 0, 3)])).toMatch(/sequence/);
    expect(scheduleProblem([entry(1, 3, 0, 1), entry(2, null, 0, 2)])).toMatch(/lead to the next/);
    expect(scheduleProblem([entry(1, 2, 0, 1), entry(2, 9, 0, 2)])).toMatch(/lead to the next/);
  });

  it("writes the schedule row as N days (-before / +after)", () => {
    expect(scheduleRowText({ daysFromStart: 14, allowedDaysBefore: 2, allowedDaysAfter: 3 })).toBe(
      "14 days (-2 / +3)",
    );
  });
});

describe("studyplan status", () => {
  it("is Missing without a plan or without mandatory plan visits", () => {
    expect(
      studyplanStatus({ studyplanId: null, mandatoryStudyplanVisitCount: 3, mandatoryVisitCount: 3 }),
    ).toBe("Missing");
    expect(studyplanStatus({ studyplanId: 1, mandatoryStudyplanVisitCount: 0, mandatoryVisitCount: 3 })).toBe(
      "Missing",
    );
    expect(
      studyplanStatus({ studyplanId: 1, mandatoryStudyplanVisitCount: null, mandatoryVisitCount: 3 }),
    ).toBe("Missing");
  });

  it("is Incomplete below, Complete at and Unknown above the mandatory count", () => {
    expect(studyplanStatus({ studyplanId: 1, mandatoryStudyplanVisitCount: 2, mandatoryVisitCount: 3 })).toBe(
      "Incomplete",
    );
    expect(studyplanStatus({ studyplanId: 1, mandatoryStudyplanVisitCount: 3, mandatoryVisitCount: 3 })).toBe(
      "Complete",
    );
    expect(studyplanStatus({ studyplanId: 1, mandatoryStudyplanVisitCount: 4, mandatoryVisitCount: 3 })).toBe(
      "Unknown",
    );
    expect(
      studyplanStatus({ studyplanId: 1, mandatoryStudyplanVisitCount: 2, mandatoryVisitCount: null }),
    ).toBe("Unknown");
  });
});
