import type { FastifyInstance } from "fastify";

/** The patient lookup rows: sorted by name, 100 a page (spec §7), unless the caller says otherwise. */
export const patientLookupPageSize = "100";

/**
 * GET /api/patients?forSelect=true&siteId&onlyAssigned=true&search=… (spec §7) is the patient lookup:
 * the same scoped list in the select format (id, uuid, barcode, firstName, lastName, ssn,
 * projectInternalCode), `search` as its search term, sorted by name ascending, 100 a page. It is
 * rewritten into the list's own parameters before validation, so scope, filters and limits stay
 * the resource's.
 */
export function patientLookupRoutes(app: FastifyInstance) {
  app.addHook("onRequest", async (request) => {
    if (request.method !== "GET" || request.routeOptions.url !== "/api/patients") return;
    const { forSelect, search, ...rest } = (request.query ?? {}) as Record<string, unknown>;
    if (forSelect !== "true") return;
    request.query = {
      order: "name",
      direction: "asc",
      pagesize: patientLookupPageSize,
      ...rest,
      ...(search === undefined ? {} : { searchTerm: search }),
      format: "select",
    };
  });
}
