import { describe, expect, it } from "vitest";
import { normalizePartner, partnerSchema, validatePartner, validatePartnerForSave } from "./partners";

describe("partners", () => {
  it("forces the code upper case and cuts it to 3", () => {
    expect(normalizePartner({ name: "Acme", code: "acme" }).code).toBe("ACM");
  });

  it("refuses a code sent longer than 3 rather than keeping it cut (issue 46)", () => {
    const parsed = partnerSchema.safeParse({ name: "Acme", code: "ACME" });
    expect(parsed.error?.issues.map((issue) => [issue.path.join("."), issue.message])).toEqual([
      ["code", "Must be at most 3 characters"],
    ]);
  });

  it("takes the CRO and sponsor flags as booleans only", () => {
    expect(partnerSchema.safeParse({ name: "A", code: "AB", cro: true, sponsor: false }).success).toBe(true);
    expect(partnerSchema.safeParse({ name: "A", code: "AB", cro: "yes" }).success).toBe(false);
  });

  it("checks the 2-character code minimum on save only (spec §5: not on the client)", () => {
    expect(validatePartner({ name: "Acme", code: "A" })).toEqual({});
    expect(validatePartnerForSave({ name: "Acme", code: "A" })).toEqual({
      code: "Code must be at least 2 characters long",
    });
    expect(validatePartnerForSave({ name: "", code: "" })).toEqual({
      name: "Name is required",
      code: "Code is required",
    });
  });
});
