import { rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { openPglite, openPostgres } from "../src/db/client";

declare module "vitest" {
  interface ProvidedContext {
    pgliteDump: string;
    postgresTemplate: string | null;
  }
}

/** Admin connection URL → the same server with another database name. */
export function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/** What a run's test databases are: the PGlite dump's file and the PostgreSQL template's name. */
type TestDatabases = { dumpPath: string; template: string | null };

/**
 * Migrates once per run: a PGlite data dir dumped to a file (each test file loads it, ~10× faster
 * than migrating), and, when TEST_DATABASE_URL is set, a PostgreSQL template database that each
 * test file copies with CREATE DATABASE … TEMPLATE.
 */
async function migrateTestDatabases(): Promise<TestDatabases> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  const template = adminUrl ? `trialdesk_test_template_${process.pid}` : null;
  // Both migrate at once: PGlite works in this process, PostgreSQL in its own server.
  const [dumpPath] = await Promise.all([
    (async () => {
      const lite = await openPglite();
      await lite.migrate();
      const client = (
        lite.db as unknown as {
          $client: { exec: (sql: string) => Promise<unknown>; dumpDataDir: (c: "none") => Promise<Blob> };
        }
      ).$client;
      // The tests use PGlite's own database only: without the two templates beside it, the dump each
      // test file unpacks is 29 MB instead of 44 (decision 259).
      for (const unused of ["template0", "template1"]) {
        await client.exec(`ALTER DATABASE ${unused} IS_TEMPLATE false`);
        await client.exec(`DROP DATABASE ${unused}`);
      }
      const dump = await client.dumpDataDir("none");
      const file = path.join(os.tmpdir(), `trialdesk-test-${process.pid}.tar`);
      await writeFile(file, Buffer.from(await dump.arrayBuffer()));
      await lite.close();
      return file;
    })(),
    (async () => {
      if (!adminUrl || !template) return;
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${template}`);
      await admin.query(`CREATE DATABASE ${template}`);
      await admin.end();
      const database = openPostgres(withDatabase(adminUrl, template), 1);
      await database.migrate();
      await database.close();
    })(),
  ]);
  return { dumpPath, template };
}

/**
 * The server projects of a run (the server suite and its plain run, root vitest.config.ts) share one
 * set of test databases: Vitest sets projects up one after another, and each migrating its own took
 * ~5 s more before any test ran. Kept on globalThis, as each project loads this file afresh.
 */
const shared = globalThis as { trialdeskTestDatabases?: Promise<TestDatabases> };

export default async function setup(project: TestProject) {
  const started = Date.now();
  const first = !shared.trialdeskTestDatabases;
  shared.trialdeskTestDatabases ??= migrateTestDatabases();
  const { dumpPath, template } = await shared.trialdeskTestDatabases;
  project.provide("pgliteDump", dumpPath);
  project.provide("postgresTemplate", template);
  console.log(
    `${project.name}: test databases ${first ? `migrated in ${Date.now() - started} ms` : "shared with the project before"}${template ? " (PGlite and PostgreSQL)" : " (PGlite)"}`,
  );

  // Vitest tears projects down after the whole run; the second teardown finds nothing left.
  return async () => {
    await rm(dumpPath, { force: true });
    const adminUrl = process.env.TEST_DATABASE_URL;
    if (adminUrl && template) {
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`);
      await admin.end();
    }
  };
}
