import type { FastifyInstance } from "fastify";
import helmet from "helmet";

/**
 * Helmet's security headers on every answer: a content security policy that lets the web app load
 * only its own scripts and styles (images also from data: URLs), no HSTS (TLS ends in front of the
 * server, which decides it), no upgrade of insecure requests (the app is also served over plain HTTP
 * on a local network). Helmet's middleware is made once: @fastify/helmet made it anew for every
 * request (its options read, its policy written), ~1.5% of the server's time (issue 14).
 */
export function registerSecurityHeaders(app: FastifyInstance) {
  const apply = helmet({
    contentSecurityPolicy: {
      useDefaults: true,
      directives: { "upgrade-insecure-requests": null, "img-src": ["'self'", "data:"] },
    },
    hsts: false,
  });
  // Helmet only sets headers; it throws rather than passing an error on.
  app.addHook("onRequest", (request, reply, done) =>
    apply(request.raw, reply.raw, done as (error?: unknown) => void),
  );
}
