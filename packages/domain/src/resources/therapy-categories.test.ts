import { describe, expect, it } from "vitest";
import { therapyAreaSchema } from "./therapy-areas";
import {
  normalizeTherapyCategory,
  therapyCategorySchema,
  validateTherapyCategory,
} from "./therapy-categories";

describe("therapy categories", () => {
  it("gives the spec's messages for name and code", () => {
    expect(validateTherapyCategory({ name: "", code: "" })).toEqual({
      name: "Name is required",
      code: "Code is required",
    });
    expect(validateTherapyCategory({ name: "On", code: "ONC" })).toEqual({
      name: "Name must be at least 3 characters long",
    });
  });

  it("refuses a category's or an area's code sent longer than 3, rather than cutting it (issue 46)", () => {
    const issues = (result: { error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
      result.error?.issues.map((issue) => [issue.path.join("."), issue.message]);
    expect(issues(therapyCategorySchema.safeParse({ name: "Oncology", code: "ONCO" }))).toEqual([
      ["code", "Must be at most 3 characters"],
    ]);
    expect(issues(therapyCategorySchema.safeParse({ name: "Oncology", code: "ONC" }))).toBeUndefined();
    expect(
      issues(therapyAreaSchema.safeParse({ name: "Breast cancer", code: "BRCA", therapyCategoryId: 1 })),
    ).toEqual([["code", "Must be at most 3 characters"]]);
  });

  it("refuses a one-character code, as the hint says 2 or 3 characters", () => {
    expect(validateTherapyCategory({ name: "Oncology", code: "O" })).toEqual({
      code: "Code must be at least 2 characters long",
    });
    expect(validateTherapyCategory({ name: "Oncology", code: "ON" })).toEqual({});
    expect(normalizeTherapyCategory({ code: "onco" }).code).toBe("ONC");
  });
});
