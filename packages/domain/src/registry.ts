/**
 * Every resource of the product, declared once: its name (the API path and the web route), uuid
 * prefix, label and plural, who may list, read and write it, its lookup page size (spec §7, §9), its
 * place in the menu (spec §2.1; icons are lucide-react names); its rules are beside it in
 * resource-rules.ts. The server's routes, menu and saves, the uuid checks and the web's screens and
 * forms all read them, so no access rule or validator is named twice (issue 16). In menu order.
 */

/** Who may call: anyone, any signed-in user, or administrators only (design §4). */
/** "monitor": monitors only (issue 44: they open and close queries; staff answer them otherwise). */
export type Access = "public" | "user" | "admin" | "monitor" | "none";

export type MenuGroup = "patients-group" | "studies-group" | "finance" | "reference-data" | "administration";

type RegistryEntry = {
  uuidPrefix: string;
  /**
   * What a monitor may do (issue 44): "read" lists and reads within their current assignments;
   * "write" creates and updates there too (queries). Without it, every call of a monitor is refused.
   */
  monitors?: "read" | "write";
  /**
   * Recorded clinical data (issue 46, point 1; 21 CFR 11.10(e)): an edit or deletion of one of its
   * records says why (a reason for the change, rules/change-reasons.ts); creating one needs none.
   */
  reasonForChange?: true;
  label: string;
  plural: string;
  /** Each defaults to "user": any signed-in user. */
  access?: { list?: Access; get?: Access; write?: Access };
  lookupPageSize?: number;
  menu: { group: MenuGroup; icon: string };
};

/** What an entry has beyond the common: access other than "user", a lookup page size. */
type EntryExtras = Pick<RegistryEntry, "access" | "lookupPageSize" | "monitors" | "reasonForChange">;

/**
 * An entry: uuid prefix, label, plural, menu group and icon, then its extras; typed as literally as
 * an `as const` object, so uuidPrefixes and lookupPageSizes keep each resource's own values
 * (NoInfer: the registry's `satisfies` must not give an entry without extras optional ones).
 */
function entry<
  const Prefix extends string,
  const Label extends string,
  const Plural extends string,
  const Group extends MenuGroup,
  const Icon extends string,
  const Extras extends EntryExtras = Record<never, never>,
>(uuidPrefix: Prefix, label: Label, plural: Plural, group: Group, icon: Icon, extras?: Extras) {
  return { uuidPrefix, label, plural, ...extras, menu: { group, icon } } as Readonly<
    {
      uuidPrefix: Prefix;
      label: Label;
      plural: Plural;
      menu: Readonly<{ group: Group; icon: Icon }>;
    } & NoInfer<Extras>
  >;
}

// Reference data's detail pages are public (spec §2.1); administrators alone write it.
const publicDetailsAdminWrites = { get: "public", write: "admin" } as const;
const adminWrites = { write: "admin" } as const;
const adminOnly = { list: "admin", get: "admin", write: "admin" } as const;

export const resourceRegistry = {
  patients: entry("pt-", "Patient", "Patients", "patients-group", "user-round", {
    lookupPageSize: 100,
    reasonForChange: true,
  }),
  "study-patients": entry("sp-", "Study patient", "Study patients", "patients-group", "clipboard-list", {
    monitors: "read",
    reasonForChange: true,
  }),
  "patient-visits": entry("pv-", "Patient visit", "Patient visits", "patients-group", "calendar-check", {
    monitors: "read",
    reasonForChange: true,
  }),
  "protocol-deviations": entry(
    "dev-",
    "Protocol deviation",
    "Deviations",
    "patients-group",
    "triangle-alert",
    { monitors: "read" },
  ),
  queries: entry("qry-", "Query", "Queries", "patients-group", "message-circle-question", {
    access: { write: "monitor" },
    monitors: "write",
  }),
  // Study setup (projects with their finance terms, studies, visits, studyplans) is read by every
  // signed-in user and written by administrators only (issue 46, point 3; decision 226).
  projects: entry("prj-", "Project", "Projects", "studies-group", "folder-kanban", {
    access: adminWrites,
    lookupPageSize: 250,
  }),
  // What the site is owed (issue 45): staff of the site and administrators; monitors never.
  earnings: entry("ern-", "Earning", "Earnings", "finance", "coins", { access: { write: "none" } }),
  statements: entry("stm-", "Statement", "Statements", "finance", "receipt-text"),
  payments: entry("pay-", "Payment", "Payments", "finance", "banknote"),
  studies: entry("std-", "Study", "Studies", "studies-group", "flask-conical", {
    access: adminWrites,
    lookupPageSize: 100,
    monitors: "read",
  }),
  visits: entry("visit-", "Visit", "Visits", "studies-group", "calendar-days", {
    access: adminWrites,
    lookupPageSize: 100,
    monitors: "read",
  }),
  studyplans: entry("stp-", "Studyplan", "Studyplans", "studies-group", "list-ordered", {
    access: adminWrites,
    monitors: "read",
  }),
  "therapy-categories": entry("thc-", "Therapy category", "Therapy categories", "reference-data", "tags", {
    access: publicDetailsAdminWrites,
    lookupPageSize: 1000,
  }),
  "therapy-areas": entry("tha-", "Therapy area", "Therapy areas", "reference-data", "tag", {
    access: publicDetailsAdminWrites,
    lookupPageSize: 250,
  }),
  partners: entry("prt-", "Partner", "Partners", "reference-data", "handshake", {
    access: adminWrites,
    lookupPageSize: 250,
  }),
  sites: entry("site-", "Site", "Sites", "reference-data", "building-2", {
    access: adminWrites,
    lookupPageSize: 250,
  }),
  users: entry("usr-", "User", "Users", "administration", "user-cog", { access: adminOnly }),
  monitors: entry("mon-", "Monitor", "Monitors", "administration", "user-check", { access: adminOnly }),
  "monitor-assignments": entry(
    "mas-",
    "Monitor assignment",
    "Monitor assignments",
    "administration",
    "calendar-range",
    { access: adminOnly },
  ),
} satisfies Record<string, RegistryEntry>;

