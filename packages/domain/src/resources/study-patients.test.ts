import { describe, expect, it } from "vitest";
import {
  emptyStudyPatient,
  normalizeStudyPatient,
  studyPatientSchema,
  validateStudyPatient,
} from "./study-patients";

describe("study patients", () => {
  it("requires a close reason once closed", () => {
    const closed = { ...emptyStudyPatient(), patientId: 1, studyId: 2, id: 5, active: false };
    expect(validateStudyPatient(closed)).toEqual({ closeReason: "Close reason is required" });
    expect(validateStudyPatient({ ...closed, closeReason: "EOS" })).toEqual({});
  });

  it("drops the close reason when reopened", () => {
    const reopened = normalizeStudyPatient({ active: true, closeReason: "DIED", closeDate: "2025-01-01" });
    expect(reopened).toMatchObject({ closeReason: null, closeDate: null });
  });

  it("takes only the listed close reasons", () => {
    expect(studyPatientSchema.safeParse({ patientId: 1, studyId: 2, closeReason: "EOS" }).success).toBe(true);
    expect(studyPatientSchema.safeParse({ patientId: 1, studyId: 2, closeReason: "LOST" }).success).toBe(
      false,
    );
  });
});
