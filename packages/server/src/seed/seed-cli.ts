import { loadConfig } from "../config";
import { openDatabase } from "../db/client";
import { demoAdmin } from "./factories";
import { seed } from "./seed";

/** npm run seed: migrates, then writes the demo data (existing rows are kept). */
const config = loadConfig();
const database = await openDatabase(config);
try {
  await database.migrate();
  const embedded = database.kind === "pglite";
  await seed(database.db, { demoAdmin: embedded });
  console.log(`Demo data written to ${embedded ? config.dataDir : "the PostgreSQL database"}.`);
  console.log(
    embedded
      ? `Sign in as ${demoAdmin.email} / ${demoAdmin.password}`
      : "No demo administrator on a real PostgreSQL: run npm run create-admin -- EMAIL PASSWORD",
  );
} finally {
  await database.close();
}
