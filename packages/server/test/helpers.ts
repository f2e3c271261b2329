import { randomBytes } from "node:crypto";
import { openAsBlob } from "node:fs";
import { changeReasonHeader, type Envelope, type ListData } from "@trialdesk/domain";
import { sql } from "drizzle-orm";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import type { FastifyInstance, InjectOptions } from "fastify";
import pg from "pg";
import { afterAll, beforeAll, expect, inject } from "vitest";
import type { z } from "zod";
import { buildApp } from "../src/app";
import { type Config, loadConfig } from "../src/config";
import { type Database, type Db, openPostgres, pgliteDatabase, type Tx } from "../src/db/client";
import { createSite, createUser, type UserOptions } from "../src/seed/factories";
import { seed } from "../src/seed/seed";
import { withDatabase } from "./global-setup";
import { migratedPglite } from "./pglite-instances";

export type DatabaseKind = "pglite" | "postgres";

/**
 * The database kinds this run tests on: PGlite always, PostgreSQL when TEST_DATABASE_URL is set; with it,
 * the root vitest.config.ts gives each of its two server projects one kind (TEST_DATABASE_KINDS).
 */
const askedKinds = process.env.TEST_DATABASE_KINDS?.split(",") ?? ["pglite", "postgres"];
/** Every database kind this machine can test on, whichever the run asks (for the few files that need both). */
export const everyDatabaseKind: DatabaseKind[] = inject("postgresTemplate")
  ? ["pglite", "postgres"]
  : ["pglite"];
export const databaseKinds: DatabaseKind[] = everyDatabaseKind.filter((kind) => askedKinds.includes(kind));

/**
 * A copy of the migrated PostgreSQL template for one test file (or, `migrated: false`, a new empty
 * database): its URL, and how to drop it.
 */
