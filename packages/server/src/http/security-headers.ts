import type { FastifyInstance } from "fastify";
import helmet from "helmet";

/** HSTS of an answer served over HTTPS (a year, subdomains too; no preload, which is the operator's to ask for). */
export const hstsHeader = "max-age=31536000; includeSubDomains";

/**
 * Helmet's security headers on every answer: a content security policy that lets the web app load
 * only its own scripts and styles (images also from data: URLs), no upgrade of insecure requests (the
 * app is also served over plain HTTP on a local network). Styles come from the app's own files, with
 * no https: source and no inline style attribute; only a <style> element may be inline, as Radix's
 * scroll lock (react-remove-scroll) writes one while the confirmation dialog is open (issue 46, see
 * the decisions). HSTS only on an answer served over HTTPS, as the request's protocol says (behind
 * TRUST_PROXY, the proxy's X-Forwarded-Proto): never over plain HTTP, which would ask browsers to
 * refuse a server that has no TLS. Helmet's middleware is made once: @fastify/helmet made it anew for
 * every request (its options read, its policy written), ~1.5% of the server's time (issue 14).
 */
export function registerSecurityHeaders(app: FastifyInstance) {
  const apply = helmet({
    contentSecurityPolicy: {
      useDefaults: true,
      directives: {
        "upgrade-insecure-requests": null,
        "img-src": ["'self'", "data:"],
        "style-src": ["'self'"],
        "style-src-elem": ["'self'", "'unsafe-inline'"],
      },
    },
    hsts: false,
  });
  // Helmet only sets headers; it throws rather than passing an error on.
  app.addHook("onRequest", (request, reply, done) => {
    if (request.protocol === "https") reply.raw.setHeader("strict-transport-security", hstsHeader);
    apply(request.raw, reply.raw, done as (error?: unknown) => void);
  });
}
