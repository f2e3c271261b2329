import { type SQL, sql } from "drizzle-orm";
import {
  check,
  type ExtraConfigColumn,
  index,
  integer,
  type PgColumn,
  timestamp,
  uniqueIndex,
  varchar,
} from "drizzle-orm/pg-core";

/** The columns every editable table has (design §3, §4): numeric id, client uuid, version, timestamps. */
export const recordColumns = () => ({
  id: integer().primaryKey().generatedAlwaysAsIdentity(),
  uuid: varchar({ length: 80 }).notNull(),
  version: integer().notNull().default(1),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/**
 * Index names follow one pattern so the resource machinery can map a violated constraint back to
 * the field it guards: `<table>_<column>_unique` → field `<column>` in camelCase.
 */
export const unique = (table: string, column: string, on: PgColumn | SQL) =>
  uniqueIndex(`${table}_${column}_unique`).on(on);

export const fkIndex = (table: string, column: string, on: PgColumn) =>
  index(`${table}_${column}_idx`).on(on);

/** Trigram index for the ILIKE '%term%' list search (pg_trgm, migration 0000). */
export const trgm = (table: string, column: string, on: ExtraConfigColumn) =>
  index(`${table}_${column}_trgm`).using("gin", on.op("gin_trgm_ops"));

export const oneOf = (table: string, column: string, on: PgColumn, values: readonly (string | number)[]) =>
  check(
    `${table}_${column}_check`,
    sql`${on} in (${sql.raw(values.map((v) => (typeof v === "number" ? String(v) : `'${v}'`)).join(", "))})`,
  );

/** The uuid of a record (numeric ids stay internal to foreign keys). */
export const uuidUnique = (table: string, on: PgColumn) => unique(table, "uuid", on);

type OnDelete = "restrict" | "cascade" | "set null";

/** A reference to another table's row: by default the referenced row cannot go while it is used. */
export const ref = (target: () => PgColumn, onDelete: OnDelete = "restrict") =>
  integer().references(target, { onDelete });

/** A reference every row has (NOT NULL). */
export const requiredRef = (target: () => PgColumn, onDelete: OnDelete = "restrict") =>
  ref(target, onDelete).notNull();
