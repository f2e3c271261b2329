import { describe, expect, it } from "vitest";
import {
  choosePatient,
  chooseStudy,
  chooseVisit,
  emptyPatientVisit,
  normalizePatientVisit,
  patientVisitSchema,
  showsVisitResult,
  type VisitOption,
  validatePatientVisit,
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

  it("fills in the existing visit data when the patient already has the chosen visit", () => {
    const form = chooseVisit({ patientId: 1, studyId: 2 }, 9, option);
    expect(form).toMatchObject({
      id: 44,
      uuid: "pv-44",
      version: 3,
      patientId: 1,
      studyId: 2,
      visitId: 9,
      visitDate: "2025-03-01",
      visitTime: "09:30",
      visitStatus: "COMPLETED",
      visitResult: "OK",
      notes: "fasting",
    });
    expect(
      chooseVisit({ patientId: 1, studyId: 2 }, 9, { ...option, patientVisitId: null }).id,
    ).toBeUndefined();
  });

  it("says which reference is missing in the spec's words", () => {
    const result = patientVisitSchema.safeParse({ patientId: 0, studyId: 1, visitId: 1 });
    expect(result.error?.issues[0]).toMatchObject({ path: ["patientId"], message: "Patient is required" });
    expect(patientVisitSchema.safeParse({ visitTime: "25:00" }).success).toBe(false);
    expect(patientVisitSchema.safeParse({ visitTime: "23:59", visitStatus: "NO_SHOW" }).success).toBe(true);
  });
});
