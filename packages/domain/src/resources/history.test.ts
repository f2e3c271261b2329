import { describe, expect, it } from "vitest";
import { scheduleChangeLines } from "./history";

const row = (fromVisitId: number, sequence: number, days: number, before = 2, after = 2) => ({
  fromVisitId,
  sequence,
  daysFromStart: days,
  allowedDaysBefore: before,
  allowedDaysAfter: after,
});
const names: Record<number, string> = { 1: "Screening", 2: "Week 4", 3: "Week 8" };

describe("scheduleChangeLines", () => {
  it("tells each changed, moved, added and removed row on its own line, unchanged rows not at all", () => {
    const before = [row(1, 1, 0), row(2, 2, 28), row(3, 3, 56)];
    const after = [row(1, 1, 0), row(3, 2, 56, 3, 3), row(4, 3, 84)];
    expect(scheduleChangeLines(before, after, (id) => names[id] ?? "Week 12")).toEqual([
      "V2 Week 8: moved from V3, window −2/+2 → −3/+3",
      "V3 Week 12 added: day 84, window −2/+2",
      "V2 Week 4 removed (day 28, window −2/+2)",
    ]);
  });

  it("has nothing to tell when only the rows' ids changed", () => {
    const rows = [row(1, 1, 0), row(2, 2, 28)];
    expect(
      scheduleChangeLines(
        rows,
        rows.map((r) => ({ ...r })),
        (id) => names[id],
      ),
    ).toEqual([]);
  });
});
