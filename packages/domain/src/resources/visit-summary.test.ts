import { describe, expect, it } from "vitest";
import { decodeVisitSummary, visitSummaryCell, visitSummaryDecoder } from "./visit-summary";

describe("visit summary", () => {
  it("shows the visit date, else the word available", () => {
    const profile = { visits: [{ visitId: 1, visitDate: "2025-02-03" }] };
    expect(visitSummaryCell(profile, 1)).toBe("2025-02-03");
    expect(visitSummaryCell(profile, 2)).toBe("available");
  });
});

describe("the compact visit summary", () => {
  const column = (id: number, sequence: number | null, before: number | null, after: number | null) => ({
    id,
    visitName: `Visit ${id}`,
    visitType: 60,
    sequence,
    daysFromStart: sequence === null ? null : 14,
    allowedDaysBefore: before,
    allowedDaysAfter: after,
    calculationMode: sequence === null ? null : ("default" as const),
  });
  // Plan order 7, 5, 6 (±2, ±3 days); 9 is off the plan.
  const studyVisits = [
    column(7, 1, null, null),
    column(5, 2, 2, 2),
    column(6, 3, 3, 3),
    column(9, null, null, null),
  ];
  const asOf = "2026-03-10";

  it("reads each packed cell back with its dates, its state on asOf and its flag, in column order", () => {
    const summary = decodeVisitSummary({
      studyVisits,
      asOf,
      rows: [
        [
          "pt-1",
          "BUD-000001",
          "Anna",
          "Kiss",
          "S-001",
          true,
          // Off the plan, done; open with its window ahead; open inside it; a booking outside its window.
          "9,0,-40,;6,3,,5;5,3,,1;7,2,-9,-10,1",
        ],
        ["pt-2", "BUD-000002", "Béla", "Nagy", null, false, ""],
      ],
    });
    expect(summary.studyVisits).toBe(studyVisits);
    expect(summary.patientStudyProfiles).toEqual([
      {
        patientUuid: "pt-1",
        barcode: "BUD-000001",
        firstName: "Anna",
        lastName: "Kiss",
        screenNr: "S-001",
        active: true,
        visits: [
          {
            visitId: 7,
            visitDate: "2026-03-01",
            expectedDate: "2026-02-28",
            state: "booked",
            bookedOutsideWindow: true,
          },
          // Expected 11 March ±2: asOf lies inside the window.
          { visitId: 5, expectedDate: "2026-03-11", state: "due" },
          // Expected 15 March ±3: the window opens on the 12th.
          { visitId: 6, expectedDate: "2026-03-15", state: "upcoming" },
          { visitId: 9, visitDate: "2026-01-29", state: "done" },
        ],
      },
      {
        patientUuid: "pt-2",
        barcode: "BUD-000002",
        firstName: "Béla",
        lastName: "Nagy",
        screenNr: null,
        active: false,
        visits: [],
      },
    ]);
  });

  it("decides open visits by the window around the expected date: overdue the day after it closes", () => {
    const decode = visitSummaryDecoder({ studyVisits, asOf });
    const state = (cells: string) => decode(["pt-1", "B", "A", "K", null, true, cells]).visits[0].state;
    // Expected 7 March +3: the window's last day is asOf itself, so still due; a day earlier, overdue.
    expect(state("6,3,,-3")).toBe("due");
    expect(state("6,3,,-4")).toBe("overdue");
    // Expected 12 March −2: it opens on asOf, due; a day later, upcoming.
    expect(state("5,3,,2")).toBe("due");
    expect(state("5,3,,3")).toBe("upcoming");
    // The other kinds do not depend on the day.
    expect(state("5,1,-30,-2")).toBe("out-of-window");
    expect(state("5,4,,-2")).toBe("not-applicable");
    expect(state("5,5,,")).toBe("unscheduled");
  });
});
