import { buildApp } from "./app";
import { loadConfig } from "./config";
import { openDatabase } from "./db/client";
import { demoAdmin, upsertAdmin } from "./seed/factories";
import { isEmpty, seed } from "./seed/seed";

/** npm start: migrate, seed an empty embedded database, listen; close cleanly on SIGTERM/SIGINT. */
const config = loadConfig();
const database = await openDatabase(config);
await database.migrate();
const embedded = database.kind === "pglite";
const empty = await isEmpty(database.db);
const seeding = config.seed === "always" || (config.seed === "auto" && embedded && empty);
if (seeding) await seed(database.db, { demoAdmin: embedded });
if (config.adminEmail && config.adminPassword) {
  await upsertAdmin(database.db, { email: config.adminEmail, password: config.adminPassword });
}

const app = await buildApp({ config, db: database.db });
let closing = false;
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  app.log.info({ signal }, "shutting down");
  const force = setTimeout(() => process.exit(1), 10_000);
  force.unref();
  try {
    await app.close();
    await database.close();
  } finally {
    process.exit(0);
  }
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));

await app.listen({ port: config.port, host: config.host });
const url = `http://localhost:${config.port}`;
console.log(`\nTrialdesk is running at ${url}  (API docs: ${url}/api/docs)`);
console.log(
  embedded ? `Database: embedded PGlite in ${config.dataDir}` : "Database: PostgreSQL (DATABASE_URL)",
);
if (embedded) console.log(`Demo sign-in: ${demoAdmin.email} / ${demoAdmin.password}\n`);
else if (empty && !config.adminEmail)
  console.log("No users yet: set ADMIN_EMAIL and ADMIN_PASSWORD or run npm run create-admin\n");
