import { existsSync } from "node:fs";
import path from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";

/**
 * Serves the built web app (packages/web/dist, WEB_DIST to override). Any non-/api GET that asks
 * for HTML gets index.html, so deep links into the single-page app work after a reload.
 */
export async function registerWebApp(app: FastifyInstance, webDist: string) {
  const built = existsSync(path.join(webDist, "index.html"));
  if (built) {
    await app.register(fastifyStatic, {
      root: webDist,
      prefix: "/",
      // The build's .br and .gz siblings, sent as they are (the web build's precompress); a file
      // without them is compressed per request (compression.ts).
      preCompressed: true,
      // Hashed assets never change; index.html must always be fresh.
      setHeaders: (reply, file) =>
        reply.header(
          "Cache-Control",
          file.includes(`${path.sep}assets${path.sep}`) ? "public, max-age=31536000, immutable" : "no-cache",
        ),
    });
  }
  /** The SPA fallback for the not-found handler; true when it answered. */
  return (request: FastifyRequest, reply: FastifyReply): boolean => {
    const wantsPage =
      (request.method === "GET" || request.method === "HEAD") &&
      !request.url.startsWith("/api/") &&
      request.url !== "/api" &&
      (request.headers.accept ?? "").includes("text/html");
    if (!wantsPage) return false;
    if (built) {
      reply.header("Cache-Control", "no-cache").sendFile("index.html");
    } else {
      reply
        .type("text/html")
        .send("<!doctype html><p>The web app is not built yet: run <code>npm run build</code>.</p>\n");
    }
    return true;
  };
}
