import { type Placeholder, type SQL, sql } from "drizzle-orm";
import type { Db, Tx } from "../types";
import { fastPathsOn } from "./switch";

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
    // Fast paths off: built on every call, bound to the caller's connection by Drizzle itself.
    if (!fastPathsOn) return build();
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
  // Fast paths off: each write is a statement of its own, in order, its values as parameters.
  if (!fastPathsOn) {
    for (const write of [...writes, ...(last ? [last] : [])])
      await db.execute(write.build((name) => write.values[name] as unknown as Placeholder));
    return;
  }
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
