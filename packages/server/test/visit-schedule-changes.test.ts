import { describe, expect, it } from "vitest";
import { changesOf, recordsetColumns } from "../src/resources/visit-schedule/visit-schedule";

/** A stored window as the engine writes it. */
const stored = {
  studyPatientId: 5,
  patientId: 9,
  studyId: 3,
  siteId: 1,
  active: true,
  visitId: 101,
  sequence: 2,
  expectedDate: "2026-03-15",
  windowStart: "2026-03-13",
  windowEnd: "2026-03-17",
  kind: "booked",
  bookedOutsideWindow: false,
  patientVisitId: 77,
  visitDate: "2026-03-14",
  visitStatus: "BOOKED",
  deviationOpen: false,
} as const;

/** The rows a set of writes would upsert and delete. */
const written = (writes: ReturnType<typeof changesOf>) =>
  Object.fromEntries(writes.map((write) => [write.key, JSON.parse(String(write.values.rows))]));

describe("the writes that keep stored windows equal to the engine's", () => {
  it("writes nothing for a window the engine gives again", () => {
    expect(changesOf([stored], [{ ...stored }])).toEqual([]);
  });

  it("rewrites a window when any one of its columns differs, null or not", () => {
    const others: Record<string, unknown> = {
      active: false,
      expectedDate: "2026-03-16",
      kind: "done",
      bookedOutsideWindow: true,
      visitStatus: "COMPLETED",
      deviationOpen: true,
    };
    for (const column of recordsetColumns.filter((c) => c !== "studyPatientId" && c !== "visitId")) {
      const value =
        others[column] ?? (typeof stored[column] === "number" ? Number(stored[column]) + 1 : "2026-04-01");
      for (const changed of [value, null]) {
        const row = { ...stored, [column]: changed };
        expect(written(changesOf([stored], [row])), `${column} = ${changed}`).toEqual({
          "upsert visit_schedule": [row],
        });
      }
    }
  });

  it("adds the windows the engine gives anew and deletes those it no longer gives", () => {
    const next = { ...stored, visitId: 102, sequence: 3 };
    const other = { ...stored, studyPatientId: 6 };
    expect(written(changesOf([stored, other], [other, next]))).toEqual({
      "delete visit_schedule rows": [{ studyPatientId: 5, visitId: 101 }],
      "upsert visit_schedule": [next],
    });
  });
});
