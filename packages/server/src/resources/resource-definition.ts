import { type FieldErrors, type ResourceName, type ResourceRules, resourceRules } from "@trialdesk/domain";
import { Column, is, SQL, type SQLWrapper, sql, Table } from "drizzle-orm";
import type { PgColumn, PgSelect, PgTable } from "drizzle-orm/pg-core";
import type { z } from "zod";
import type { ChangeContext } from "../audit/audit";
import type { SessionUser } from "../auth/guards";
import type { Db, Tx, Write } from "../db/client";
import type { UniqueOverride } from "../http/database-errors";
import type { SearchColumn } from "./resource-query";

/** What a resource description says (resource.ts explains the machinery). */

export type Row = Record<string, unknown>;
export type Selection = Record<string, unknown>;

/** A table with the record columns of db/columns.ts. */
export type RecordTable = PgTable & {
  id: PgColumn;
  uuid: PgColumn;
  version: PgColumn;
  updatedAt: PgColumn;
  createdAt: PgColumn;
};

/** One answer shape of a resource (`?format=`): what is selected and which tables are joined. */
export type Format = {
  /** Wire field → column or SQL; nested objects give nested parts (e.g. patientDetail). */
  fields: Selection;
  joins?: (query: PgSelect) => PgSelect;
  /**
   * The joins only look up one row each (inner joins over required references, left joins to at
   * most one row), so they never add or drop rows: the list then counts and picks its page's ids
   * from the base table alone whenever neither the filters nor the order read a joined table.
   */
  joinsKeepRows?: boolean;
};

/** One sort key: a column or expression, or several compared in turn (`order by a, b`, as an index holds them). */
export type SortKey = PgColumn | SQL | SQL.Aliased;

/** Sort expressions that are null exactly when their column is (byName), for the export's keyset. */
export const nullableAs = new WeakMap<SQL, PgColumn>();

/**
 * Names sort in the users' language: ICU's root collation (CLDR) puts "Balázs" before "Balogh" and
 * "Ádám" beside "Adam", where the databases' C collation sorts by byte. PGlite and PostgreSQL 15 both
 * ship "und-x-icu"; the name indexes are built with the same collation, so they serve the order.
 */
export const byName = (column: PgColumn) => {
  const key = sql`${column} collate "und-x-icu"`;
  nullableAs.set(key, column);
  return key;
};

/**
 * True when an expression reads a table other than `base`. A fragment that names a table itself is a
 * subquery with its own FROM, so that table's columns inside it are its own, not the outer query's.
 */
export function readsOtherTables(
  chunk: unknown,
  base: Table,
  local: ReadonlySet<unknown> = new Set(),
): boolean {
  if (chunk === null || typeof chunk !== "object") return false;
  if (Array.isArray(chunk)) return chunk.some((c) => readsOtherTables(c, base, local));
  if (is(chunk, Column)) return chunk.table !== base && !local.has(chunk.table);
  if (is(chunk, SQL.Aliased)) return readsOtherTables(chunk.sql, base, local);
  if (is(chunk, SQL)) {
    const tables = chunk.queryChunks.filter((c) => is(c, Table));
    const inner = tables.length > 0 ? new Set([...local, ...tables]) : local;
    return chunk.queryChunks.some((c) => readsOtherTables(c, base, inner));
  }
  return false;
}

export type WriteContext = {
  tx: Tx;
  user: SessionUser | null;
  change: ChangeContext;
  existing: Row | null;
  /**
   * What `toRow` found that `afterChange` uses, handed on by the machinery (e.g. the assignments a
   * visit's save locked and read in its check, which its window rebuild then needs not read again).
   */
  found: Record<string, unknown>;
};

export type Filter = {
  /** Parses the query string value (a string), e.g. z.coerce.number().int().positive(). */
  schema: z.ZodType;
  where: (value: never, user: SessionUser | null) => SQL | undefined;
};

export type MonitorView = {
  scope: (monitorId: SQLWrapper) => SQL;
  hide?: string[];
  search?: SearchColumn[];
};

export type QueryPreset = {
  defaults?: Record<string, string>;
  fixed?: Record<string, string>;
  renames?: Record<string, string>;
};

