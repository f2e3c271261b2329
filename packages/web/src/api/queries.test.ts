import { QueryClient } from "@tanstack/react-query";
import { resourceAccess, resourceNames } from "@trialdesk/domain";
import { describe, expect, it } from "vitest";
import { derivedViews, invalidateResource, queryKeys } from "./queries";

const page = { siteId: 7, page: 1, pagesize: 10 };

/** One key of everything the screens read, from the factories they read it with. */
const shown = {
  worklist: queryKeys.list("worklist", page),
  worklistCounts: queryKeys.worklistCounts({ siteId: 7, page: 1, pagesize: 1 }),
  patientSchedule: queryKeys.patientSchedule(7),
  visitSummary: queryKeys.visitSummary("std-1", 7),
  visitDetail: queryKeys.patientVisitDetail(7, 2),
  deviations: queryKeys.list("protocol-deviations", { siteId: 7, status: "OPEN", page: 1, pagesize: 1 }),
  sourceVerification: queryKeys.list("source-verification", page),
  patientVisits: queryKeys.list("patient-visits", page),
  visitOfQuery: queryKeys.detail("patient-visits", "12", "sdv"),
  earnings: queryKeys.list("earnings", page),
  financeSummary: queryKeys.finance("summary", { projectId: 3, siteId: 7 }),
  aging: queryKeys.finance("aging", { projectId: 3, siteId: 7, asOf: "2025-06-30" }),
  statements: queryKeys.list("statements", page),
  statement: queryKeys.detail("statements", "stm-1", "view"),
  payments: queryKeys.list("payments", page),
  queries: queryKeys.list("queries", { status: "OPEN", siteId: 7, page: 1, pagesize: 1 }),
  assignments: queryKeys.lookup("study-patients", { patientId: 7 }),
  patients: queryKeys.list("patients", page),
  prefillPatient: queryKeys.prefillPatient(7),
  study: queryKeys.detail("studies", "std-1"),
  visits: queryKeys.list("visits", page),
  studyVisits: queryKeys.lookup("studies/std-1/visits", { page: 1, pagesize: 100 }),
  studyplans: queryKeys.list("studyplans", page),
  studyplanOfStudy: queryKeys.studyplanOfStudy("std-1", "TD-2025-001_NORMAL"),
  projects: queryKeys.lookup("projects", { page: 1 }),
  partners: queryKeys.list("partners", page),
  therapyAreas: queryKeys.list("therapy-areas", page),
  therapyCategories: queryKeys.lookup("therapy-categories", { page: 1 }),
  sites: queryKeys.list("sites", page),
  siteCountry: queryKeys.siteCountry("site-4"),
  mySites: queryKeys.mySites("usr-1"),
  myMenu: queryKeys.myMenu(),
  user: queryKeys.detail("users", "usr-1"),
  userHistory: queryKeys.history("users", "usr-1"),
  monitors: queryKeys.list("monitors", page),
  monitorAssignments: queryKeys.list("monitor-assignments", page),
};
type Shown = keyof typeof shown;

/** The names, codes and states a view shows of a patient, a study, a visit: in every clinical view. */
const clinical: Shown[] = [
  "worklist",
  "worklistCounts",
  "patientSchedule",
  "visitSummary",
  "visitDetail",
  "deviations",
  "sourceVerification",
  "patientVisits",
  "visitOfQuery",
  "queries",
];
const windows: Shown[] = ["worklist", "worklistCounts", "patientSchedule", "visitSummary", "visitDetail"];
const sdv: Shown[] = ["sourceVerification", "patientVisits", "visitOfQuery", "visitSummary"];
const ledger: Shown[] = ["earnings", "financeSummary", "aging"];

/**
 * What each write the screens make changes on the server, as what shows it: every resource a person
 * saves or deletes (the registry's writable ones), a verification, and a password change (users).
 */
const staleAfter: Record<string, Shown[]> = {
  // The window rebuild, the automatic deviations, a reopened verification, the earning (issues 43–45);
  // the assignment has visits, the visit is in use.
  "patient-visits": [...windows, "deviations", ...sdv, ...ledger, "assignments", "visits", "studyVisits"],
  // The window rebuild, the automatic deviations and the study's verification sample (issue 44).
  "study-patients": [...windows, "deviations", ...sdv, ...ledger, "assignments", "patients"],
  studyplans: [...windows, "deviations", "studyplans", "studyplanOfStudy", "visits", "studyVisits"],
  // The worklist's "Deviations open" and the visit form's list of deviations.
  "protocol-deviations": [...windows.filter((view) => view !== "visitSummary"), "deviations"],
  // An open query counts a verified visit as not verified, and its earning as awaiting verification.
  queries: ["queries", ...sdv, ...ledger],
  "source-verification": [...sdv, ...ledger],
  statements: ["statements", "statement", ...ledger],
  payments: ["payments", "statements", "statement", ...ledger],
  // A new verification percentage draws every sample of the project again (issue 44).
  projects: ["projects", ...sdv, ...ledger, "assignments", "patients", "study", "visits", "studyplans"],
  patients: ["patients", "prefillPatient", ...clinical, "earnings", "assignments"],
  studies: ["study", ...clinical, "assignments", "patients", "visits", "studyplans", "myMenu"],
  visits: ["visits", "studyVisits", ...clinical, "earnings", "studyplans", "study"],
  sites: ["sites", "siteCountry", "mySites", "earnings", "statements", "payments", "projects"],
  users: ["user", "userHistory", "assignments"],
  partners: ["partners", "projects"],
  "therapy-areas": ["therapyAreas", "projects"],
  "therapy-categories": ["therapyCategories", "therapyAreas"],
  monitors: ["monitors", "monitorAssignments"],
  "monitor-assignments": ["monitorAssignments"],
};

