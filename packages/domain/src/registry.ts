/**
 * Every resource of the product, declared once: its name (the API path and the web route), uuid
 * prefix, label and plural, who may list, read and write it, its lookup page size (spec §7, §9), its
 * place in the menu (spec §2.1; icons are lucide-react names); its rules are beside it in
 * resource-rules.ts. The server's routes, menu and saves, the uuid checks and the web's screens and
 * forms all read them, so no access rule or validator is named twice (issue 16). In menu order.
 */

/** Who may call: anyone, any signed-in user, or administrators only (DESIGN §4). */
export type Access = "public" | "user" | "admin";

export type MenuGroup = "patients-group" | "studies-group" | "reference-data" | "administration";

type RegistryEntry = {
  uuidPrefix: string;
  label: string;
  plural: string;
  /** Each defaults to "user": any signed-in user. */
  access?: { list?: Access; get?: Access; write?: Access };
  lookupPageSize?: number;
  menu: { group: MenuGroup; icon: string };
};

export const resourceRegistry = {
  patients: {
    uuidPrefix: "pt-",
    label: "Patient",
    plural: "Patients",
    lookupPageSize: 100,
    menu: { group: "patients-group", icon: "user-round" },
  },
  "study-patients": {
    uuidPrefix: "sp-",
    label: "Study patient",
    plural: "Study patients",
    menu: { group: "patients-group", icon: "clipboard-list" },
  },
  "patient-visits": {
    uuidPrefix: "pv-",
    label: "Patient visit",
    plural: "Patient visits",
    menu: { group: "patients-group", icon: "calendar-check" },
  },
  projects: {
    uuidPrefix: "prj-",
    label: "Project",
    plural: "Projects",
    lookupPageSize: 250,
    menu: { group: "studies-group", icon: "folder-kanban" },
  },
  studies: {
    uuidPrefix: "std-",
    label: "Study",
    plural: "Studies",
    lookupPageSize: 100,
    menu: { group: "studies-group", icon: "flask-conical" },
  },
  visits: {
    uuidPrefix: "visit-",
    label: "Visit",
    plural: "Visits",
    lookupPageSize: 100,
    menu: { group: "studies-group", icon: "calendar-days" },
  },
  studyplans: {
    uuidPrefix: "stp-",
    label: "Studyplan",
    plural: "Studyplans",
    menu: { group: "studies-group", icon: "list-ordered" },
  },
  // Their detail pages are public (spec §2.1).
  "therapy-categories": {
    uuidPrefix: "thc-",
    label: "Therapy category",
    plural: "Therapy categories",
    access: { get: "public", write: "admin" },
    lookupPageSize: 1000,
    menu: { group: "reference-data", icon: "tags" },
  },
  "therapy-areas": {
    uuidPrefix: "tha-",
    label: "Therapy area",
    plural: "Therapy areas",
    access: { get: "public", write: "admin" },
    lookupPageSize: 250,
    menu: { group: "reference-data", icon: "tag" },
  },
  partners: {
    uuidPrefix: "prt-",
    label: "Partner",
    plural: "Partners",
    access: { write: "admin" },
    lookupPageSize: 250,
    menu: { group: "reference-data", icon: "handshake" },
  },
  sites: {
    uuidPrefix: "site-",
    label: "Site",
    plural: "Sites",
    access: { write: "admin" },
    lookupPageSize: 250,
    menu: { group: "reference-data", icon: "building-2" },
  },
  users: {
    uuidPrefix: "usr-",
    label: "User",
    plural: "Users",
    access: { list: "admin", get: "admin", write: "admin" },
    menu: { group: "administration", icon: "user-cog" },
  },
  monitors: {
    uuidPrefix: "mon-",
    label: "Monitor",
    plural: "Monitors",
    access: { list: "admin", get: "admin", write: "admin" },
    menu: { group: "administration", icon: "user-check" },
  },
} as const satisfies Record<string, RegistryEntry>;

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

/** Whether a signed-in user (or nobody) may do that to a resource. */
export function mayAccess(access: Access, user: { isAdmin: boolean } | null): boolean {
  return access === "public" || (user !== null && (access === "user" || user.isAdmin));
}

/** The menu's groups (spec §2.1), in order. */
export const menuGroups: { key: MenuGroup; label: string; icon: string }[] = [
  { key: "patients-group", label: "Patients", icon: "users" },
  { key: "studies-group", label: "Studies", icon: "flask-conical" },
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
