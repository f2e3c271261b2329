import { describe, expect, it } from "vitest";
import { emptyStudy, normalizeStudy, studySchema, validateStudy } from "./studies";

describe("studies", () => {
  it("passes a complete study and accepts it with its view fields", () => {
    const study = {
      id: 3,
      uuid: "std-x",
      version: 1,
      projectId: 1,
      variant: "NORMAL" as const,
      workingName: "PR-001_NORMAL",
      fpfv: "2025-01-01",
      lpfv: "2025-06-30",
      lplv: "2025-12-31",
      projectStatusId: 30,
      projectWorkingName: "Cardio",
      projectInternalCode: "CRXSPOCAR001",
      protocolNr: "PR-001",
    };
    expect(validateStudy(study)).toEqual({});
    expect(studySchema.safeParse(study).success).toBe(true);
    expect(studySchema.safeParse({ ...study, variant: "OTHER" }).success).toBe(false);
    expect(studySchema.safeParse({ ...study, fpfv: "2025-02-30" }).success).toBe(false);
  });

  it("refuses study dates out of order: FPFV after LPFV, LPFV after LPLV (issue 15)", () => {
    const study = {
      projectId: 1,
      variant: "NORMAL" as const,
      workingName: "PR-001_NORMAL",
      projectStatusId: 30,
    };
    const dated = (fpfv: string, lpfv: string, lplv: string) => validateStudy({ ...study, fpfv, lpfv, lplv });
    expect(dated("2025-01-01", "2025-01-01", "2025-01-01")).toEqual({});
    expect(dated("2025-07-01", "2025-06-30", "2025-12-31")).toEqual({ lpfv: "LPFV cannot be before FPFV" });
    expect(dated("2025-01-01", "2026-01-01", "2025-12-31")).toEqual({ lplv: "LPLV cannot be before LPFV" });
  });

  it("treats an emptied date as missing", () => {
    const study = normalizeStudy({ ...emptyStudy(), fpfv: "" });
    expect(study.fpfv).toBeNull();
    expect(validateStudy(study).fpfv).toBe("FPFV is required");
    expect(studySchema.safeParse({ ...emptyStudy(), fpfv: "" }).success).toBe(true);
  });
});
