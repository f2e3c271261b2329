import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { Deps } from "../deps";
import { send } from "../http/envelope";
import { parseQuery } from "../resources/resource";
import { auditTrail } from "./audit";

export const auditQuery = z.strictObject({
  resource: z.string().min(1).max(40),
  uuid: z.string().min(1).max(80),
});

/** GET /api/audit?resource&uuid → a record's history, newest first. */
export function auditRoutes(app: FastifyInstance, { db }: Deps) {
  app.get("/api/audit", { schema: { querystring: auditQuery, tags: ["audit"] } }, async (request, reply) => {
    const query = parseQuery(auditQuery, request.query);
    return send(request, reply, { items: await auditTrail(db, query.resource, query.uuid) });
  });
}
