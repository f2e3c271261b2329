import { keepPreviousData, type QueryClient, useQuery } from "@tanstack/react-query";
import type { ListData, MenuItem, SiteOption } from "@trialdesk/domain";
import { api, type Query } from "./client";

/** The view a path's answers belong to: its last part (studies/:uuid/visits → visits). */
const viewOfPath = (path: string) => path.slice(path.lastIndexOf("/") + 1);

/**
 * Every query key of the app, each starting with the name of its resource or view in derivedViews, so
 * that one invalidation after a save or delete reaches every list, detail, lookup, history and view
 * that shows what the write changed. No screen builds a key of its own (queries.test.ts reads them).
 */
export const queryKeys = {
  list: (resource: string, query: Query) => [resource, "list", query] as const,
  detail: (resource: string, id: string | undefined, format?: string) =>
    [resource, "detail", id, format] as const,
  form: (resource: string, id: string | undefined) => [resource, "form", id] as const,
  /** A lookup of a resource, or of a path under another (a study's visits: under "visits"). */
  lookup: (resource: string, query: Query) =>
    viewOfPath(resource) === resource
      ? ([resource, "lookup", query] as const)
      : ([viewOfPath(resource), "lookup", query, resource] as const),
  history: (resource: string, uuid: string | undefined) => [resource, "history", uuid] as const,
  /** The home page's Due and Overdue counts of the active site (GET worklist, one row). */
  worklistCounts: (query: Query) => ["worklist", "counts", query] as const,
  /** A patient's assignments with their visit schedules (GET worklist/schedule). */
  patientSchedule: (patientId: number) => ["worklist", "schedule", patientId] as const,
  /** A study's visit summary at a site (GET patient-visit-summary/:studyUuid). */
  visitSummary: (studyUuid: string, siteId: number | undefined) =>
    ["patient-visit-summary", studyUuid, siteId] as const,
  /** A patient's visits in a study, with their deviations (GET patient-visit-detail). */
  patientVisitDetail: (patientId: number | null | undefined, studyId: number | null | undefined) =>
    ["patient-visit-detail", patientId, studyId] as const,
  /** The patient a new visit is recorded for, named in the visit form (Record visit's prefill). */
  prefillPatient: (patientId: number | null) => ["patients", "prefill", patientId] as const,
  /** The plan of a study, found by the study's working name in the studyplans list. */
  studyplanOfStudy: (studyUuid: string | undefined, studyName: string | undefined) =>
    ["studyplans", "of", studyUuid, studyName] as const,
  /** A site's record, read for its country (the default region of its patients' phone numbers). */
  siteCountry: (siteUuid: string | undefined) => ["sites", "country", siteUuid] as const,
  /** A project's finance summary or its aging at a site (GET finance/summary, finance/aging). */
  finance: (view: "summary" | "aging", query: Query) => ["finance", view, query] as const,
  myMenu: () => ["my-menu"] as const,
  mySites: (userUuid: string | undefined) => ["my-sites", userUuid] as const,
};

/**
 * The signed-in user's menu (spec §1, §6), as the server decides it: read once a page load, as it was
 * when only the frame asked for it (it changes with the user's rights), again after a study's save
 * (derivedViews), and dropped at sign-out.
 */
export const myMenu = {
  queryKey: queryKeys.myMenu(),
  queryFn: () => api.get<MenuItem[]>("me/menu"),
  staleTime: Number.POSITIVE_INFINITY,
};

export type MySites = { items: SiteOption[] };
/** The signed-in user's sites (the site selector's list), kept per user. */
export const mySites = (userUuid: string | undefined) => ({
  queryKey: queryKeys.mySites(userUuid),
  queryFn: () => api.get<MySites>("me/sites"),
});

/**
 * Which views derive from which resources: every view of the app (the first part of its keys) with
 * the resources whose saves and deletes change what it shows, as the server reads and writes them.
 * A resource's own keys always follow its writes; this names what else does. Behind it:
 * - the window engine: a visit's, an assignment's or a plan's save rebuilds the stored visit windows
 *   (the worklist, the patient's schedule, the summary, the visit form's visits) and writes or
 *   withdraws automatic protocol deviations (issue 43); a deviation's status is the worklist's
 *   "Deviations open";
 * - the verification sample (issue 44): every assignment write, and a project's new verification
 *   percentage, draw it again; a verification, a changed verified visit and an open query change a
 *   visit's SDV status, and with it whether its earning is billable;
 * - the ledger (issue 45): a completed visit writes its earning, a statement takes earnings and a
 *   payment pays statements, which the earnings' states and the finance summary and aging count;
 * - names and codes a view shows of other records (patients, studies, visits, projects, sites).
 * queries.test.ts holds every write the screens make to the views it must leave read again.
 */