export type ResourceDescription<Input extends Row = Row> = {
  /**
   * The URL segment and the audit trail's resource name; its uuid prefix, label, access and menu
   * place are the domain's resource registry's.
   */
  name: ResourceName;
  table: RecordTable;
  /** The strict zod wire schema: the registry's (shape and types). */
  schema: z.ZodType<Input>;
  /** The registry's save normaliser unless the server needs more (a setting, another table). */
  normalize?: (input: Input) => Input;
  /** The registry's save validator with the spec's messages, unless the server needs more. */
  validate: (input: Input) => FieldErrors;
  /** Answer shapes; "view" is the default. Without it, every column but the timestamps. */
  formats?: Record<string, Format>;
  /** The list's format when the call names none, if not "view" (e.g. studyplans: one row per study). */
  listFormat?: string;
  /** Sortable list keys (`?order=`) → what to sort by; a list sorts by its keys in turn, then id. */
  sort: Record<string, SortKey | SortKey[]>;
  defaultSort?: string;
  /** The direction of the default sort when the call names no order (e.g. newest visits first). */
  defaultDirection?: "asc" | "desc";
  /** Columns the list's searchTerm matches with ILIKE, or folded (`foldedText`): each trigram-indexed. */
  search: SearchColumn[];
  /**
   * Each typed word (up to 5) must appear in one of the search columns, so "Kiss Anna" finds Anna
   * Kiss; otherwise the whole term must appear in one of them.
   */
  searchByWord?: boolean;
  filters?: Record<string, Filter>;
  /**
   * Named ways of calling the list (`?{name}=true`, e.g. the patient lookup): the caller's parameters
   * (`renames` first) over `defaults`, under `fixed`. Applied before the query is checked, so scope,
   * filters and limits stay the resource's.
   */
  presets?: Record<string, QueryPreset>;
  /**
   * Rows the user may see and change (site-scoped resources); must only use the base table. It may read
   * only the user's `isAdmin` and, through `inSites`, their sites: a read by key builds it once for all
   * callers of a kind (decision 146).
   */
  scope?: (user: SessionUser | null) => SQL | undefined;
  /**
   * What a monitor reads, when the registry lets them (issue 44): the rows of their current assignments
   * (`scope`, of the monitor's id: a value, or the `monitorId` placeholder of a statement built once),
   * never the fields that identify a patient (`hide`: not answered, exported, sorted by or recorded in
   * the history they read), searched only in `search` (none: a search finds nothing).
   */
  monitors?: MonitorView;
  /** Input → column values; default: the input's fields that are columns of the table. */
  toRow?: (input: Input, ctx: WriteContext) => Row | Promise<Row>;
  /** Writes owned children (contacts, siteIds, schedule …) in the same transaction. */
  writeChildren?: (id: number, input: Input, ctx: WriteContext) => Promise<void>;
  /** Attaches children to read records (one batch for a whole page), knowing the format read. */
  expand?: (db: Tx | Db, records: Row[], format: string) => Promise<Row[]>;
  /** Runs before the row is deleted (e.g. removing an owned address). */
  beforeDelete?: (id: number, ctx: WriteContext) => Promise<void>;
  /**
   * Runs in the write's transaction once the change is made, with the record (view format) before
   * and after (null when created or deleted): keeps derived data such as visit windows in step. It
   * may answer writes it leaves to the machinery (`writeTogether`): nothing after them reads what
   * they write, so they go to the database in the audit row's statement. `alongside` is what
   * `readWithWrite` read, when the write was a create or an update; `found` what `toRow` left in its
   * context (nothing on a delete).
   */
  afterChange?: (
    tx: Tx,
    before: Row | null,
    after: Row | null,
    alongside: Row | undefined,
    change: ChangeContext,
    found: Record<string, unknown>,
  ) => Promise<Write[] | undefined>;
  /**
   * Read in the statement that writes a record (create or update, for a resource without
   * `writeChildren`), beside its view, and handed to `afterChange`: one round trip less for what it
   * needs (issue 14). The statement does not see its own write in the tables, and names the written
   * row as the table (a WITH part), so these read the table itself by its schema-qualified name.
   */
  readWithWrite?: Record<string, SQL>;
  /**
   * How a list column reads in a CSV export when it is not its field as it stands (a code's label, a
   * name of parts), by the web list's column key, from the domain's label functions. Other columns
   * are the list format's own fields (booleans as Yes/No).
   */
  exportText?: Record<string, (row: Row) => string>;
  /** Tells list rows apart when the table's id does not (studyplans: one row per study, plan or not). */
  rowKey?: PgColumn;
  /** Unique constraints that need a field or message other than the naming convention gives. */
  unique?: Record<string, UniqueOverride>;
  /** Input fields recorded in the audit trail only as "changed" (passwords). */
  secretFields?: string[];
};

/**
 * A description as written: its schema and, unless it gives its own, its save normaliser and
 * validator are the registry's. A description with a schema of its own (a test's) brings its rules.
 */
type Described<Input extends Row> = Omit<ResourceDescription<Input>, "schema" | "validate"> &
  Partial<Pick<ResourceDescription<Input>, "schema" | "validate">>;

export function defineResource<Input extends Row>(description: Described<Input>): ResourceDescription<Input> {
  if (description.readWithWrite && description.writeChildren)
    throw new Error(`${description.name}: readWithWrite needs the write's own statement (no writeChildren)`);
  if (description.schema && description.validate) return description as ResourceDescription<Input>;
  const rules: ResourceRules = resourceRules[description.name];
  return {
    schema: rules.schema as z.ZodType<Input>,
    normalize: (rules.save?.normalize ?? rules.normalize) as ((input: Input) => Input) | undefined,
    validate: rules.save?.validate ?? rules.validate,
    ...description,
  };
}
