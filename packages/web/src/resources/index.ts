import { createElement } from "react";
import type { RouteObject } from "react-router";

/**
 * Every route of spec §2.1 for the resources, each lazily loaded per resource. A resource whose
 * screens are not built yet routes to a page that says so.
 */
type Lazy = NonNullable<RouteObject["lazy"]>;

const notBuilt =
  (title: string): Lazy =>
  async () => {
    const { NotBuiltScreen } = await import("./not-built");
    return { Component: () => createElement(NotBuiltScreen, { title }) };
  };

/** The four routes of a resource: list, create, detail and edit. */
function crud(resource: string, screens: { list: Lazy; form: Lazy; detail: Lazy }): RouteObject[] {
  return [
    { path: `/${resource}`, lazy: screens.list },
    { path: `/${resource}/create`, lazy: screens.form },
    { path: `/${resource}/:itemId`, lazy: screens.detail },
    { path: `/${resource}/:itemId/edit`, lazy: screens.form },
  ];
}

function notBuiltCrud(resource: string, title: string): RouteObject[] {
  const lazy = notBuilt(title);
  return crud(resource, { list: lazy, form: lazy, detail: lazy });
}

const therapyCategories = {
  list: async () => ({
    Component: (await import("./therapy-categories/therapy-category-screens")).TherapyCategoryList,
  }),
  form: async () => ({
    Component: (await import("./therapy-categories/therapy-category-screens")).TherapyCategoryForm,
  }),
  detail: async () => ({
    Component: (await import("./therapy-categories/therapy-category-screens")).TherapyCategoryDetail,
  }),
} satisfies Record<string, Lazy>;
const therapyAreas = {
  list: async () => ({ Component: (await import("./therapy-areas/therapy-area-screens")).TherapyAreaList }),
  form: async () => ({ Component: (await import("./therapy-areas/therapy-area-screens")).TherapyAreaForm }),
  detail: async () => ({
    Component: (await import("./therapy-areas/therapy-area-screens")).TherapyAreaDetail,
  }),
} satisfies Record<string, Lazy>;

/** The public detail pages (spec §2.1): no sign-in needed. */
export const publicResourceRoutes: RouteObject[] = [
  { path: "/therapy-categories/:itemId", lazy: therapyCategories.detail },
  { path: "/therapy-areas/:itemId", lazy: therapyAreas.detail },
];

const isPublic = (route: RouteObject) => publicResourceRoutes.some((p) => p.path === route.path);

/** The signed-in routes; the two public detail paths are left out here (they live above). */
export const resourceRoutes: RouteObject[] = [
  ...crud("therapy-categories", therapyCategories),
  ...crud("therapy-areas", therapyAreas),
  ...notBuiltCrud("sites", "Sites"),
  ...notBuiltCrud("partners", "Partners"),
  ...notBuiltCrud("projects", "Projects"),
  ...notBuiltCrud("studies", "Studies"),
  ...notBuiltCrud("patients", "Patients"),
  ...notBuiltCrud("study-patients", "Study patients"),
  ...notBuiltCrud("patient-visits", "Patient visits"),
  ...notBuiltCrud("visits", "Visits"),
  ...notBuiltCrud("users", "Users"),
  ...notBuiltCrud("monitors", "Monitors"),
  { path: "/studyplans", lazy: notBuilt("Studyplans") },
  { path: "/studies/:studyUuid/studyplans/create", lazy: notBuilt("Studyplans") },
  { path: "/studyplans/:studyplanUuid/edit", lazy: notBuilt("Studyplans") },
  { path: "/studyplans/:studyplanUuid", lazy: notBuilt("Studyplans") },
  { path: "/visit-summary/:studyUuid", lazy: notBuilt("Visit summary") },
].filter((route) => !isPublic(route));
