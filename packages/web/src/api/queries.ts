import { keepPreviousData, type QueryClient, useQuery } from "@tanstack/react-query";
import type { ListData, MenuItem, SiteOption } from "@trialdesk/domain";
import { api, type Query } from "./client";

/**
 * Query keys, each starting with its resource's name (or API path), so that one invalidation after a
 * save or delete reaches every list, detail, form, lookup and history of that resource.
 */
export const queryKeys = {
  list: (resource: string, query: Query) => [resource, "list", query] as const,
  detail: (resource: string, id: string | undefined, format?: string) =>
    [resource, "detail", id, format] as const,
  form: (resource: string, id: string | undefined) => [resource, "form", id] as const,
  lookup: (resource: string, query: Query) => [resource, "lookup", query] as const,
  history: (resource: string, uuid: string | undefined) => [resource, "history", uuid] as const,
};

/**
 * The signed-in user's menu (spec §1, §6), as the server decides it: read once a page load, as it was
 * when only the frame asked for it (it changes with the user's rights), and dropped at sign-out.
 */
export const myMenu = {
  queryKey: ["me", "menu"] as const,
  queryFn: () => api.get<MenuItem[]>("me/menu"),
  staleTime: Number.POSITIVE_INFINITY,
};

export type MySites = { items: SiteOption[] };
/** The signed-in user's sites (the site selector's list), kept per user. */
export const mySites = (userUuid: string | undefined) => ({
  // Under "sites", so a saved site's new name or code shows in the selector at once.
  queryKey: ["sites", "mine", userUuid] as const,
  queryFn: () => api.get<MySites>("me/sites"),
});

/**
 * What else a save or delete of a resource changes: the window engine's answers, and the protocol
 * deviations it writes by itself (issue 43) when a visit is saved, an assignment closed or a plan changed.
 */
const scheduleViews = ["worklist", "patient-visit-summary", "patient-visit-detail", "protocol-deviations"];
export const shownWith: Record<string, string[]> = {
  // A saved visit may also reopen its verification (issue 44), and writes or voids its earning (issue 45).
  "patient-visits": [...scheduleViews, "source-verification", "earnings", "finance"],
  "study-patients": scheduleViews,
  studyplans: scheduleViews,
  // The worklist's "Deviations open" and the visit form's list of deviations.
  "protocol-deviations": ["worklist", "patient-visit-detail"],
  // A query's message or status changes its visit's open queries and the monitor's list (issue 44).
  queries: ["patient-visits", "source-verification", "worklist"],
  // A verification changes the visit's SDV status wherever it shows, and may make its earning billable.
  "source-verification": ["patient-visits", "patient-visit-summary", "earnings", "finance"],
  // A statement takes earnings on and off it (issue 45); a payment pays statements. "finance" is the
  // summary and aging views.
  statements: ["earnings", "payments", "finance"],
  payments: ["statements", "earnings", "finance"],
};

/**
 * After a save or delete: everything shown of that resource (and of what it changes, shownWith) is
 * read again, except open forms, which own their data once loaded (a background reload must never
 * replace what someone is typing).
 */
export const invalidateResource = (queryClient: QueryClient, resource: string) =>
  Promise.all(
    [resource, ...(shownWith[resource] ?? [])].map((key) =>
      queryClient.invalidateQueries({ queryKey: [key], predicate: (query) => query.queryKey[1] !== "form" }),
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
