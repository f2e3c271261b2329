import { describe, expect, it } from "vitest";
import { rebuildSchedule } from "../rules/studyplans";
import { historyLists, listChangeLines, scheduleChangeLines } from "./history";

const names: Record<number, string> = {
  1: "Screening",
  2: "Randomisation",
  3: "Week 4",
  4: "Week 8",
  5: "Week 12",
};
const visitName = (id: number) => names[id] ?? "?";

/** A schedule as the editor builds it: the visits in order, each row's days and window (the last none). */
const plan = (visitIds: number[], steps: [number, number, number][]) =>
  rebuildSchedule(visitIds, []).map((row, index) => {
    const [days, before, after] = steps[index] ?? [0, 0, 0];
    return { ...row, daysFromStart: days, allowedDaysBefore: before, allowedDaysAfter: after };
  });

describe("scheduleChangeLines", () => {
  it("names each row's days and window by the visit they place, the first visit at day 0 (issue 46)", () => {
    expect(
      scheduleChangeLines(
        null,
        plan(
          [1, 2, 3],
          [
            [14, 2, 2],
            [28, 3, 3],
          ],
        ),
        visitName,
      ),
    ).toEqual([
      "V1 Screening added: day 0",
      "V2 Randomisation added: day 14, window −2/+2",
      "V3 Week 4 added: day 28, window −3/+3",
    ]);
  });

  it("tells a visit's fee share as typed, and its change (issue 45)", () => {
    const before = plan([1, 2], [[14, 2, 2]]);
    const shared = before.map((row, i) => ({ ...row, feeShare: ["60.00", "40.00"][i] }));
    expect(scheduleChangeLines(null, shared, visitName)).toEqual([
      "V1 Screening added: day 0, fee share 60 %",
      "V2 Randomisation added: day 14, window −2/+2, fee share 40 %",
    ]);
    const changed = shared.map((row, i) => ({ ...row, feeShare: ["87.50", "12.50"][i] }));
    expect(scheduleChangeLines(shared, changed, visitName)).toEqual([
      "V1 Screening: fee share 60 % → 87.5 %",
      "V2 Randomisation: fee share 40 % → 12.5 %",
    ]);
    expect(scheduleChangeLines(shared, before, visitName)).toEqual([
      "V1 Screening: fee share 60 % → none",
      "V2 Randomisation: fee share 40 % → none",
    ]);
  });

  it("tells each changed, moved, added and removed visit on its own line, unchanged ones not at all", () => {
    const before = plan(
      [1, 2, 3, 4],
      [
        [14, 2, 2],
        [28, 2, 2],
        [56, 3, 3],
      ],
    );
    // Week 4 leaves the plan, Week 8 follows Randomisation with a wider window, Week 12 is added.
    const after = plan(
      [1, 2, 4, 5],
      [
        [14, 2, 2],
        [56, 4, 4],
        [84, 7, 7],
      ],
    );
    expect(scheduleChangeLines(before, after, visitName)).toEqual([
      "V3 Week 8: moved from V4, window −3/+3 → −4/+4",
      "V4 Week 12 added: day 84, window −7/+7",
      "V3 Week 4 removed (day 28, window −2/+2)",
    ]);
  });

  it("changes the placed visit's day when its leading row's days change, not the row's own visit", () => {
    const before = plan([1, 2], [[14, 2, 2]]);
    const after = plan([1, 2], [[21, 2, 2]]);
    expect(scheduleChangeLines(before, after, visitName)).toEqual(["V2 Randomisation: day 14 → 21"]);
  });

  it("has nothing to tell when only the rows' ids changed", () => {
    const rows = plan(
      [1, 2, 3],
      [
        [14, 2, 2],
        [28, 2, 2],
      ],
    );
    expect(
      scheduleChangeLines(
        rows.map((r, i) => ({ ...r, id: i + 1 })),
        rows.map((r, i) => ({ ...r, id: i + 10 })),
        visitName,
      ),
    ).toEqual([]);
  });
});

describe("listChangeLines", () => {
  const contact = historyLists.patients?.contacts as (item: Record<string, unknown>) => string;

  it("tells a patient's contacts added and removed in the detail's words, never their ids or types", () => {
    const before = [
      { id: 1, contactType: "PHONE", value: "+36 30 123 4567", notes: null },
      { id: 2, contactType: "EMAIL", value: "anna@example.com", notes: "work" },
    ];
    const after = [
      { id: 3, contactType: "PHONE", value: "+36 30 765 4321", notes: null },
      { id: 4, contactType: "EMAIL", value: "anna@example.com", notes: "work" },
    ];
    expect(listChangeLines(before, after, contact)).toEqual([
      "Phone +36 30 765 4321 added",
      "Phone +36 30 123 4567 removed",
    ]);
    expect(listChangeLines(null, before, contact)).toEqual([
      "Phone +36 30 123 4567 added",
      "Email anna@example.com — work added",
    ]);
  });

  it("has nothing to tell when a save only renewed the rows' ids", () => {
    const rows = [{ id: 1, contactType: "PHONE", value: "+36 30 123 4567", notes: null }];
    expect(listChangeLines(rows, [{ ...rows[0], id: 9 }], contact)).toEqual([]);
  });
});
