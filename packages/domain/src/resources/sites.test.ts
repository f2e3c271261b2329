import { describe, expect, it } from "vitest";
import {
  barcodePrefixInput,
  barcodePrefixWithSeparator,
  emptySite,
  normalizeSite,
  prepareSiteForSave,
  siteSchema,
  validateSite,
  validateSiteForSave,
} from "./sites";

describe("sites", () => {
  it("requires name, short name and code with the spec's messages", () => {
    expect(validateSite(emptySite())).toEqual({
      name: "Name is required",
      shortName: "Short name is required",
      code: "Code is required",
    });
    expect(validateSite({ name: "Budapest Clinic", shortName: "Budapest", code: "BUD" })).toEqual({});
  });

  it("upper-cases and cuts the code to 5 and cleans the barcode prefix", () => {
    const site = normalizeSite({ code: "bud01x", barcodePrefix: "b u_d-9!x", countryCode: "hu" });
    expect(site.code).toBe("BUD01");
    expect(site.barcodePrefix).toBe("BUD9");
    expect(site.countryCode).toBe("HU");
  });

  it("refuses a code or barcode prefix sent longer than its input keeps, rather than cutting it (issue 46)", () => {
    const site = { name: "Budapest Clinic", shortName: "Budapest", code: "BUD", barcodePrefix: "BUD-" };
    const refused = (changes: object) =>
      siteSchema
        .safeParse({ ...site, ...changes })
        .error?.issues.map((issue) => [issue.path.join("."), issue.message]);
    expect(refused({})).toBeUndefined();
    expect(refused({ code: "BUD01X" })).toEqual([["code", "Must be at most 5 characters"]]);
    expect(refused({ barcodePrefix: "BUDAP" })).toEqual([
      ["barcodePrefix", "Must be at most 4 letters and numbers"],
    ]);
    expect(refused({ barcodePrefix: "QA-9X" })).toBeUndefined();
  });

  it("stores the barcode prefix ending in one separator", () => {
    expect(barcodePrefixWithSeparator("bud")).toBe("BUD-");
    expect(barcodePrefixWithSeparator("BUD-")).toBe("BUD-");
    expect(barcodePrefixWithSeparator("ABCDE")).toBe("ABCD-");
    expect(barcodePrefixWithSeparator("")).toBeNull();
    expect(barcodePrefixWithSeparator(null)).toBeNull();
    expect(barcodePrefixWithSeparator("--a-b--")).toBe("AB-");
    expect(barcodePrefixWithSeparator("-")).toBeNull();
    expect(prepareSiteForSave({ code: "bud", barcodePrefix: "bud" })).toEqual({
      code: "BUD",
      barcodePrefix: "BUD-",
    });
  });

  it("accepts the empty form and refuses unknown fields", () => {
    expect(siteSchema.safeParse(emptySite()).success).toBe(true);
    expect(siteSchema.safeParse({ ...emptySite(), admin: true }).success).toBe(false);
    expect(siteSchema.safeParse({ ...emptySite(), countryCode: "HUN" }).success).toBe(false);
  });

  it("checks on save the minimums of the hints and a barcode prefix", () => {
    const site = { name: "Budapest Clinic", shortName: "Budapest", code: "BUD", barcodePrefix: "BUD-" };
    expect(validateSiteForSave(site)).toEqual({});
    expect(validateSiteForSave(prepareSiteForSave({ ...site, code: "b", barcodePrefix: "x" }))).toEqual({
      code: "Code must be at least 2 characters long",
      barcodePrefix: "Barcode prefix must be at least 2 characters long",
    });
    expect(validateSiteForSave(prepareSiteForSave({ ...site, barcodePrefix: " -" }))).toEqual({
      barcodePrefix: "Barcode prefix is required",
    });
    expect(validateSiteForSave({})).toMatchObject({ name: "Name is required" });
  });

  it("the barcode prefix input keeps 4 letters or numbers and the separator only at the end, typed or pasted", () => {
    const typed = (text: string) => [...text].reduce((shown, key) => barcodePrefixInput(shown + key), "");
    for (const text of ["QA-9X", "qa-9x", "ABCDE", "AB-", "a b_c!d-e", "BUD-"])
      expect(typed(text)).toBe(barcodePrefixInput(text));
    expect(barcodePrefixInput("QA-9X")).toBe("QA9X");
    expect(barcodePrefixInput("ABCDE")).toBe("ABCD");
    expect(barcodePrefixInput("BUD-")).toBe("BUD-");
    expect(prepareSiteForSave({ barcodePrefix: "QA-9X" })).toEqual({ barcodePrefix: "QA9X-" });
    expect(validateSiteForSave({ barcodePrefix: "QA-9-" })).toMatchObject({
      barcodePrefix: "Barcode prefix takes letters and numbers only",
    });
  });
});