export type ResourceName = keyof typeof resourceRegistry;
export const resourceNames = Object.keys(resourceRegistry) as ResourceName[];

/** A screen's title by the registry: the plural for a list, the label for a record's form or detail. */
export function resourceTitle(resource: string, of: "list" | "record"): string {
  const entry = (resourceRegistry as Record<string, RegistryEntry | undefined>)[resource];
  if (!entry) return resource;
  return of === "list" ? entry.plural : entry.label;
}

/** Who may list, read and write a resource. */
export function resourceAccess(name: ResourceName): { list: Access; get: Access; write: Access } {
  const entry: RegistryEntry = resourceRegistry[name];
  return { list: "user", get: "user", write: "user", ...entry.access };
}

/** Whether a signed-in user (or nobody) may do that to a resource; a monitor's calls are the registry's `monitors`. */
export function mayAccess(
  access: Access,
  user: { isAdmin: boolean; kind?: "user" | "monitor" } | null,
): boolean {
  if (access === "none") return false;
  if (access === "monitor") return user?.kind === "monitor";
  if (user?.kind === "monitor") return access === "public";
  return access === "public" || (user !== null && (access === "user" || user.isAdmin));
}

/** What a monitor may do with a resource (issue 44): nothing unless the registry says. */
export function monitorMay(name: ResourceName, operation: "read" | "write"): boolean {
  const given = (resourceRegistry[name] as RegistryEntry).monitors;
  return given === "write" || given === operation;
}

/** Whether the user may list/read ("read") or write a resource: the registry's access, or monitorMay. */
export function mayUse(
  name: ResourceName,
  operation: "list" | "get" | "write",
  user: { isAdmin: boolean; kind?: "user" | "monitor" } | null,
): boolean {
  const access = resourceAccess(name)[operation];
  if (user?.kind === "monitor")
    return (
      access === "public" ||
      access === "monitor" ||
      monitorMay(name, operation === "write" ? "write" : "read")
    );
  return mayAccess(access, user);
}

/** Whether the resource's records are recorded clinical data, whose edits and deletions say why. */
export function recordsClinicalData(name: string): boolean {
  return (resourceRegistry as Record<string, RegistryEntry | undefined>)[name]?.reasonForChange === true;
}

/** The menu's groups (spec §2.1), in order. */
export const menuGroups: { key: MenuGroup; label: string; icon: string }[] = [
  { key: "patients-group", label: "Patients", icon: "users" },
  { key: "studies-group", label: "Studies", icon: "flask-conical" },
  { key: "finance", label: "Finance", icon: "wallet" },
  { key: "reference-data", label: "Reference data", icon: "book-open" },
  { key: "administration", label: "Administration", icon: "shield" },
];

type Prefixes = { [K in ResourceName]: (typeof resourceRegistry)[K]["uuidPrefix"] };
/** Client-generated ids (spec §3): a random version-4 uuid with a per-resource prefix. */
export const uuidPrefixes = Object.fromEntries(
  resourceNames.map((name) => [name, resourceRegistry[name].uuidPrefix]),
) as Prefixes;

type WithLookup = {
  [K in ResourceName as (typeof resourceRegistry)[K] extends { lookupPageSize: number } ? K : never]: number;
};
/** Lookup page sizes of spec §7 and §9 (and the studies' option view of the study form). */
export const lookupPageSizes = {
  ...(Object.fromEntries(
    resourceNames.flatMap((name) => {
      const size = (resourceRegistry[name] as RegistryEntry).lookupPageSize;
      return size === undefined ? [] : [[name, size]];
    }),
  ) as WithLookup),
  studiesOptionView: 250,
};
