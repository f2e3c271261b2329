import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { renderRoutes, stubApi } from "../screens/test-utils";
import { publicResourceRoutes, resourceRoutes } from "./index";

const resources = [
  "therapy-categories",
  "therapy-areas",
  "sites",
  "partners",
  "projects",
  "studies",
  "patients",
  "study-patients",
  "patient-visits",
  // Issue 43.
  "protocol-deviations",
  // Issue 44.
  "queries",
  // Issue 45.
  "earnings",
  "statements",
  "payments",
  "visits",
  "users",
  "monitors",
];
const publicPaths = ["/therapy-categories/:itemId", "/therapy-areas/:itemId"];

describe("resource routes", () => {
  it("has every route of spec §2.1, the two public details only among the public routes", () => {
    const paths = resourceRoutes.map((r) => r.path);
    const expected = resources.flatMap((r) => [
      `/${r}`,
      `/${r}/create`,
      `/${r}/:itemId`,
      `/${r}/:itemId/edit`,
    ]);
    for (const path of [
      ...expected.filter((p) => !publicPaths.includes(p)),
      "/studyplans",
      "/studies/:studyUuid/studyplans/create",
      "/studyplans/:studyplanUuid/edit",
      "/studyplans/:studyplanUuid",
      "/visit-summary/:studyUuid",
      "/source-verification",
      "/finance/aging",
    ]) {
      expect(paths).toContain(path);
    }
    expect(new Set(paths).size).toBe(paths.length);
    expect(publicResourceRoutes.map((r) => r.path)).toEqual(publicPaths);
    for (const path of publicPaths) expect(paths).not.toContain(path);
  });

  it("loads a screen lazily; a patient screen without an active site asks for one", async () => {
    stubApi((call) =>
      call.path === "/api/therapy-categories"
        ? { data: { items: [], pagination: { page: 1, pageSize: 10, total: 0 } } }
        : undefined,
    );
    renderRoutes(resourceRoutes, ["/patient-visits/create"]);
    // The first load of a screen's module takes a while on a busy machine.
    expect(await screen.findByText("Please select a site first", {}, { timeout: 5000 })).toBeInTheDocument();
    renderRoutes(resourceRoutes, ["/therapy-categories"]);
    expect(await screen.findByRole("heading", { name: "Therapy categories" })).toBeInTheDocument();
  });
});
