import { describe, expect, it } from "vitest";
import { type ResourceName, resourceNames } from "./registry";
import { type ResourceRules, resourceRules } from "./resource-rules";

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

  // A new record's blank form, saved as it is: every required message, in the spec's order.
  const blankFormMessages: Partial<Record<ResourceName, Record<string, string>>> = {
    patients: {
      "patientDetail.firstName": "First name is required",
      "patientDetail.lastName": "Last name is required",
    },
    "study-patients": { patientId: "Patient is required", studyId: "Study is required" },
    studies: {
      projectId: "Project is required",
      workingName: "Working name is required",
      variant: "Variant is required",
      fpfv: "FPFV is required",
      lpfv: "LPFV is required",
      lplv: "LPLV is required",
      projectStatusId: "Status is required",
    },
    visits: {
      studyId: "Study is required",
      visitTypeId: "Visit type is required",
      name: "Visit name is required",
    },
    partners: { name: "Name is required", code: "Code is required" },
    users: {
      "profile.firstName": "First name is required",
      "profile.lastName": "Last name is required",
      email: "Email is required",
      password: "Password is required",
      password2: "Password confirmation is required",
    },
    // The user rules on flat name fields.
    monitors: {
      firstName: "First name is required",
      lastName: "Last name is required",
      email: "Email is required",
      password: "Password is required",
      password2: "Password confirmation is required",
    },
  };
  it.each(Object.entries(blankFormMessages))(
    "gives the %s blank form its required messages",
    (name, messages) => {
      const { validate, empty }: ResourceRules = resourceRules[name as ResourceName];
      expect(Object.entries(validate(empty()))).toEqual(Object.entries(messages));
    },
  );
});
