import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type ScheduleEntry, scheduleEntrySchema } from "../resources/studyplans";
import {
  availableVisits,
  feeSharesProblem,
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

describe("fee shares (issue 45)", () => {
  const entry = (fromVisitId: number, feeShare: string | null = null) => ({ fromVisitId, feeShare });
  it("asks for none, or for shares that add up to 100 %", () => {
    expect(feeSharesProblem([entry(1), entry(2)])).toBeNull();
    expect(feeSharesProblem([entry(1, "33.33"), entry(2, "33.33"), entry(3, "33.34")])).toBeNull();
    // A visit without a share beside visits with shares earns nothing: only the total counts.
    expect(feeSharesProblem([entry(1, "60"), entry(2, "40"), entry(3)])).toBeNull();
    expect(feeSharesProblem([entry(1, "60"), entry(2, "27.5")])).toBe(
      "The visits' fee shares must add up to 100 % (now 87.5 %)",
    );
    expect(feeSharesProblem([entry(1, "60"), entry(2, "60")])).toBe(
      "The visits' fee shares must add up to 100 % (now 120 %)",
    );
  });

  it("keeps a visit's share wherever the visit moves in the plan", () => {
    const before = rebuildSchedule([1, 2, 3], []).map((e, i) => ({ ...e, feeShare: ["50", "30", null][i] }));
    const moved = rebuildSchedule([3, 1, 2], before);
    expect(moved.map((e) => [e.fromVisitId, e.feeShare])).toEqual([
      [3, undefined],
      [1, "50"],
      [2, "30"],
    ]);
  });

  it("takes a share as a percentage of up to two decimals, more than 0 and at most 100", () => {
    const share = (feeShare: unknown) =>
      scheduleEntrySchema.safeParse({
        fromVisitId: 1,
        toVisitId: null,
        daysFromStart: 0,
        allowedDaysBefore: 0,
        allowedDaysAfter: 0,
        sequence: 1,
        feeShare,
      });
    expect(share("33.33").data?.feeShare).toBe("33.33");
    expect(share("").data?.feeShare).toBeNull();
    expect(share(null).data?.feeShare).toBeNull();
    expect(share(undefined).success).toBe(true);
    expect(share("0").error?.issues[0]?.message).toBe("Fee share must be more than 0 and at most 100");
    expect(share("100.01").error?.issues[0]?.message).toBe("Fee share must be more than 0 and at most 100");
    expect(share("12.345").error?.issues[0]?.message).toBe(
      "Fee share must be a percentage such as 25 or 33.33",
    );
  });
});
