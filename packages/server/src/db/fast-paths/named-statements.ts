import { createHash } from "node:crypto";
import pg from "pg";
import { isStaleStatement, retried } from "../retry";
import type { Db } from "../types";
import { fastPathsOn } from "./switch";

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
export type StatementKind = "record" | "list";
/** The kind of statements a checked-out connection sends (set by a named view, cleared on release). */
export const statementKind = Symbol("the kind of statements this connection names");
export const namedViews = new WeakMap<Db, Record<StatementKind, Db>>();

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

export function namedIfPrepared(config: unknown, values: unknown, kind: StatementKind | undefined): unknown {
  if (typeof config !== "object" || config === null) return config;
  const query = config as QueryConfig;
  if (query[decided] || typeof query.text !== "string") return config;
  // Named by Drizzle's prepare (the session's user, reads by key): kept, unless retired.
  if (query.name) {
    const current = retiredNames.get(query.name);
    return current ? { ...query, name: current, [originalName]: query.name, [decided]: true } : config;
  }
  const params = Array.isArray(values) ? values : query.values;
  // Fast paths off: every statement goes unnamed (Drizzle's own names above are kept).
  if (!fastPathsOn || !kind || !params?.length) return { ...query, [decided]: true };
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
export class PreparingPool extends pg.Pool {
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

/** A statement was answered (or failed): its stall timer stops, and a stale name is retired. */
export function answered(timer: NodeJS.Timeout, config: unknown, error?: unknown) {
  clearTimeout(timer);
  if (error) retire(config, error);
}
