import { defineConfig } from "vitest/config";
import LongFirst from "./packages/server/test/long-first.ts";

/**
 * Each database once, and the fast paths' plain run (FAST_PATHS=off: plain library calls, decision 250)
 * on one of them (decision 260). Without TEST_DATABASE_URL the server suite runs on PGlite with the
 * fast paths. With it, the server suite runs on PostgreSQL with the fast paths (where named statements
 * matter), and once more on PGlite with them off (`server-plain`): every file then runs twice, not three
 * times, and each database, each setting of the switch, is asked the whole suite.
 */
const server = (name: string, env: Record<string, string>) => ({
  extends: "./packages/server/vitest.config.ts",
  root: "./packages/server",
  test: { name, env },
});

export default defineConfig({
  test: {
    // The server's files first, four at a time (packages/server/vitest.config.ts), one project after
    // another and the longest first (packages/server/test/long-first.ts); then the domain's and the
    // web's, one per core.
    sequence: { sequencer: LongFirst },
    projects: [
      "packages/domain",
      ...(process.env.TEST_DATABASE_URL
        ? [
            server("server", { TEST_DATABASE_KINDS: "postgres" }),
            server("server-plain", { FAST_PATHS: "off", TEST_DATABASE_KINDS: "pglite" }),
          ]
        : ["packages/server"]),
      "packages/web",
    ],
  },
});
