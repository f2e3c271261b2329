import { describe, expect, it } from "vitest";
import { emptyStudyplan, studyplanSchema, validateStudyplan } from "./studyplans";

describe("studyplans", () => {
  it("starts a new plan for its study with calculation mode default and no schedule", () => {
    expect(emptyStudyplan("std-1")).toEqual({
      studyId: null,
      studyUuid: "std-1",
      calculationMode: "default",
      schedule: [],
    });
    expect(validateStudyplan(emptyStudyplan())).toEqual({});
  });

  it("limits days to 3 digits and windows to 2 on the wire", () => {
    const plan = (daysFromStart: number, allowedDaysBefore: number) => ({
      studyId: 1,
      schedule: [
        {
          id: null,
          fromVisitId: 1,
          toVisitId: null,
          daysFromStart,
          allowedDaysBefore,
          allowedDaysAfter: 0,
          sequence: 1,
        },
      ],
    });
    expect(studyplanSchema.safeParse(plan(999, 99)).success).toBe(true);
    expect(studyplanSchema.safeParse(plan(1000, 0)).success).toBe(false);
    expect(studyplanSchema.safeParse(plan(0, 100)).success).toBe(false);
    expect(studyplanSchema.safeParse(plan(-1, 0)).success).toBe(false);
  });
});
