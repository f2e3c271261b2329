import { describe, expect, it } from "vitest";
import {
  choosePatient,
  chooseStudy,
  chooseVisit,
  emptyPatientVisit,
  hasCompletedRecord,
  normalizePatientVisit,
  patientVisitSchema,
  showsVisitResult,
  type VisitOption,
  type VisitRecord,
  validatePatientVisit,
  visitDateErrors,
  visitDateMessages,
} from "./patient-visits";

const option: VisitOption = {
  visitName: "Screening",
  visitUuid: "visit-1",
  visitId: 9,
  visitType: 20,
  mandatory: 1,
  visitStatus: "COMPLETED",
  visitResult: "OK",
  visitDate: "2025-03-01",
  patientVisitId: 44,
  patientVisitUuid: "pv-44",
  visitTime: "09:30",
  notes: "fasting",
  patientVisitVersion: 3,
};

describe("patient visits", () => {
  it("always passes validation, as the spec says", () => {
    expect(validatePatientVisit(emptyPatientVisit())).toEqual({});
  });

  it("offers and keeps a result only for COMPLETED visits", () => {
    expect(showsVisitResult("COMPLETED")).toBe(true);
    expect(showsVisitResult("BOOKED")).toBe(false);
    expect(normalizePatientVisit({ visitStatus: "ARRIVED", visitResult: "OK" }).visitResult).toBeNull();
    expect(normalizePatientVisit({ visitStatus: "COMPLETED", visitResult: "OK" }).visitResult).toBe("OK");
  });

  it("resets the form as patient, study and visit are chosen", () => {
    const filled = { ...emptyPatientVisit(), patientId: 1, studyId: 2, visitId: 3, notes: "x" };
    expect(choosePatient(7)).toEqual({ ...emptyPatientVisit(), patientId: 7 });
    expect(chooseStudy(filled, 5)).toEqual({ ...emptyPatientVisit(), patientId: 1, studyId: 5 });
    expect(chooseVisit(filled, 9)).toEqual({ ...emptyPatientVisit(), patientId: 1, studyId: 2, visitId: 9 });
  });

  it("records a new visit when the patient already has the chosen visit, never reopening the old record (issue 43)", () => {
    const form = chooseVisit({ patientId: 1, studyId: 2 }, 9);
    expect(form.id).toBeUndefined();
    expect(form).toMatchObject({ patientId: 1, studyId: 2, visitId: 9, visitDate: null, notes: "" });
  });

  it("asks first only when the visit already has a completed record", () => {
    const record = (visitStatus: VisitRecord["visitStatus"], id: number): VisitRecord => ({
      patientVisitId: id,
      patientVisitUuid: `pv-${id}`,
      visitDate: "2025-03-01",
      visitTime: null,
      visitStatus,
      visitResult: null,
      notes: null,
    });
    expect(hasCompletedRecord({ ...option, records: [record("NO_SHOW", 1)] })).toBe(false);
    expect(hasCompletedRecord({ ...option, records: [record("NO_SHOW", 1), record("COMPLETED", 2)] })).toBe(
      true,
    );
    expect(hasCompletedRecord(null)).toBe(false);
  });

  it("needs a date, not after today, for a visit that took place; none before the start or after LPLV", () => {
    const context = { today: "2026-11-28", startDate: "2026-03-01", lplv: "2027-12-31" };
    expect(visitDateErrors({ visitStatus: "COMPLETED", visitDate: null }, context)).toEqual({
      visitDate: visitDateMessages.dateRequired,
    });
    expect(visitDateErrors({ visitStatus: "ARRIVED", visitDate: null }, context).visitDate).toBe(
      visitDateMessages.dateRequired,
    );
    expect(visitDateErrors({ visitStatus: "BOOKED", visitDate: null }, context)).toEqual({});
    expect(visitDateErrors({ visitStatus: "COMPLETED", visitDate: "2026-11-29" }, context).visitDate).toBe(
      visitDateMessages.inFuture,
    );
    expect(visitDateErrors({ visitStatus: "COMPLETED", visitDate: "2026-11-28" }, context)).toEqual({});
    expect(visitDateErrors({ visitStatus: "BOOKED", visitDate: "2026-12-15" }, context)).toEqual({});
    expect(visitDateErrors({ visitStatus: "BOOKED", visitDate: "2020-12-15" }, context).visitDate).toBe(
      "The visit date cannot be before the patient's start in the study (1 Mar 2026)",
    );
    expect(visitDateErrors({ visitStatus: "BOOKED", visitDate: "2028-01-01" }, context).visitDate).toBe(
      "The visit date cannot be after the study's LPLV (31 Dec 2027)",
    );
    expect(visitDateErrors({ visitStatus: "NO_SHOW", visitDate: "2026-03-01" }, context)).toEqual({});
  });

  it("says which reference is missing in the spec's words", () => {
    const result = patientVisitSchema.safeParse({ patientId: 0, studyId: 1, visitId: 1 });
    expect(result.error?.issues[0]).toMatchObject({ path: ["patientId"], message: "Patient is required" });
    expect(patientVisitSchema.safeParse({ visitTime: "25:00" }).success).toBe(false);
    expect(patientVisitSchema.safeParse({ visitTime: "23:59", visitStatus: "NO_SHOW" }).success).toBe(true);
  });
});
