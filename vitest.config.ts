import { defineConfig } from "vitest/config";

/**
 * The server suite once more with the database layer's fast paths off (FAST_PATHS=off: plain library
 * calls, decision 250), on PostgreSQL, where they matter. Without TEST_DATABASE_URL there is nothing
 * more to learn: PGlite has no named statements, and the server project ran its suite already.
 */
const serverPlain = {
  extends: "./packages/server/vitest.config.ts",
  root: "./packages/server",
  test: { name: "server-plain", env: { FAST_PATHS: "off", TEST_DATABASE_KINDS: "postgres" } },
};

export default defineConfig({
  test: {
    // The server's files first, four at a time (see packages/server/vitest.config.ts), with and
    // without the fast paths in one pool, then the domain's and the web's, one per core.
    projects: [
      "packages/domain",
      "packages/server",
      ...(process.env.TEST_DATABASE_URL ? [serverPlain] : []),
      "packages/web",
    ],
  },
});
