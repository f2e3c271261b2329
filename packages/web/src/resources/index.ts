import { type ResourceName, resourceAccess, resourceNames } from "@trialdesk/domain";
import { type ComponentType, createElement } from "react";
import type { RouteObject } from "react-router";
import { Spinner } from "../ui/spinner";

/** Every route of spec §2.1 for the resources, each lazily loaded per resource. */
type Lazy = NonNullable<RouteObject["lazy"]>;

/** A lazily loaded route; the spinner shows while its screen's code loads on the first page load. */
const route = (path: string, lazy: Lazy): RouteObject => ({
  path,
  lazy,
  hydrateFallbackElement: createElement(Spinner, { label: "Loading..." }),
});

/** What a resource's screens module exports: its list, form and detail screens. */
type ScreensModule = { List: ComponentType; Form: ComponentType; Detail: ComponentType };
type Screens = Record<"list" | "form" | "detail", Lazy>;

/**
 * Each resource's list / form / detail module, found by the convention `./{resource}/*-screens.tsx`,
 * so a new resource needs no line here (issue 16). Loaded once, on first use.
 */
const screenModules = import.meta.glob<ScreensModule>("./*/*-screens.tsx");
const screensModuleOf = (name: ResourceName) =>
  Object.entries(screenModules).find(([file]) => file.startsWith(`./${name}/`))?.[1];

function screensOf(load: () => Promise<ScreensModule>): Screens {
  const screen =
    (name: keyof ScreensModule): Lazy =>
    async () => ({ Component: (await load())[name] });
  return { list: screen("List"), form: screen("Form"), detail: screen("Detail") };
}

/** The resources with the four generic routes: every registered one but the studyplans (below). */
const crudResources = resourceNames.flatMap((name) => {
  const load = name === "studyplans" ? undefined : screensModuleOf(name);
  return load ? [{ name, screens: screensOf(load) }] : [];
});

/** The studyplan screens (their own routes below), loaded once on first use. */
const studyplans =
  (name: "List" | "Editor" | "Detail"): Lazy =>
  async () => ({ Component: (await import("./studyplans/studyplan-screens"))[name] });

/** The public detail pages, by the registry's access (spec §2.1): no sign-in needed. */
export const publicResourceRoutes: RouteObject[] = crudResources
  .filter(({ name }) => resourceAccess(name).get === "public")
  .map(({ name, screens }) => route(`/${name}/:itemId`, screens.detail));

const isPublic = (route: RouteObject) => publicResourceRoutes.some((p) => p.path === route.path);

/** The signed-in routes; the public detail paths are left out here (they live above). */
export const resourceRoutes: RouteObject[] = [
  // List, create, detail and edit of each resource.
  ...crudResources.flatMap(({ name, screens }) => [
    route(`/${name}`, screens.list),
    route(`/${name}/create`, screens.form),
    route(`/${name}/:itemId`, screens.detail),
    route(`/${name}/:itemId/edit`, screens.form),
  ]),
  // The user menu's Change password.
  route("/change-password", async () => ({
    Component: (await import("./users/change-password")).ChangePasswordPage,
  })),
  // Studyplans (spec §2.1): a per-study list, the editor on two routes, and the detail.
  route("/studyplans", studyplans("List")),
  route("/studies/:studyUuid/studyplans/create", studyplans("Editor")),
  route("/studyplans/:studyplanUuid/edit", studyplans("Editor")),
  route("/studyplans/:studyplanUuid", studyplans("Detail")),
  // The site worklist of visits due, overdue, booked and upcoming (issue 12).
  route("/worklist", async () => ({
    Component: (await import("./worklist/worklist-screen")).WorklistScreen,
  })),
  // The monitor's source-data verification (issue 44).
  route("/source-verification", async () => ({
    Component: (await import("./source-verification/source-verification-screen")).SourceVerificationScreen,
  })),
  // How late a project's statements at the site are paid (issue 45); the server's menu links it in Finance.
  route("/finance/aging", async () => ({
    Component: (await import("./finance/aging-screen")).AgingScreen,
  })),
  // The per-study patient visit summary grid (spec §2.5).
  route("/visit-summary/:studyUuid", async () => ({
    Component: (await import("./visit-summary/visit-summary-screen")).VisitSummaryScreen,
  })),
].filter((route) => !isPublic(route));
