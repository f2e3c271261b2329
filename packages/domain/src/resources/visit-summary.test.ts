import { describe, expect, it } from "vitest";
import { visitSummaryCell } from "./visit-summary";

describe("visit summary", () => {
  it("shows the visit date, else the word available", () => {
    const profile = { visits: [{ visitId: 1, visitDate: "2025-02-03" }] };
    expect(visitSummaryCell(profile, 1)).toBe("2025-02-03");
    expect(visitSummaryCell(profile, 2)).toBe("available");
  });
});
