import { describe, expect, it } from "vitest";
import { validateVisit, visitSchema } from "./visits";

describe("visits", () => {
  it("passes a complete visit", () => {
    expect(validateVisit({ studyId: 1, visitTypeId: 50, name: "Randomisation", mandatory: 1 })).toEqual({});
  });

  it("takes only the listed visit types and mandatory 0 or 1", () => {
    expect(visitSchema.safeParse({ studyId: 1, name: "V1", visitTypeId: 65, mandatory: 1 }).success).toBe(
      true,
    );
    expect(visitSchema.safeParse({ studyId: 1, name: "V1", visitTypeId: 55 }).success).toBe(false);
    expect(visitSchema.safeParse({ studyId: 1, name: "V1", visitTypeId: 10, mandatory: 2 }).success).toBe(
      false,
    );
  });
});
