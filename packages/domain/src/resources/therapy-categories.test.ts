import { describe, expect, it } from "vitest";
import { normalizeTherapyCategory, validateTherapyCategory } from "./therapy-categories";

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

  it("refuses a one-character code, as the hint says 2 or 3 characters", () => {
    expect(validateTherapyCategory({ name: "Oncology", code: "O" })).toEqual({
      code: "Code must be at least 2 characters long",
    });
    expect(validateTherapyCategory({ name: "Oncology", code: "ON" })).toEqual({});
    expect(normalizeTherapyCategory({ code: "onco" }).code).toBe("ONC");
  });
});
