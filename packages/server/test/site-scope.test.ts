import { PgDialect } from "drizzle-orm/pg-core";
import { describe, expect, it } from "vitest";
import { patientScope } from "../src/resources/patients/patients.resource";
import { patients } from "../src/resources/patients/patients.table";
import { anyAdministrator, anyStaffMember, inSites, siteIdsOf } from "../src/resources/site-scope";

const dialect = new PgDialect({ casing: "snake_case" });
const staff = {
  id: 7,
  uuid: "usr-1",
  email: "s@example.com",
  profile: { firstName: "S", lastName: "T" },
  isAdmin: false,
  siteIds: [3, 1],
  kind: "user" as const,
};

/** The scope of a statement prepared for every caller (issue 14): sites as a parameter, nothing else. */
describe("site scope", () => {
  it("gives a user's sites as one array value, and no sites (or no user) as one that matches nothing", () => {
    expect(siteIdsOf(staff)).toBe("{3,1}");
    expect(siteIdsOf({ ...staff, siteIds: [] })).toBe("{}");
    expect(siteIdsOf(null)).toBe("{}");
    const query = dialect.sqlToQuery(inSites(patients.recorderSiteId, staff));
    expect(query.sql).toBe('"patients"."recorder_site_id" = any($1::int[])');
    expect(query.params).toEqual(["{3,1}"]);
  });

  it("builds the stand-in's scope with the sites as the statement's placeholder", () => {
    const query = dialect.sqlToQuery(patientScope(anyStaffMember) as never);
    expect(query.sql).toBe('"patients"."recorder_site_id" = any($1::int[])');
    expect(JSON.stringify(query.params)).toContain("siteIds");
    // Administrators see every patient: no scope at all.
    expect(patientScope(anyAdministrator)).toBeUndefined();
  });

  it("refuses a scope that reads more of the stand-in than isAdmin and siteIds", () => {
    expect(() => anyStaffMember.id).toThrow(/may read only isAdmin and siteIds/);
    expect(() => anyAdministrator.email).toThrow(/may read only isAdmin and siteIds/);
  });
});
