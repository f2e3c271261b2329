import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";

/**
 * The one database type the code uses: the same Drizzle API on PGlite and on node-postgres. Queries
 * name their tables (no relational `db.query`), so no schema object is given; drizzle-kit finds the
 * tables in the `*.table.ts` files.
 */
export type Db = PgDatabase<PgQueryResultHKT>;
/** A Db or a transaction of one. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