export const derivedViews = {
  worklist: [
    "patient-visits",
    "study-patients",
    "studyplans",
    "protocol-deviations",
    "patients",
    "studies",
    "visits",
  ],
  "patient-visit-summary": [
    "patient-visits",
    "study-patients",
    "studyplans",
    "source-verification",
    "queries",
    "projects",
    "patients",
    "studies",
    "visits",
  ],
  "patient-visit-detail": [
    "patient-visits",
    "study-patients",
    "studyplans",
    "protocol-deviations",
    "patients",
    "studies",
    "visits",
    "projects",
  ],
  "protocol-deviations": ["patient-visits", "study-patients", "studyplans", "patients", "studies", "visits"],
  "source-verification": [
    "patient-visits",
    "study-patients",
    "queries",
    "projects",
    "patients",
    "studies",
    "visits",
  ],
  "patient-visits": [
    "source-verification",
    "queries",
    "study-patients",
    "projects",
    "patients",
    "studies",
    "visits",
  ],
  earnings: [
    "patient-visits",
    "source-verification",
    "queries",
    "study-patients",
    "statements",
    "payments",
    "projects",
    "patients",
    "sites",
    "visits",
  ],
  finance: [
    "patient-visits",
    "source-verification",
    "queries",
    "study-patients",
    "statements",
    "payments",
    "projects",
  ],
  // A statement's paid amount follows the payments allocated to it.
  statements: ["payments", "projects", "sites"],
  payments: ["projects", "sites"],
  queries: ["patient-visits", "patients", "studies", "visits"],
  // The assignment's sample flag, whether it has visits, and who started or closed it.
  "study-patients": ["patient-visits", "projects", "patients", "studies", "users"],
  // The list's project code and study of the patient's latest assignment.
  patients: ["study-patients", "studies", "projects"],
  studies: ["projects", "visits"],
  // A visit recorded for patients or planned is in use (decision 152).
  visits: ["patient-visits", "studyplans", "studies", "projects"],
  studyplans: ["studies", "visits", "projects"],
  projects: ["partners", "sites", "therapy-areas"],
  "therapy-areas": ["therapy-categories"],
  "monitor-assignments": ["monitors", "studies"],
  "my-sites": ["sites"],
  // The menu's visit summary opens the demo study, else the first study there is.
  "my-menu": ["studies"],
} as const satisfies Record<string, readonly string[]>;

/** The views a save or delete of a resource changes: its own, and every view derived from it. */
const viewsChangedBy = (resource: string): string[] => [
  resource,
  ...Object.entries(derivedViews)
    .filter(([, sources]) => (sources as readonly string[]).includes(resource))
    .map(([view]) => view),
];

/**
 * After every save or delete (and every other write: a verification, a message, a write-off): what
 * it changed is read again, except open forms, which own their data once loaded (a background reload
 * must never replace what someone is typing).
 */
export const invalidateResource = (queryClient: QueryClient, resource: string) =>
  Promise.all(
    viewsChangedBy(resource).map((view) =>
      queryClient.invalidateQueries({ queryKey: [view], predicate: (query) => query.queryKey[1] !== "form" }),
    ),
  );

/** Where a lookup reads: page 1 of a list call (spec §7), with its page size and fixed query. */
export type LookupSource = { resource: string; pageSize?: number; query?: Query };

/**
 * A lookup's rows, one request per distinct query however many selects and labels read them (a
 * form's select and the detail's names share it). `search` adds the typed term's parameter.
 */
export function useLookupRows<T = Record<string, unknown>, R = T[]>(
  lookup: LookupSource,
  options: { search?: Query; enabled?: boolean; keepPrevious?: boolean; select?: (rows: T[]) => R } = {},
) {
  const query: Query = { page: 1, pagesize: lookup.pageSize, ...lookup.query, ...options.search };
  const { select } = options;
  return useQuery({
    queryKey: queryKeys.lookup(lookup.resource, query),
    queryFn: () => api.get<ListData<T>>(lookup.resource, query),
    select: (data) => (select ? select(data.items) : (data.items as R)),
    enabled: options.enabled,
    // While a new search loads, the previous options stay instead of an empty list.
    placeholderData: options.keepPrevious ? keepPreviousData : undefined,
  });
}
