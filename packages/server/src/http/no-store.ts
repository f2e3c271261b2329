import type { FastifyInstance } from "fastify";

/**
 * API answers carry patient data and tokens: no browser or proxy cache may keep them
 * (Cache-Control: no-store on every /api answer, errors included).
 */
export function registerNoStore(app: FastifyInstance) {
  app.addHook("onRequest", async (request, reply) => {
    if (request.url.startsWith("/api/") || request.url === "/api") reply.header("cache-control", "no-store");
  });
}
