import { loadConfig } from "../config";
import { type Database, openDatabase } from "../db/client";
import { exitOnStartFailure } from "../db/data-dir-lock";
import { demoAdmin } from "./factories";
import { seed } from "./seed";

/**
 * npm run seed: migrates, then writes the demo data (existing rows and accounts are kept). An
 * embedded data folder in use by a running server is refused (exit 1): stop the server first.
 */
const config = loadConfig();
let database: Database | null = null;
try {
  database = await openDatabase(config);
  await database.migrate();
  const embedded = database.kind === "pglite";
  await seed(database.db, { demoAdmin: embedded });
  console.log(`Demo data written to ${embedded ? config.dataDir : "the PostgreSQL database"}.`);
  console.log(
    embedded
      ? `Sign in as ${demoAdmin.email} / ${demoAdmin.password}`
      : "No demo administrator on a real PostgreSQL: run npm run create-admin -- EMAIL PASSWORD",
  );
  await database.close();
} catch (error) {
  await database?.close().catch(() => {});
  exitOnStartFailure(error);
}
