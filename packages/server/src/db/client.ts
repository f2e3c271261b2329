import { createHash } from "node:crypto";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { type Placeholder, type SQL, sql } from "drizzle-orm";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import { lockDataDir } from "./data-dir-lock";
import { type ErrorCause, findCause } from "./error-causes";

/**
 * The one database type the code uses: the same Drizzle API on PGlite and on node-postgres. Queries
 * name their tables (no relational `db.query`), so no schema object is given; drizzle-kit finds the
 * tables in the `*.table.ts` files.
 */
export type Db = PgDatabase<PgQueryResultHKT>;
/** A Db or a transaction of one. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

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

/**
 * Statements of a Db from `namedDb` go to PostgreSQL as named statements: each connection parses
 * and plans one once and then only binds it (issue 14: planning was ~3/4 of PostgreSQL's time for a
 * patient view, and most of a patient visit's save). Only calls whose SQL text is stable and whose
 * plan hardly depends on the values opt in: reads and writes of one record by its key, and lists that
 * are not searched (PostgreSQL still plans a statement's first five runs for their values, and keeps a
 * generic plan only when it costs no more). Searches stay unnamed, planned for their words each time
 * (decision 148). On PGlite (one connection in the process) this changes nothing.
 *
 * The kind travels with the Db (a view of the pool that names what it sends, and marks the
 * connections it checks out), not with the async context: AsyncLocalStorage made Node run a hook on
 * every promise of the process, ~8% of a visit save's process time (issue 14, decision 186).
 */
type StatementKind = "record" | "list";
/** The kind of statements a checked-out connection sends (set by a named view, cleared on release). */
const statementKind = Symbol("the kind of statements this connection names");
const namedViews = new WeakMap<Db, Record<StatementKind, Db>>();

/** The Db whose statements are named, of `kind`; on PGlite the Db itself. */
export const namedDb = (db: Db, kind: StatementKind = "record"): Db => namedViews.get(db)?.[kind] ?? db;

/** `work` on the named Db of `kind` (see namedDb), run again where a named statement makes that safe. */
export const prepared = <T>(db: Db, kind: StatementKind, work: (named: Db) => Promise<T>): Promise<T> =>
  retried(() => work(namedDb(db, kind)));

/**
 * The Db a read goes through and how it runs: named reads go through the named Db of `kind` and run
 * again where that is safe (see `retried`); others (a search, planned for its words) as they are.
 */
export const readsOf = (
  db: Db,
  kind: StatementKind,
  named: boolean,
): { db: Db; run: <T>(work: () => Promise<T>) => Promise<T> } =>
  named ? { db: namedDb(db, kind), run: (work) => retried(work) } : { db, run: (work) => work() };

/**
 * Runs `work`, and again where that is safe and likely to succeed. The work is a read, or a
 * transaction that was rolled back: it can run again. A statement refused as stale has been renamed by
 * then (see retire): once more, afresh; a transaction may hold several (a table change touches each
 * that returns its columns) and finds them one at a time. A deadlock or serialization failure lost to
 * a simultaneous save: once more after a moment, when the winner is done, instead of asking the person
 * to try again.
 */
export const retried = <T>(work: () => Promise<T>, retries = 4, collisions = 2): Promise<T> =>
  work().catch(async (error: unknown) => {
    if (isStaleStatement(error) && retries > 0) return retried(work, retries - 1, collisions);
    if (isCollision(error) && collisions > 0) {
      await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20));
      return retried(work, retries, collisions - 1);
    }
    throw error;
  });

/** A deadlock (40P01) or serialization failure (40001): PostgreSQL rolled the transaction back. */
function isCollision(error: unknown): boolean {
  return findCause(error, ({ code }) => code === "40P01" || code === "40001") !== undefined;
}

/**
 * Texts named per process, each kind on its own: beyond them (e.g. inserts of varying row counts, or
 * the many orders and filters a list can be asked in) texts go unnamed, and lists can never crowd out
 * the reads and writes of records. Mutable for tests only.
 */
