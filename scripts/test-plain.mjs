// The server suite once more with the database layer's fast paths off (FAST_PATHS=off: plain library
// calls, decision 250), on PostgreSQL, where they matter. Without TEST_DATABASE_URL there is nothing
// more to learn: PGlite has no named statements, and `test:unit` ran its suite already.
import { spawnSync } from "node:child_process";

if (!process.env.TEST_DATABASE_URL) {
  console.log("test:plain: no TEST_DATABASE_URL, so the fast paths' plain run is skipped");
  process.exit(0);
}
const run = spawnSync("node_modules/.bin/vitest", ["run", "--project", "server"], {
  stdio: "inherit",
  env: { ...process.env, FAST_PATHS: "off", TEST_DATABASE_KINDS: "postgres" },
});
process.exit(run.status ?? 1);
