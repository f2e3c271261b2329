import { describe, expect, it } from "vitest";
import {
  compactVisitSummary,
  decodeVisitSummary,
  visitSummaryCell,
  visitSummaryDayZero,
  visitSummaryDecoder,
} from "./visit-summary";

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
      dayZero: asOf,
      rows: [
        [
          "pt-1",
          "BUD-000001",
          "Anna",
          "Kiss",
          "S-001",
          true,
          // 9 off the plan, done; 6 open with its window ahead; 5 open inside it; 7 booked a day after
          // its expected day, outside its window.
          "9a:-40;6d5;5d1;7c-10:1!",
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
    const decode = visitSummaryDecoder({ studyVisits, asOf, dayZero: asOf });
    const state = (cells: string) => decode(["pt-1", "B", "A", "K", null, true, cells]).visits[0].state;
    // Expected 7 March +3: the window's last day is asOf itself, so still due; a day earlier, overdue.
    expect(state("6d-3")).toBe("due");
    expect(state("6d-4")).toBe("overdue");
    // Expected 12 March −2: it opens on asOf, due; a day later, upcoming.
    expect(state("5d2")).toBe("due");
    expect(state("5d3")).toBe("upcoming");
    // The other kinds do not depend on the day.
    expect(state("5b-2:-28")).toBe("out-of-window");
    expect(state("5e-2")).toBe("not-applicable");
    expect(state("5f")).toBe("unscheduled");
  });

  it("packs a visit on its expected day as an empty offset, and reads back what compactVisitSummary packs", () => {
    const decode = visitSummaryDecoder({ studyVisits, asOf, dayZero: asOf });
    const [sameDay] = decode(["pt-1", "B", "A", "K", null, true, "7a-3:"]).visits;
    expect(sameDay).toEqual({
      visitId: 7,
      visitDate: "2026-03-07",
      expectedDate: "2026-03-07",
      state: "done",
    });
    const summary = decodeVisitSummary({
      studyVisits,
      asOf,
      dayZero: asOf,
      rows: [["pt-1", "B", "A", "K", null, true, "9a:-40;6d5;5d-1;7c-10:1!;5b-2:-28"]],
    });
    expect(compactVisitSummary(summary, asOf, asOf).rows[0][6]).toBe("7c-10:1!;5d-1;5b-2:-28;6d5;9a:-40");
    expect(decodeVisitSummary(compactVisitSummary(summary, asOf, asOf))).toEqual(summary);
  });

  it("counts the cells' days from the answer's day zero, and decides the states on asOf", () => {
    const decode = visitSummaryDecoder({ studyVisits, asOf, dayZero: visitSummaryDayZero });
    // 2025-01-01 + 434 days is 11 March 2026, inside visit 5's window (±2) on asOf, 10 March.
    expect(decode(["pt-1", "B", "A", "K", null, true, "5d434;7c424:1"]).visits).toEqual([
      { visitId: 7, expectedDate: "2026-03-01", visitDate: "2026-03-02", state: "booked" },
      { visitId: 5, expectedDate: "2026-03-11", state: "due" },
    ]);
    const summary = decodeVisitSummary({
      studyVisits,
      asOf,
      dayZero: asOf,
      rows: [["pt-1", "B", "A", "K", null, true, "6d5;7c-10:1!"]],
    });
    expect(compactVisitSummary(summary, asOf).rows[0][6]).toBe("7c423:1!;6d438");
    expect(decodeVisitSummary(compactVisitSummary(summary, asOf))).toEqual(summary);
  });

  it("refuses a cell it cannot read instead of showing a wrong visit", () => {
    const decode = visitSummaryDecoder({ studyVisits, asOf, dayZero: asOf });
    expect(() => decode(["pt-1", "B", "A", "K", null, true, "5z-3"]).visits).toThrow(/5z-3/);
    expect(() => decode(["pt-1", "B", "A", "K", null, true, "a-3"]).visits).toThrow(/a-3/);
    expect(() => decode(["pt-1", "B", "A", "K", null, true, "5,3,,2"]).visits).toThrow();
  });
});
