// The server suite with the database layer's fast paths off, on PGlite, alone (the `server-plain`
// project of the root vitest.config.ts, which `test:unit` runs beside the others when
// TEST_DATABASE_URL is set; without it the server project runs on PGlite with the fast paths).
import { spawnSync } from "node:child_process";

if (!process.env.TEST_DATABASE_URL) {
  console.log("test:plain: no TEST_DATABASE_URL, so the fast paths' plain run is not part of this setup");
  process.exit(0);
}
const run = spawnSync("node_modules/.bin/vitest", ["run", "--project", "server-plain"], { stdio: "inherit" });
process.exit(run.status ?? 1);
