import { describe, expect, it } from "vitest";
import { resourceNames } from "./registry";
import { resourceRules } from "./resource-rules";

describe("the resource rules", () => {
  it("holds each resource's rules: the form's, and the server's where it checks or stores more", () => {
    for (const name of resourceNames) {
      const { schema, empty } = resourceRules[name];
      // The wire schema is strict: a field it does not know is refused.
      expect(schema.safeParse({ ...empty(), notAField: 1 }).success).toBe(false);
    }
    const partners = resourceRules.partners;
    const shortCode = { name: "Acme", code: "A" };
    expect(partners.validate(shortCode)).toEqual({});
    expect(partners.save.validate(shortCode)).toEqual({ code: "Code must be at least 2 characters long" });
    const sites = resourceRules.sites;
    expect(sites.normalize({ barcodePrefix: "bud" }).barcodePrefix).toBe("BUD");
    expect(sites.save.normalize({ barcodePrefix: "bud" }).barcodePrefix).toBe("BUD-");
  });
});
