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

/** Lazy routes for the three screens of one module, loaded once on first use. */
function screensOf(load: () => Promise<ScreensModule>): Screens {
  const screen =
    (name: keyof ScreensModule): Lazy =>
    async () => ({ Component: (await load())[name] });
  return { list: screen("List"), form: screen("Form"), detail: screen("Detail") };
}

/** The four routes of a resource: list, create, detail and edit. */
function crud(resource: string, screens: Screens): RouteObject[] {
  return [
    route(`/${resource}`, screens.list),
    route(`/${resource}/create`, screens.form),
    route(`/${resource}/:itemId`, screens.detail),
    route(`/${resource}/:itemId/edit`, screens.form),
  ];
}

/** The studyplan screens, loaded once on first use. */
const studyplans =
  (name: "List" | "Editor" | "Detail"): Lazy =>
  async () => ({ Component: (await import("./studyplans/studyplan-screens"))[name] });

const therapyCategories = screensOf(() => import("./therapy-categories/therapy-category-screens"));
const therapyAreas = screensOf(() => import("./therapy-areas/therapy-area-screens"));

/** The public detail pages (spec §2.1): no sign-in needed. */
export const publicResourceRoutes: RouteObject[] = [
  route("/therapy-categories/:itemId", therapyCategories.detail),
  route("/therapy-areas/:itemId", therapyAreas.detail),
];

const isPublic = (route: RouteObject) => publicResourceRoutes.some((p) => p.path === route.path);

/** The signed-in routes; the two public detail paths are left out here (they live above). */
export const resourceRoutes: RouteObject[] = [
  ...crud("therapy-categories", therapyCategories),
  ...crud("therapy-areas", therapyAreas),
  ...crud(
    "sites",
    screensOf(() => import("./sites/site-screens")),
  ),
  ...crud(
    "partners",
    screensOf(() => import("./partners/partner-screens")),
  ),
  ...crud(
    "projects",
    screensOf(() => import("./projects/project-screens")),
  ),
  ...crud(
    "studies",
    screensOf(() => import("./studies/study-screens")),
  ),
  ...crud(
    "patients",
    screensOf(() => import("./patients/patient-screens")),
  ),
  ...crud(
    "study-patients",
    screensOf(() => import("./study-patients/study-patient-screens")),
  ),
  ...crud(
    "patient-visits",
    screensOf(() => import("./patient-visits/patient-visit-screens")),
  ),
  ...crud(
    "visits",
    screensOf(() => import("./visits/visit-screens")),
  ),
  ...crud(
    "users",
    screensOf(() => import("./users/user-screens")),
  ),
  ...crud(
    "monitors",
    screensOf(() => import("./monitors/monitor-screens")),
  ),
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
  // The per-study patient visit summary grid (spec §2.5).
  route("/visit-summary/:studyUuid", async () => ({
    Component: (await import("./visit-summary/visit-summary-screen")).VisitSummaryScreen,
  })),
].filter((route) => !isPublic(route));
