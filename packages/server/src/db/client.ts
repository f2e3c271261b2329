import { mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import type { SQL } from "drizzle-orm";
import { sql } from "drizzle-orm";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import { lockDataDir } from "./data-dir-lock";
import {
  answered,
  namedIfPrepared,
  namedViews,
  PreparingPool,
  type StatementKind,
  statementKind,
} from "./fast-paths/named-statements";
import type { Db, Tx } from "./types";

export { namedDb, namedStatementBudget, prepared, readsOf } from "./fast-paths/named-statements";
export { builtOnce, namedByText, type Runnable, type Write, writeTogether } from "./fast-paths/statements";
export { isStaleStatement, retried } from "./retry";

export type { Db, Tx } from "./types";

export type Database = {
  db: Db;
  kind: "pglite" | "postgres";
  migrate: () => Promise<void>;
  close: () => Promise<void>;
};

const migrationsFolder = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../drizzle");
const casing = "snake_case" as const;

export function pgliteDatabase(client: PGlite, release: () => void = () => {}): Database {
  const db = drizzlePglite({ client, casing });
  return {
    db: db as unknown as Db,
    kind: "pglite",
    migrate: () => migratePglite(db, { migrationsFolder }),
    close: async () => {
      try {
        await client.close();
      } finally {
        release();
      }
    },
  };
}

/** Opens embedded PGlite; a data folder is locked to this process until close (or exit). */
export async function openPglite(options: { dataDir?: string; loadDataDir?: Blob } = {}): Promise<Database> {
  // DATA_DIR=memory:// keeps the database in memory (end-to-end runs leave nothing behind).
  const folder = options.dataDir && !options.dataDir.startsWith("memory://") ? options.dataDir : null;
  if (folder) mkdirSync(folder, { recursive: true });
  const release = folder ? lockDataDir(folder) : () => {};
  try {
    const client = await PGlite.create({
      dataDir: options.dataDir,
      loadDataDir: options.loadDataDir,
      extensions: { pg_trgm },
    });
    return pgliteDatabase(client, release);
  } catch (error) {
    release();
    throw error;
  }
}

export type PostgresTimeouts = { connectTimeoutMs: number; statementTimeoutMs: number };
export const defaultPostgresTimeouts: PostgresTimeouts = { connectTimeoutMs: 5000, statementTimeoutMs: 9000 };

/**
 * A pg client that gives up on a statement whose answer does not come (a stalled network or
 * server): past the statement timeout plus a margin its connection is destroyed, so the query fails
 * at once, whatever was queued behind it (a ROLLBACK) fails fast too, and the pool drops the client
 * instead of handing the stuck connection to the next request. A slow but reachable server is
 * stopped earlier, by statement_timeout on the server side.
 */
function stallSafeClient(answerTimeoutMs: number) {
  return class StallSafeClient extends pg.Client {
    constructor(config?: pg.ClientConfig) {
      super(config);
      // A client whose connection is lost while checked out (its backend terminated, the server
      // restarted) emits 'error', which pg-pool listens for only while the client is idle: unheard, it
      // crashed the process. Its statements fail on their own, and pg-pool drops it on release.
      this.on("error", () => {});
    }

    // biome-ignore lint/suspicious/noExplicitAny: pg's query has many overloads; this only wraps it.
    override query(...args: any[]): any {
      // A transaction's statements come here directly, named as the view that checked this out asks.
      args[0] = namedIfPrepared(
        args[0],
        args[1],
        (this as unknown as Record<symbol, StatementKind>)[statementKind],
      );
      const connection = (this as unknown as { connection?: { stream?: { destroy: () => void } } })
        .connection;
      const callbackAt = args.findIndex((arg) => typeof arg === "function");
      const timer = setTimeout(() => connection?.stream?.destroy(), answerTimeoutMs);
      // The handlers below are written in place, not named: tsx names every function kept in a
      // variable as it is made, a defineProperty call on every statement (issue 14).
      if (callbackAt >= 0) {
        const callback = args[callbackAt];
        args[callbackAt] = (...result: unknown[]) => {
          answered(timer, args[0], result[0]);
          callback(...result);
        };
        return super.query(...(args as Parameters<pg.Client["query"]>));
      }
      const result = super.query(...(args as Parameters<pg.Client["query"]>)) as unknown as Promise<unknown>;
      // Registered before the caller's own handlers, so a stale name is retired before anyone retries.
      result.then(
        () => answered(timer, args[0]),
        (error: unknown) => answered(timer, args[0], error),
      );
      return result;
    }
  };
}

/** The advisory lock that servers migrating one PostgreSQL database take in turn (any fixed number). */
const migrationLock = 7_301_326_014;

export function openPostgres(url: string, max = 10, timeouts = defaultPostgresTimeouts): Database {
  const pool = new PreparingPool({
    connectionString: url,
    max,
    // Connecting, and waiting for a free pooled connection, both give up after this long.
    connectionTimeoutMillis: timeouts.connectTimeoutMs,
    // Idle connections stay open (decision 190): pg-pool's default closed them after 10 s, so a call
    // after a pause paid a new backend, whose first touches of the shared buffers and first plans made
    // the visit summary ~3 times as slow (~180 ms against ~55).
    idleTimeoutMillis: 0,
    statement_timeout: timeouts.statementTimeoutMs,
    // JIT compiling cost ~10 ms per call on queries whose estimate passes its threshold (the visit
    // summary's) and saves nothing on queries this short (issue 14). Options in the URL win.
    options: "-c jit=off",
    keepAlive: true,
    Client: stallSafeClient(timeouts.statementTimeoutMs + 500),
  });
  // An idle client losing its connection must not crash the process; the next query reconnects.
  pool.on("error", () => {});
  // A connection back in the pool names nothing until a named view checks it out again.
  pool.on("release", (_error: unknown, client: pg.PoolClient) => {
    (client as unknown as Record<symbol, StatementKind | undefined>)[statementKind] = undefined;
  });
  const db = drizzlePg({ client: pool, casing });
  namedViews.set(db as unknown as Db, {
    record: drizzlePg({ client: pool.namedView("record"), casing }) as unknown as Db,
    list: drizzlePg({ client: pool.namedView("list"), casing }) as unknown as Db,
  });
  return {
    db: db as unknown as Db,
    kind: "postgres",
    // Migrations may rightly run longer than a request's statement timeout (an index on a big table),
    // and start-up may be busy (PGlite migrating beside it in tests): generous limits here.
    migrate: async () => {
      const migrator = new pg.Client({
        connectionString: url,
        connectionTimeoutMillis: Math.max(timeouts.connectTimeoutMs, 60_000),
      });
      migrator.on("error", () => {});
      await migrator.connect();
      try {
        // Servers starting at the same moment take turns: each reads what is applied only once it
        // holds the lock, so none runs a migration another has run (two at once crashed one of them).
        // The lock is the session's, released when its connection ends, even if the process dies.
        await migrator.query("select pg_advisory_lock($1)", [migrationLock]);
        await migratePg(drizzlePg({ client: migrator, casing }), { migrationsFolder });
      } finally {
        await migrator.end();
      }
    },
    close: () => pool.end(),
  };
}

/** PostgreSQL through pg when DATABASE_URL is set; otherwise embedded PGlite under DATA_DIR. */
export function openDatabase(config: {
  databaseUrl: string | null;
  dataDir: string;
  databaseConnectTimeoutMs?: number;
  databaseStatementTimeoutMs?: number;
}): Promise<Database> {
  return config.databaseUrl
    ? Promise.resolve(
        openPostgres(config.databaseUrl, 10, {
          connectTimeoutMs: config.databaseConnectTimeoutMs ?? defaultPostgresTimeouts.connectTimeoutMs,
          statementTimeoutMs: config.databaseStatementTimeoutMs ?? defaultPostgresTimeouts.statementTimeoutMs,
        }),
      )
    : openPglite({ dataDir: config.dataDir });
}

/** Runs raw SQL and answers its rows (both drivers answer {rows}). */
export async function queryRows<T = Record<string, unknown>>(db: Db | Tx, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

/** Whether a condition (an SQL boolean) holds, asked on its own. */
export async function holds(db: Db | Tx, condition: SQL<boolean>): Promise<boolean> {
  const [row] = await queryRows<{ holds: boolean }>(db, sql`select ${condition} as holds`);
  return row.holds;
}