/** A client holding every key of `shown` and the open forms of every resource, none invalidated. */
function cached() {
  const client = new QueryClient();
  for (const key of Object.values(shown)) client.setQueryData(key, {});
  for (const resource of resourceNames) client.setQueryData(queryKeys.form(resource, "uuid-1"), {});
  const invalidated = (key: readonly unknown[]) => client.getQueryState(key)?.isInvalidated;
  return { client, invalidated };
}

describe("invalidateResource", () => {
  it("after a patient visit is saved or deleted, reads the worklist, summary and deviations again, never an open form", async () => {
    const { client, invalidated } = cached();
    await invalidateResource(client, "patient-visits");
    for (const key of [
      shown.deviations,
      shown.worklistCounts,
      shown.worklist,
      shown.visitSummary,
      shown.visitDetail,
    ])
      expect(invalidated(key)).toBe(true);
    for (const key of [
      queryKeys.form("patient-visits", "uuid-1"),
      queryKeys.form("protocol-deviations", "uuid-1"),
      shown.patients,
    ])
      expect(invalidated(key)).toBe(false);
  });

  it("names every write the app makes", () => {
    const written = resourceNames.filter((name) => resourceAccess(name).write !== "none");
    expect(Object.keys(staleAfter).sort()).toEqual([...written, "source-verification"].sort());
  });

  for (const [resource, views] of Object.entries(staleAfter))
    it(`after a write of ${resource}, reads again every view it changes`, async () => {
      const { client, invalidated } = cached();
      await invalidateResource(client, resource);
      const stale = Object.entries(shown)
        .filter(([, key]) => invalidated(key))
        .map(([view]) => view);
      expect(stale).toEqual(expect.arrayContaining(views));
      for (const name of resourceNames) expect(invalidated(queryKeys.form(name, "uuid-1"))).toBe(false);
    });

  it("reaches every key under its view: each key starts with a view of derivedViews or a resource", async () => {
    const views = new Set<string>([...Object.keys(derivedViews), ...resourceNames]);
    for (const key of Object.values(shown)) expect(views).toContain(key[0]);
    // Every view the map declares is read by a screen (its key is among those above).
    const heads = new Set(Object.values(shown).map((key) => key[0]));
    for (const view of Object.keys(derivedViews)) expect(heads).toContain(view);
    // And each is reached by a write of every resource it derives from.
    for (const [view, sources] of Object.entries(derivedViews))
      for (const source of sources) {
        const { client, invalidated } = cached();
        await invalidateResource(client, source);
        for (const key of Object.values(shown).filter((key) => key[0] === view))
          expect(invalidated(key), `${view} after ${source}`).toBe(true);
      }
  });
});

/** The app's source files (not tests, not this folder), by path. */
const sources = Object.entries(
  import.meta.glob<string>(["../**/*.{ts,tsx}", "!../**/*.test.{ts,tsx}", "!./**"], {
    query: "?raw",
    import: "default",
    eager: true,
  }),
);

describe("the screens' queries", () => {
  it("are read under keys from queryKeys, never built by hand", () => {
    expect(sources.length).toBeGreaterThan(50);
    const handBuilt: string[] = [];
    for (const [file, text] of sources) {
      // A key is queryKeys' own, the key of an options object of this folder, or a constant set to one.
      const fromFactory = new Set([...text.matchAll(/const (\w+) = queryKeys\./g)].map((m) => m[1]));
      for (const [, value] of text.matchAll(/queryKey:\s*([\w.]+)/g))
        if (!value.startsWith("queryKeys.") && !value.endsWith(".queryKey") && !fromFactory.has(value))
          handBuilt.push(`${file}: queryKey: ${value}`);
      for (const m of text.matchAll(/queryKey:\s*[[`"]/g)) handBuilt.push(`${file}: ${m[0]}`);
      for (const [, call, value] of text.matchAll(/(set|get)QueryData(?:<[^(]*>)?\(\s*([\w.]+)/g))
        if (!value.startsWith("queryKeys.") && !fromFactory.has(value))
          handBuilt.push(`${file}: ${call}QueryData(${value}`);
    }
    expect(handBuilt).toEqual([]);
  });

  it("are invalidated only through invalidateResource, which every file that writes calls", () => {
    const unfollowed: string[] = [];
    for (const [file, text] of sources) {
      if (/\binvalidateQueries\(/.test(text)) unfollowed.push(`${file}: invalidateQueries`);
      if (/\bapi\.(post|put|delete)\b/.test(text) && !/\binvalidateResource\(/.test(text))
        unfollowed.push(`${file}: writes without invalidateResource`);
    }
    expect(unfollowed).toEqual([]);
  });
});
