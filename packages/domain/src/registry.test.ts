import { describe, expect, it } from "vitest";
import { isUuidOf, newUuid } from "./ids";
import {
  lookupPageSizes,
  mayAccess,
  resourceAccess,
  resourceNames,
  resourceTitle,
  uuidPrefixes,
} from "./registry";

describe("the resource registry", () => {
  it("gives every resource its own uuid prefix, and ids carry it", () => {
    expect(new Set(Object.values(uuidPrefixes)).size).toBe(resourceNames.length);
    for (const name of resourceNames) {
      expect(isUuidOf(name, newUuid(name))).toBe(true);
      const other = resourceNames.find((n) => n !== name) as typeof name;
      expect(isUuidOf(name, newUuid(other))).toBe(false);
    }
    expect(uuidPrefixes.patients).toBe("pt-");
    expect(uuidPrefixes["therapy-categories"]).toBe("thc-");
  });

  it("derives the lookup page sizes of spec §7 and §9", () => {
    expect(lookupPageSizes).toEqual({
      patients: 100,
      studies: 100,
      visits: 100,
      projects: 250,
      sites: 250,
      "therapy-areas": 250,
      partners: 250,
      studiesOptionView: 250,
      "therapy-categories": 1000,
    });
  });

  it("says who may list, read and write each resource: signed-in users unless it says otherwise", () => {
    expect(resourceAccess("patients")).toEqual({ list: "user", get: "user", write: "user" });
    expect(resourceAccess("sites")).toEqual({ list: "user", get: "user", write: "admin" });
    expect(resourceAccess("therapy-categories")).toEqual({ list: "user", get: "public", write: "admin" });
    expect(resourceAccess("users")).toEqual({ list: "admin", get: "admin", write: "admin" });
    const staff = { isAdmin: false };
    const admin = { isAdmin: true };
    expect([mayAccess("public", null), mayAccess("user", null), mayAccess("admin", null)]).toEqual([
      true,
      false,
      false,
    ]);
    expect([mayAccess("user", staff), mayAccess("admin", staff), mayAccess("admin", admin)]).toEqual([
      true,
      false,
      true,
    ]);
  });

  it("titles a list by the plural and a record's form and detail by the label", () => {
    expect(resourceTitle("therapy-areas", "list")).toBe("Therapy areas");
    expect(resourceTitle("patient-visits", "record")).toBe("Patient visit");
    expect(resourceTitle("worklist", "list")).toBe("worklist");
  });
});