export async function postgresCopy({
  migrated = true,
} = {}): Promise<{ url: string; drop: () => Promise<void> }> {
  const adminUrl = process.env.TEST_DATABASE_URL as string;
  const name = `trialdesk_test_${randomBytes(6).toString("hex")}`;
  const asAdmin = async (...statements: string[]) => {
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    try {
      for (const statement of statements) await admin.query(statement);
    } finally {
      await admin.end();
    }
  };
  // A test database needs no durability, and copied as files it is made with less of the server's
  // time than block by block through the WAL (PostgreSQL 15's default): decision 256.
  await asAdmin(
    `CREATE DATABASE ${name}${migrated ? ` TEMPLATE ${inject("postgresTemplate")}` : ""} STRATEGY = FILE_COPY`,
    `ALTER DATABASE ${name} SET synchronous_commit = off`,
  );
  return {
    url: withDatabase(adminUrl, name),
    drop: () => asAdmin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

/**
 * The migrated PGlite dump, as a Blob of the file itself: PGlite reads it once as it unpacks it, where a
 * Blob made from the file's bytes copied the dump twice more, a third of an instance's start (decision 259).
 */
export const migratedDump = () => openAsBlob(inject("pgliteDump"));

/** A fresh, migrated database for one test file; on PostgreSQL, a pool of `connections`. */
export async function freshDatabase(kind: DatabaseKind, connections = 4): Promise<Database> {
  if (kind === "pglite") {
    // Closing it hands the instance back, to be put back as migrated for the next (decision 262).
    const { client, handBack } = await migratedPglite(migratedDump);
    return { ...pgliteDatabase(client), close: async () => handBack() };
  }
  const copy = await postgresCopy();
  const database = openPostgres(copy.url, connections);
  bulkLoadUrls.set(database.db, copy.url);
  return {
    ...database,
    close: async () => {
      await database.close();
      await copy.drop();
    },
  };
}

/** The URL of each PostgreSQL test database, for bulkLoad's own connection. */
const bulkLoadUrls = new WeakMap<Db, string>();

/**
 * Loads a test's bulk data in one transaction without the app's statement timeout: tens of thousands
 * of rows can take longer than a request may on a busy CI machine, and that is not what is tested.
 * Then `finish` (the planner's statistics, by default) for the queries the test then asks. On
 * PostgreSQL both run on a plain connection of their own: the app's pool would also cut the connection
 * of a statement still unanswered past its timeout (the stall guard, db/client.ts).
 */
export async function bulkLoad(
  db: Db,
  load: (tx: Tx) => Promise<void>,
  finish: "analyze" | `vacuum analyze ${string}` = "analyze",
): Promise<void> {
  const url = bulkLoadUrls.get(db);
  if (!url) {
    await db.transaction(async (tx) => {
      await tx.execute(sql`set local statement_timeout = 0`);
      await load(tx);
    });
    await db.execute(sql.raw(finish));
    return;
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await drizzlePg({ client, casing: "snake_case" }).transaction((tx) => load(tx as unknown as Tx));
    await client.query(finish);
  } finally {
    await client.end();
  }
}

export type Session = { accessToken: string; csrfToken: string; cookie: string; userId: number };

export type TestApp = {
  app: FastifyInstance;
  database: Database;
  config: Config;
  request: <T = unknown>(
    options: InjectOptions & { session?: Session },
  ) => Promise<{
    status: number;
    body: Envelope<T>;
    headers: Record<string, unknown>;
    cookies: { name: string; value: string }[];
  }>;
  signIn: (email: string, password: string) => Promise<Session>;
  /** Creates a user and signs them in. */
  signedInUser: (options?: UserOptions) => Promise<Session>;
  close: () => Promise<void>;
};

export const testConfig = (overrides: Partial<Config> = {}): Config => ({
  ...loadConfig({}),
  logLevel: "silent",
  webDist: "/nonexistent-web-dist",
  // Exports cross their batch boundaries with a few dozen rows, not 500 built one by one.
  exportBatchRows: 25,
  ...overrides,
});

/** Builds the real app (buildApp, as npm start does) on a fresh database; requests go through inject. */
export async function startApp(
  kind: DatabaseKind,
  options: { config?: Partial<Config>; database?: Database; routes?: (app: FastifyInstance) => void } = {},
): Promise<TestApp> {
  const { database } = options;
  const db = database ?? (await freshDatabase(kind));
  const config = testConfig(options.config);
  const app = await buildApp({ config, db: db.db, logger: false });
  options.routes?.(app);
  await app.ready();

  const request: TestApp["request"] = async ({ session, ...options }) => {
    const headers: Record<string, string> = { ...(options.headers as Record<string, string>) };
    if (session) {
      headers.authorization ??= `Bearer ${session.accessToken}`;
      if (options.method && options.method !== "GET") headers["x-csrf-token"] ??= session.csrfToken;
    }
    const response = await app.inject({ ...options, headers });
    let body: Envelope<never>;
    try {
      body = response.json();
    } catch {
      body = response.body as never;
    }
    return { status: response.statusCode, body, headers: response.headers, cookies: response.cookies };
  };

  const signIn = async (email: string, password: string): Promise<Session> => {
    const response = await app.inject({
      method: "POST",
      url: "/api/auth",
      payload: { username: email, password },
    });
    if (response.statusCode !== 200) throw new Error(`sign-in failed: ${response.body}`);
    const data = response.json().data;
    const cookie = response.cookies.find((c) => c.name === "trialdesk_refresh")?.value as string;
    return { accessToken: data.accessToken, csrfToken: data.csrfToken, cookie, userId: data.user.id };
  };

  return {
    app,
    database: db,
    config,
    request,
    signIn,
    signedInUser: async (options = {}) => {
      const user = await createUser(db.db, options);
      return signIn(user.email, user.password);
    },
    close: async () => {
      await app.close();
      if (!database) await db.close();
    },
  };
}

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** The zod def beneath optional / nullable / default / pipe wrappers. */
function unwrap(schema: z.ZodType): z.ZodType {
  let current = schema;
  for (let i = 0; i < 10; i++) {
    const def = current._zod.def as { type: string; innerType?: z.ZodType; in?: z.ZodType };
    if (def.innerType) current = def.innerType;
    else if (def.type === "pipe" && def.in) current = def.in;
    else break;
  }
  return current;
}

/** A read record cut down to what the wire schema accepts (view-only fields and timestamps go). */
export function toInput(value: Json, schema: z.ZodType): Json {
  const inner = unwrap(schema);
  const def = inner._zod.def as { type: string; shape?: Record<string, z.ZodType>; element?: z.ZodType };
  if (def.type === "object" && def.shape && value && typeof value === "object" && !Array.isArray(value)) {
    const shape = def.shape;
    return Object.fromEntries(
      Object.entries(value)
        .filter(([key]) => key in shape)
        .map(([key, v]) => [key, toInput(v, shape[key])]),
    );
  }
  if (def.type === "array" && def.element && Array.isArray(value)) {
    const element = def.element;
    return value.map((v) => toInput(v, element));
  }
  return value;
}

/**
 * The reason a test gives for an edit or deletion of recorded clinical data (patients, assignments,
 * patient visits), which the server refuses without one (issue 46, point 1).
 */
export const withReason = (reason = "Source corrected") => ({ [changeReasonHeader]: reason });

/**
 * One resource's API as a signed-in user — the default session, or another per call — answering
 * what `t.request` answers. Made before the app starts (describe time), so it takes getters.
 * Updates and deletions give `reason` (withReason) when told one.
 */
export function resourceClient<T, Row = T>(
  app: () => TestApp,
  name: string,
  session: () => Session,
  { reason }: { reason?: string } = {},
) {
  const url = `/api/${name}`;
  const headers = reason ? withReason(reason) : {};
  return {
    create: (payload: object, as = session()) =>
      app().request<T>({ method: "POST", url, session: as, payload }),
    update: (uuid: string, payload: object, as = session()) =>
      app().request<T>({ method: "PUT", url: `${url}/${uuid}`, session: as, payload, headers }),
    get: (id: string, as = session()) =>
      app().request<T>({ method: "GET", url: `${url}/${id}`, session: as }),
    list: <R = Row>(query: string, as = session()) =>
      app().request<ListData<R>>({ method: "GET", url: `${url}?${query}`, session: as }),
    remove: (uuid: string, as = session()) =>
      app().request<{ deleted: boolean }>({ method: "DELETE", url: `${url}/${uuid}`, session: as, headers }),
  };
}

/** A create's answer: 201 and the new record — an id, the client's uuid, version 1 — and exactly `fields`. */
export function expectCreated(
  res: { status: number; body: Envelope<unknown> },
  uuid: unknown,
  fields: object,
) {
  expect(res.status).toBe(201);
  expect(res.body.data).toEqual({ id: expect.any(Number), uuid, version: 1, ...fields });
}

/**
 * What the site-scoped tests start from: two sites, an administrator, and a staff member of the first
 * site only (`staffOptions` for a name the test reads back).
 */
export async function twoSites(t: TestApp, staffOptions: UserOptions = {}) {
  const siteA = await createSite(t.database.db);
  const siteB = await createSite(t.database.db);
  const admin = await t.signedInUser({ isAdmin: true });
  const staffA = await t.signedInUser({ ...staffOptions, siteIds: [siteA.id] });
  return { siteA, siteB, admin, staffA };
}

/** The app of one describe block on a fresh database, and a user signed in to it (made by `user`). */
export function appWithUser(kind: DatabaseKind, user: UserOptions): { t: TestApp; session: Session } {
  const t = {} as TestApp;
  const session = {} as Session;
  beforeAll(async () => {
    Object.assign(t, await startApp(kind));
    Object.assign(session, await t.signedInUser(user));
  });
  afterAll(() => t.close());
  return { t, session };
}

/**
 * The app of one describe block on the demo data, seeded twice (a second seed must add nothing);
 * `demoAdmin` as the embedded database seeds it. Filled in before the block's tests run.
 */
export function seededApp(kind: DatabaseKind, options = { demoAdmin: true }): TestApp {
  const t = {} as TestApp;
  beforeAll(async () => {
    Object.assign(t, await startApp(kind));
    await seed(t.database.db, options);
    await seed(t.database.db, options);
  });
  afterAll(() => t.close());
  return t;
}