export const namedStatementBudget: Record<StatementKind, number> = { record: 200, list: 200 };
const statementNames = new Map<string, string>();
const namedCount: Record<StatementKind, number> = { record: 0, list: 0 };
/** Marks a query the pool has decided on, in its caller's context (pg-pool may send it later, in another's). */
const decided = Symbol("named or not");
/** Names refused as stale (see isStaleStatement), each mapped to the name its statement goes by now. */
const retiredNames = new Map<string, string>();
const originalName = Symbol("the name a statement was first given");
type QueryConfig = {
  text?: unknown;
  name?: string;
  values?: unknown[];
  [decided]?: true;
  [originalName]?: string;
};

function namedIfPrepared(config: unknown, values: unknown, kind: StatementKind | undefined): unknown {
  if (typeof config !== "object" || config === null) return config;
  const query = config as QueryConfig;
  if (query[decided] || typeof query.text !== "string") return config;
  // Named by Drizzle's prepare (the session's user, reads by key): kept, unless retired.
  if (query.name) {
    const current = retiredNames.get(query.name);
    return current ? { ...query, name: current, [originalName]: query.name, [decided]: true } : config;
  }
  const params = Array.isArray(values) ? values : query.values;
  if (!kind || !params?.length) return { ...query, [decided]: true };
  let name = statementNames.get(query.text);
  if (!name) {
    if (namedCount[kind] >= namedStatementBudget[kind]) return { ...query, [decided]: true };
    name = `td_${createHash("sha1").update(query.text).digest("hex").slice(0, 24)}`;
    statementNames.set(query.text, name);
    namedCount[kind] += 1;
  }
  return { ...query, name: retiredNames.get(name) ?? name, [originalName]: name, [decided]: true };
}

/**
 * A named statement PostgreSQL will not run on some connection any more: dropped there ("prepared
 * statement … does not exist": DEALLOCATE ALL, a connection pooler's reset), or planned before a
 * table changed ("cached plan must not change result type": another process's migration widened a
 * column, and that connection refuses the statement for good). Not the caller's fault, and not lasting.
 */
export function isStaleStatement(error: unknown): boolean {
  const stale = ({ code, message }: ErrorCause) =>
    code === "26000" ||
    (code === "0A000" &&
      typeof message === "string" &&
      /cached plan must not change result type/.test(message));
  return findCause(error, stale) !== undefined;
}

/**
 * Renames a statement refused as stale, for the whole process: a new name is parsed afresh on every
 * connection (the driver remembers which names a connection has parsed and would not parse an old one
 * again).
 */
let retirements = 0;
function retire(config: unknown, error: unknown) {
  const query = config as QueryConfig;
  const first = query?.[originalName] ?? query?.name;
  if (!first || !isStaleStatement(error)) return;
  // Only the name that failed: a concurrent refusal of the same name renames it once.
  if ((retiredNames.get(first) ?? first) === query.name) retiredNames.set(first, `${first}_${++retirements}`);
}

/** A pool whose queries are named (or not) by the view they are asked through, see `namedDb`. */
class PreparingPool extends pg.Pool {
  // biome-ignore lint/suspicious/noExplicitAny: pg's query has many overloads; this only wraps it.
  override query(...args: any[]): any {
    return this.queryAs(undefined, args);
  }

  // biome-ignore lint/suspicious/noExplicitAny: as query.
  queryAs(kind: StatementKind | undefined, args: any[]): any {
    const asked = args[0];
    args[0] = namedIfPrepared(asked, args[1], kind);
    const result: unknown = super.query(...(args as Parameters<pg.Pool["query"]>));
    if (!(result instanceof Promise)) return result;
    // One statement outside a transaction, refused as stale: once more under its new name.
    return result.catch((error: unknown) => {
      if (!isStaleStatement(error)) throw error;
      args[0] = namedIfPrepared(asked, args[1], kind);
      return super.query(...(args as Parameters<pg.Pool["query"]>));
    });
  }

