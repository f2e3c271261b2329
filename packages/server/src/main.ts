import type { FastifyInstance } from "fastify";
import { buildApp } from "./app";
import { loadConfig } from "./config";
import { type Database, openDatabase } from "./db/client";
import { exitOnStartFailure } from "./db/data-dir-lock";
import { demoAdmin } from "./seed/demo-constants";
import { prepareDatabase } from "./startup";

/**
 * npm start: lock the embedded data folder, migrate, seed an empty embedded database, create the
 * ADMIN_EMAIL administrator once, listen; SIGTERM/SIGINT stop it gracefully (in-flight requests
 * finish, the database closes) within 10 s.
 */
const config = loadConfig();
let database: Database | null = null;
let app: FastifyInstance | null = null;
let closing = false;

async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  console.log(`${signal}: shutting down`);
  const force = setTimeout(() => {
    console.error("Shutdown took too long; exiting");
    process.exit(1);
  }, 9_000);
  force.unref();
  try {
    await app?.close();
    await database?.close();
  } finally {
    process.exit(0);
  }
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));

try {
  database = await openDatabase(config);
  const embedded = database.kind === "pglite";
  const prepared = await prepareDatabase(database, config);
  for (const message of prepared.messages) console.log(message);
  app = await buildApp({ config, db: database.db });
  if (closing) process.exit(0);
  await app.listen({ port: config.port, host: config.host });
  const { port } = app.server.address() as { port: number }; // PORT=0 takes a free one
  const url = `http://localhost:${port}`;
  console.log(`\nTrialdesk is running at ${url}  (API docs: ${url}/api/docs)`);
  console.log(
    embedded ? `Database: embedded PGlite in ${config.dataDir}` : "Database: PostgreSQL (DATABASE_URL)",
  );
  if (config.host !== "127.0.0.1" && config.host !== "localhost")
    console.log(`Listening on ${config.host} (HOST): reachable from other machines.`);
  if (embedded) console.log(`Demo sign-in: ${demoAdmin.email} / ${demoAdmin.password}\n`);
  else if (prepared.empty && !config.adminEmail)
    console.log("No users yet: set ADMIN_EMAIL and ADMIN_PASSWORD or run npm run create-admin\n");
} catch (error) {
  await database?.close().catch(() => {});
  exitOnStartFailure(error);
}
