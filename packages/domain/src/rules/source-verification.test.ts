import { describe, expect, it } from "vitest";
import { statusAfterMessage, validateQuery } from "../resources/queries";
import {
  countsAsVerified,
  reopensVerification,
  type SdvCandidate,
  sdvSample,
  sdvSampleSize,
  sdvStatus,
} from "./source-verification";

const candidate = (id: number, startDate: string | null, more: Partial<SdvCandidate> = {}): SdvCandidate => ({
  id,
  startDate,
  verified: false,
  ...more,
});

describe("sdvSampleSize", () => {
  it("is the ceiling of the percentage of the assignments", () => {
    expect(sdvSampleSize(50, 3)).toBe(2);
    expect(sdvSampleSize(50, 4)).toBe(2);
    expect(sdvSampleSize(10, 1)).toBe(1);
    expect(sdvSampleSize(33, 10)).toBe(4);
  });
  it("takes every patient at 100 and none at 0", () => {
    expect(sdvSampleSize(100, 7)).toBe(7);
    expect(sdvSampleSize(0, 7)).toBe(0);
    expect(sdvSampleSize(50, 0)).toBe(0);
  });
});

describe("sdvSample", () => {
  it("chooses the earliest started, not-started last, ties by id", () => {
    const rows = [
      candidate(1, "2026-03-01"),
      candidate(2, null),
      candidate(3, "2026-01-15"),
      candidate(4, "2026-01-15"),
    ];
    expect([...sdvSample(rows, 2)].sort()).toEqual([3, 4]);
    expect([...sdvSample(rows, 3)].sort()).toEqual([1, 3, 4]);
  });
  it("does not depend on the order the patients came in", () => {
    const rows = [candidate(3, "2026-03-01"), candidate(1, "2026-01-01"), candidate(2, "2026-02-01")];
    expect([...sdvSample(rows, 2)].sort()).toEqual([1, 2]);
    expect([...sdvSample([...rows].reverse(), 2)].sort()).toEqual([1, 2]);
  });
  it("keeps a monitor's swap as the sample grows and shrinks", () => {
    // 3 was swapped in for 1.
    const rows = [
      candidate(1, "2026-01-01", { swapped: "OUT" }),
      candidate(2, "2026-02-01"),
      candidate(3, "2026-03-01", { swapped: "IN" }),
    ];
    expect([...sdvSample(rows, 1)]).toEqual([3]);
    expect([...sdvSample(rows, 2)].sort()).toEqual([2, 3]);
    expect([...sdvSample(rows, 3)].sort()).toEqual([1, 2, 3]);
  });
  it("never drops a patient with a verified visit, even past the size", () => {
    const rows = [
      candidate(1, "2026-01-01"),
      candidate(2, "2026-02-01", { verified: true }),
      candidate(3, "2026-03-01", { verified: true }),
    ];
    expect([...sdvSample(rows, 1)].sort()).toEqual([2, 3]);
    expect([...sdvSample(rows, 0)].sort()).toEqual([2, 3]);
    expect([...sdvSample(rows, 3)].sort()).toEqual([1, 2, 3]);
  });
});

describe("sdvStatus", () => {
  const base = { sampled: true, visitStatus: "COMPLETED", verifiedAt: null, reopened: false };
  it("is PENDING for a sampled completed visit, NOT_REQUIRED otherwise", () => {
    expect(sdvStatus(base)).toBe("PENDING");
    expect(sdvStatus({ ...base, sampled: false })).toBe("NOT_REQUIRED");
    expect(sdvStatus({ ...base, visitStatus: "BOOKED" })).toBe("NOT_REQUIRED");
  });
  it("is VERIFIED once verified and REOPENED when changed since", () => {
    const verified = { ...base, verifiedAt: "2026-11-28T10:00:00Z" };
    expect(sdvStatus(verified)).toBe("VERIFIED");
    expect(sdvStatus({ ...verified, reopened: true })).toBe("REOPENED");
    // A patient who leaves the sample keeps what was verified.
    expect(sdvStatus({ ...verified, sampled: false })).toBe("VERIFIED");
  });
  it("counts a verified visit with an open query as not verified", () => {
    expect(countsAsVerified("VERIFIED", 0)).toBe(true);
    expect(countsAsVerified("VERIFIED", 1)).toBe(false);
    expect(countsAsVerified("REOPENED", 0)).toBe(false);
  });
});

describe("reopensVerification", () => {
  const visit = {
    visitDate: "2026-11-02",
    visitTime: "09:30",
    visitStatus: "COMPLETED",
    visitResult: null,
    notes: null,
  };
  it("reopens on a change of date, time, status, result or notes", () => {
    expect(reopensVerification(visit, { ...visit, visitDate: "2026-11-03" })).toBe(true);
    expect(reopensVerification(visit, { ...visit, visitTime: "10:00" })).toBe(true);
    expect(reopensVerification(visit, { ...visit, visitStatus: "CANCELLED" })).toBe(true);
    expect(reopensVerification(visit, { ...visit, visitResult: "SUCCESS" })).toBe(true);
    expect(reopensVerification(visit, { ...visit, notes: "Headache" })).toBe(true);
  });
  it("does not reopen when nothing verified changed (empty and none are the same)", () => {
    expect(reopensVerification(visit, { ...visit })).toBe(false);
    expect(reopensVerification(visit, { ...visit, notes: "" })).toBe(false);
  });
});

describe("queries", () => {
  it("moves to ANSWERED on the site's message and back to OPEN on the monitor's", () => {
    expect(statusAfterMessage("OPEN", "site")).toBe("ANSWERED");
    expect(statusAfterMessage("ANSWERED", "monitor")).toBe("OPEN");
    expect(statusAfterMessage("OPEN", "monitor")).toBe("OPEN");
    expect(statusAfterMessage("CLOSED", "site")).toBeNull();
  });
  it("is never set ANSWERED by hand", () => {
    expect(validateQuery({ patientVisitId: 1, text: "Source says 09:00", status: "ANSWERED" })).toEqual({
      status: "A query is answered by a message from the site",
    });
    expect(validateQuery({ patientVisitId: null, text: "" })).toMatchObject({
      patientVisitId: "Patient visit is required",
      text: "Query is required",
    });
  });
});