  /**
   * The pool as seen by the named Db of `kind`: its queries and the connections it checks out (a
   * transaction's) name their statements so. It is the pool itself underneath (Drizzle checks out a
   * connection for a transaction from anything that is a pg Pool).
   */
  namedView(kind: StatementKind): pg.Pool {
    const view = Object.create(this) as PreparingPool;
    // biome-ignore lint/suspicious/noExplicitAny: as query.
    view.query = (...args: any[]) => this.queryAs(kind, args);
    view.connect = (async () => {
      const client = await this.connect();
      (client as unknown as Record<symbol, StatementKind | undefined>)[statementKind] = kind;
      return client;
    }) as pg.Pool["connect"];
    return view;
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

/** A statement was answered (or failed): its stall timer stops, and a stale name is retired. */
function answered(timer: NodeJS.Timeout, config: unknown, error?: unknown) {
  clearTimeout(timer);
  if (error) retire(config, error);
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

/**
 * The name to give Drizzle's `prepare` for a statement that has none of its own: through a named Db
 * (namedDb), or a transaction of one, statements are named by their text (an empty name is no name to pg).
 */
export const namedByText = "";

/** A query Drizzle has built and bound to a connection (its prepared query). */
export type Runnable = { execute(values?: Record<string, unknown>): Promise<unknown> };

/** The session of a Db or Tx: its driver's kind (the class) and connection (pg pool or client, PGlite). */
const sessionOf = (db: Db | Tx) => (db as unknown as { _: { session: { client: unknown } } })._.session;

/**
 * Statements whose SQL text Drizzle builds once per key, with placeholders for their values, and that
 * then run on whichever connection or transaction is at hand. Building the texts of a save's statements
 * anew on every call was a fifth of a patient visit save's process time (issue 14); Drizzle's own
 * prepared queries are built once but stay bound to the connection they were built on, so each run
 * takes a copy bound to the caller's (Drizzle's prepared queries keep it in `client`, on node-postgres
 * and PGlite alike; each driver has its own, as a process may use both). Keys beyond `limit` are built
 * on every call, as before.
 */
export function builtOnce(limit = 100) {
  const byDriver = new Map<unknown, Map<string, Runnable>>();
  return <Q extends Runnable>(db: Db | Tx, key: string, build: () => Q): Q => {
    const session = sessionOf(db);
    const built = byDriver.get(session.constructor) ?? new Map<string, Runnable>();
    byDriver.set(session.constructor, built);
    let query = built.get(key) as Q | undefined;
    if (!query) {
      query = build();
      if (built.size < limit) built.set(key, query);
    }
    return Object.assign(Object.create(Object.getPrototypeOf(query)), query, { client: session.client });
  };
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

/**
 * A write of one of a few shapes, for writeTogether: `key` names its shape, `build` makes its text with
 * the placeholders it is given (by name), and `values` fills them.
 */
export type Write = {
  key: string;
  build: (placeholder: (name: string) => Placeholder) => SQL;
  values: Record<string, unknown>;
};

/** A statement of raw SQL as Drizzle prepares its own, on the Db or Tx's connection. */
function prepareSql(db: Db | Tx, query: SQL): Runnable {
  const { dialect, _ } = db as unknown as {
    dialect: { sqlToQuery: (query: SQL) => { sql: string; params: unknown[] } };
    _: { session: { prepareQuery: (...args: unknown[]) => Runnable } };
  };
  return _.session.prepareQuery(dialect.sqlToQuery(query), undefined, namedByText, false);
}

const writesTogether = builtOnce();

/**
 * Runs writes whose answers nobody reads as one statement: each a data-modifying WITH part, then
 * `last` (or nothing more). One round trip instead of one each (issue 14: each costs a visit save
 * more than its work), and its text built once for each combination of shapes; each part's
 * placeholders are its own, so two writes of one shape fill theirs apart. The parts see the same
 * snapshot and not each other's rows, so they must not touch the same rows or depend on one another.
 */
export async function writeTogether(db: Db | Tx, writes: Write[], last?: Write): Promise<void> {
  const parts = [...writes, ...(last ? [last] : [])].map((write, i) => ({
    ...write,
    prefix: `w${i}_`,
  }));
  if (parts.length === 0) return;
  const key = `${writes.map((write) => write.key).join(", ")} then ${last?.key ?? "nothing"}`;
  const statement = writesTogether(db, key, () => {
    const built = parts.map((part) => part.build((name) => sql.placeholder(part.prefix + name)));
    const final = last ? built.pop() : undefined;
    if (built.length === 0 && final) return prepareSql(db, final);
    const withParts = built.map((write, i) => sql`${sql.identifier(`write_${i}`)} as (${write})`);
    return prepareSql(db, sql`with ${sql.join(withParts, sql`, `)} ${final ?? sql`select 1`}`);
  });
  const values: Record<string, unknown> = {};
  for (const part of parts)
    for (const [name, value] of Object.entries(part.values)) values[part.prefix + name] = value;
  await statement.execute(values);
}
