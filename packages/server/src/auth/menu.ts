import {
  type MenuGroup,
  type MenuItem,
  mayAccess,
  menuGroups,
  resourceAccess,
  resourceNames,
  resourceRegistry,
} from "@trialdesk/domain";
import type { SessionUser } from "./guards";

const item = (
  key: string,
  label: string,
  route: string | null,
  icon: string,
  children: MenuItem[] = [],
): MenuItem => ({
  key,
  label,
  route,
  icon,
  iconVariant: null,
  children,
});

/**
 * Every screen of the spec (§2.1) with its label, grouped: the resources' screens as the domain's
 * registry places them, with the worklist first and the visit summary last among the patient
 * screens. A group shows when the user may list one of its resources (Administration: administrators).
 */
export function menuFor(user: SessionUser, summaryStudyUuid: string | null): MenuItem[] {
  // A monitor's work (issue 44): their studies, what to verify and their queries.
  if (user.kind === "monitor")
    return [
      item("home", "Home", "/", "house"),
      item("studies", "Studies", "/studies", resourceRegistry.studies.menu.icon),
      item("source-verification", "Source verification", "/source-verification", "badge-check"),
      item("queries", "Queries", "/queries", resourceRegistry.queries.menu.icon),
    ];
  const screensOf = (group: MenuGroup) =>
    resourceNames
      .filter(
        (name) => resourceRegistry[name].menu.group === group && mayAccess(resourceAccess(name).list, user),
      )
      .map((name) => {
        const { plural, menu } = resourceRegistry[name];
        return item(name, plural, `/${name}`, menu.icon);
      });
  const extras: Partial<Record<MenuGroup, { first: MenuItem[]; last: MenuItem[] }>> = {
    "patients-group": {
      first: [item("worklist", "Worklist", "/worklist", "list-todo")],
      last: summaryStudyUuid
        ? [item("visit-summary", "Visit summary", `/visit-summary/${summaryStudyUuid}`, "grid-3x3")]
        : [],
    },
    // What the site is owed, by how late (issue 45).
    finance: { first: [], last: [item("aging", "Aging", "/finance/aging", "hourglass")] },
  };
  const groups = menuGroups.flatMap(({ key, label, icon }) => {
    const children = [...(extras[key]?.first ?? []), ...screensOf(key), ...(extras[key]?.last ?? [])];
    return children.length > 0 ? [item(key, label, null, icon, children)] : [];
  });
  return [item("home", "Home", "/", "house"), ...groups];
}
