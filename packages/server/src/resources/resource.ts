import {
  changeReasonHeader,
  countBound,
  type FieldError,
  type FieldErrors,
  isUuidOf,
  type ListData,
  maxPageSize,
  newUuid,
  type ResourceName,
  resourceAccess,
  resourceRegistry,
  uuidPrefixes,
} from "@trialdesk/domain";
import {
  and,
  asc,
  Column,
  count,
  desc,
  eq,
  getTableColumns,
  ilike,
  is,
  or,
  SQL,
  type SQLWrapper,
  sql,
  Table,
} from "drizzle-orm";
import type { PgColumn, PgSelect, PgTable } from "drizzle-orm/pg-core";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { type ChangeContext, diff, recordAudit } from "../audit/audit";
import { type SessionUser, userName } from "../auth/guards";
import type { Db, Tx } from "../db/client";
import type { Deps } from "../deps";
import { cellText, parseCsvColumns, sendCsv } from "../http/csv";
import { databaseError, type UniqueOverride } from "../http/database-errors";
import { send } from "../http/envelope";
import { conflict, notFound, validationError } from "../http/errors";
import { booleanParam } from "./params";

/**
 * THE generic resource machinery (DESIGN §3). A resource is described once — table, domain schema,
 * validator, list columns, search, filters, view projection, uuid prefix, who may call it — and gets
 * list / get / create / update / delete with field-error validation, optimistic versions, and an
 * audit event per change written in the same transaction. Nested resources (patients, projects,
 * users, studyplans) plug in through the optional hooks instead of new machinery.
 */

type Row = Record<string, unknown>;
type Selection = Record<string, unknown>;

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
const nullableAs = new WeakMap<SQL, PgColumn>();

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

export type WriteContext = { tx: Tx; user: SessionUser | null; change: ChangeContext; existing: Row | null };

export type Filter = {
  /** Parses the query string value (a string), e.g. z.coerce.number().int().positive(). */
  schema: z.ZodType;
  where: (value: never, user: SessionUser | null) => SQL | undefined;
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
  /** The strict zod wire schema from the domain package (shape and types). */
  schema: z.ZodType<Input>;
  normalize?: (input: Input) => Input;
  /** The domain validator with the spec's messages. */
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
  /** Columns the list's searchTerm matches with ILIKE (each trigram-indexed). */
  search: (PgColumn | SQL)[];
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
  /** Rows the user may see and change (site-scoped resources); must only use the base table. */
  scope?: (user: SessionUser | null) => SQL | undefined;
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
   * and after (null when created or deleted): keeps derived data such as visit windows in step.
   */
  afterChange?: (tx: Tx, before: Row | null, after: Row | null) => Promise<void>;
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

const bookkeepingColumns = new Set(["createdAt", "updatedAt"]);
/** Rows an export reads at a time. */
export const exportBatchSize = 500;
const maxInt = 2_147_483_647;
/** Words of a search term that count when a resource searches by word. */
const maxSearchWords = 5;

/** Zod issues → field errors keyed by dotted path; unknown fields are named one by one. */
export function zodFieldErrors(error: z.ZodError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const prefix = issue.path.map(String).join(".");
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) errors[prefix ? `${prefix}.${key}` : key] ??= "Unknown field";
    } else {
      errors[prefix || "body"] ??= issue.message;
    }
  }
  return errors;
}

/** Parses a query string with a strict zod object; unknown parameters or values → 400. */
export function parseQuery<T>(schema: z.ZodType<T>, query: unknown): T {
  const parsed = schema.safeParse(query ?? {});
  if (!parsed.success) {
    const errors = zodFieldErrors(parsed.error);
    throw validationError(
      Object.entries(errors).map(([field, message]) => ({
        field,
        message: message === "Unknown field" ? "Unknown parameter" : message,
      })),
      "Invalid query parameters",
    );
  }
  return parsed.data;
}

/** A typed term as plain text inside an ILIKE pattern (%, _ and \\ match themselves). */
export const escapeLike = (term: string) => term.replace(/[\\%_]/g, (c) => `\\${c}`);

/** One key of a keyset order: the sorted expression, and whether it can be null. */
export type KeysetKey = { key: SQLWrapper; nullable: boolean };

/**
 * The rows after the one whose keys are `last`, in an order by `keys` in turn, all ascending (nulls
 * last) or all descending (nulls first), as PostgreSQL sorts them. Keys that are never null compare
 * as one row value, which an index on them serves as a range; otherwise each key says where its nulls go.
 */
export function keysetAfter(keys: KeysetKey[], last: unknown[], descending: boolean): SQL {
  const values = last.map((value) => value ?? null);
  const parts = keys.map(({ key }) => (is(key, SQL.Aliased) ? key.sql : key));
  if (keys.every((k) => !k.nullable) && values.every((value) => value !== null)) {
    const row = sql`(${sql.join(parts, sql`, `)})`;
    const at = sql`(${sql.join(
      values.map((value) => sql`${value}`),
      sql`, `,
    )})`;
    return descending ? sql`${row} < ${at}` : sql`${row} > ${at}`;
  }
  const equal = (key: SQLWrapper, value: unknown) =>
    value === null ? sql`${key} is null` : sql`${key} = ${value}`;
  const beyond = (key: SQLWrapper, value: unknown, nullable: boolean) => {
    if (descending) return value === null ? sql`${key} is not null` : sql`${key} < ${value}`;
    if (value === null) return undefined;
    return nullable ? sql`(${key} > ${value} or ${key} is null)` : sql`${key} > ${value}`;
  };
  const terms = parts.map((key, i) => {
    const next = beyond(key, values[i], keys[i].nullable);
    return next && and(...parts.slice(0, i).map((earlier, j) => equal(earlier, values[j])), next);
  });
  return or(...terms) ?? sql`false`;
}

function changeContext(request: FastifyRequest): ChangeContext {
  const raw = request.headers[changeReasonHeader];
  let reason = typeof raw === "string" ? raw : null;
  // Browsers can only send Latin-1 headers; clients percent-encode other text.
  if (reason && /%[0-9A-Fa-f]{2}/.test(reason)) {
    try {
      reason = decodeURIComponent(reason);
    } catch {}
  }
  reason = reason?.trim().slice(0, 500) || null;
  return {
    userId: request.user?.id ?? null,
    userName: userName(request.user),
    requestId: request.id,
    reason,
  };
}

export function defineResource<Input extends Row>(description: ResourceDescription<Input>) {
  return description;
}

/** The operations of one described resource; routes call them, and so may custom routes. */
export function resourceService<Input extends Row>(db: Db, def: ResourceDescription<Input>) {
  const table = def.table;
  /** The record's name in messages, e.g. "Therapy category". */
  const label: string = resourceRegistry[def.name].label;
  const columns = getTableColumns(table) as Record<string, PgColumn>;
  const plainFields = Object.fromEntries(
    Object.entries(columns).filter(([key]) => !bookkeepingColumns.has(key)),
  );
  const formats: Record<string, Format> = def.formats ?? { view: { fields: plainFields } };
  const writable = Object.keys(columns).filter(
    (key) => !["id", "uuid", "version", ...bookkeepingColumns].includes(key),
  );
  const defaultSort = def.defaultSort ?? "id";
  const sortKeys = Object.keys(def.sort);

  const listQuery = z.strictObject({
    page: z.coerce.number({ error: "Page must be a whole number" }).int().min(1).max(1_000_000).default(1),
    pagesize: z.coerce
      .number({ error: "Page size must be a whole number" })
      .int()
      .min(1)
      .max(maxPageSize)
      .optional(),
    searchTerm: z.string().max(100, "Search term must be at most 100 characters").optional(),
    order: z
      .enum(sortKeys as [string, ...string[]], { error: `Order must be one of: ${sortKeys.join(", ")}` })
      .optional(),
    direction: z.enum(["asc", "desc"], { error: "Direction must be asc or desc" }).optional(),
    format: z.enum(Object.keys(formats) as [string, ...string[]], { error: "Unknown format" }).optional(),
    ...Object.fromEntries(
      Object.entries(def.filters ?? {}).map(([key, filter]) => [key, filter.schema.optional()]),
    ),
    ...Object.fromEntries(
      Object.keys(def.presets ?? {}).map((name) => [
        name,
        booleanParam.optional().describe("A named preset"),
      ]),
    ),
  });

  /** The list query a preset stands for (see `presets`); other queries as they came. */
  function withPreset(query: unknown): unknown {
    const raw = { ...(query as Record<string, unknown>) };
    for (const [name, preset] of Object.entries(def.presets ?? {})) {
      if (raw[name] !== "true") continue;
      delete raw[name];
      for (const [from, to] of Object.entries(preset.renames ?? {})) {
        if (from in raw) {
          raw[to] = raw[from];
          delete raw[from];
        }
      }
      return { ...preset.defaults, ...raw, ...preset.fixed };
    }
    return query;
  }
  /** An export takes the list's search, filters, order and format, no paging, and its columns. */
  const exportQuery = listQuery.omit({ page: true, pagesize: true }).extend({
    columns: z.string().max(20_000).describe("JSON list of [key, title] pairs").optional(),
  });
  const getQuery = z.strictObject({
    format: z.enum(Object.keys(formats) as [string, ...string[]], { error: "Unknown format" }).optional(),
  });

  function select(tx: Tx | Db, format: string, fields?: Selection): PgSelect {
    const shape = formats[format];
    const query = tx
      .select((fields ?? shape.fields) as never)
      .from(table)
      .$dynamic() as unknown as PgSelect;
    return shape.joins ? shape.joins(query) : query;
  }

  /** One record in a format; `scope` is the caller's row filter (none for the machinery's own reads). */
  async function readOne(tx: Tx | Db, where: SQL, scope?: SQL, format = "view"): Promise<Row | null> {
    const rows = (await select(tx, format).where(and(where, scope)).limit(1)) as Row[];
    if (rows.length === 0) return null;
    return def.expand ? (await def.expand(tx, rows, format))[0] : rows[0];
  }

  /** Shape, then the domain's normalizer and validator; the spec's messages win over zod's. */
  function parseInput(body: unknown): Input {
    if (body === null || typeof body !== "object" || Array.isArray(body)) {
      throw validationError([], "The request body must be a JSON object");
    }
    const parsed = def.schema.safeParse(body);
    let ruleErrors: FieldErrors = {};
    try {
      const candidate = (parsed.success ? parsed.data : body) as Input;
      ruleErrors = def.validate(def.normalize ? def.normalize(candidate) : candidate);
    } catch {
      // Rules written for well-formed data may stumble over malformed input; zod reports that.
    }
    if (!parsed.success) throw validationError({ ...zodFieldErrors(parsed.error), ...ruleErrors });
    if (Object.keys(ruleErrors).length > 0) throw validationError(ruleErrors);
    return def.normalize ? def.normalize(parsed.data) : parsed.data;
  }

  async function toRow(input: Input, ctx: WriteContext): Promise<Row> {
    if (def.toRow) return def.toRow(input, ctx);
    const row: Row = {};
    for (const key of writable) if (key in input) row[key] = input[key];
    return row;
  }

  function secretChanges(input: Input) {
    return (def.secretFields ?? [])
      .filter((field) => typeof input[field] === "string" && input[field] !== "")
      .map((field) => ({ field, old: null, new: "changed" }));
  }

  function whereIdOrUuid(idOrUuid: string): SQL | null {
    if (/^\d{1,10}$/.test(idOrUuid)) {
      const id = Number(idOrUuid);
      return id <= maxInt ? eq(table.id, id) : null;
    }
    return idOrUuid.length <= 80 ? eq(table.uuid, idOrUuid) : null;
  }

  const mapDbError = (error: unknown): never => {
    throw databaseError(error, { label, unique: def.unique }) ?? error;
  };

  async function lock(tx: Tx, uuid: string, user: SessionUser | null) {
    if (uuid.length > 80) return null;
    const [row] = (await tx
      .select({ id: table.id, version: table.version })
      .from(table)
      .where(and(eq(table.uuid, uuid), def.scope?.(user)))
      .for("update")) as { id: number; version: number }[];
    return row ?? null;
  }

  type ListParams = Record<string, unknown> & {
    searchTerm?: string;
    order?: string;
    direction?: "asc" | "desc";
    format?: string;
  };

  /** The rows a list call means: the user's scope, the search and the filters. */
  function listWhere(q: ListParams, user: SessionUser | null): SQL | undefined {
    const term = q.searchTerm?.trim();
    const conditions: (SQL | undefined)[] = [def.scope?.(user)];
    if (term) {
      const parts = def.searchByWord ? term.split(/\s+/).slice(0, maxSearchWords) : [term];
      conditions.push(
        and(
          ...parts.map((part) => or(...def.search.map((column) => ilike(column, `%${escapeLike(part)}%`)))),
        ),
      );
    }
    for (const [key, filter] of Object.entries(def.filters ?? {})) {
      if (q[key] !== undefined) conditions.push(filter.where(q[key] as never, user));
    }
    return and(...conditions);
  }

  /** A list call's order: its sort keys in turn, then id (and the row key), all one direction. */
  function listOrder(q: ListParams) {
    const by = [def.sort[q.order ?? defaultSort]].flat() as SQLWrapper[];
    const descending = (q.direction ?? (q.order ? "asc" : (def.defaultDirection ?? "asc"))) === "desc";
    // Plain keys in turn (never a row value), then id: the shape an index (…, id) serves.
    const keys = [...by, table.id, ...(def.rowKey ? [def.rowKey] : [])].filter(
      (key, i, all) => all.indexOf(key) === i,
    );
    return { keys, descending, orderBy: keys.map((key) => (descending ? desc : asc)(key)) };
  }

  /** Columns an export may name in a format: its own plain fields, and the resource's export texts. */
  function exportColumns(format: string): Set<string> {
    const plain = Object.entries(formats[format].fields)
      .filter(([, field]) => is(field, Column) || is(field, SQL) || is(field, SQL.Aliased))
      .map(([key]) => key);
    return new Set([...plain, ...Object.keys(def.exportText ?? {})]);
  }

  return {
    def,
    listQuery,
    withPreset,
    exportQuery,
    getQuery,
    readOne,

    async list(query: unknown, user: SessionUser | null, defaultPageSize: number): Promise<ListData<Row>> {
      const q = parseQuery(listQuery, query) as ListParams & z.infer<typeof listQuery>;
      const pageSize = q.pagesize ?? defaultPageSize;
      const format = q.format ?? def.listFormat ?? "view";
      const where = listWhere(q, user);
      const { keys, orderBy } = listOrder(q);
      const offset = (q.page - 1) * pageSize;
      const shape = formats[format];
      const keepsRows = !shape.joins || shape.joinsKeepRows === true;
      const base = (fields: Selection, needsJoins: boolean) =>
        needsJoins
          ? select(db, format, fields)
          : (db
              .select(fields as never)
              .from(table)
              .$dynamic() as PgSelect);

      // Counted exactly up to the bound only; beyond it the total is a lower bound (domain pager rule).
      const bounded = base({ one: sql`1` }, !keepsRows || readsOtherTables(where, table))
        .where(where)
        .limit(countBound + 1)
        .as("bounded");
      const counting = db.select({ total: count() }).from(bounded) as unknown as Promise<{ total: number }[]>;

      // One row past the page tells whether more follow. Deep pages skip over ids read from an index
      // alone, and only the page's own rows are joined and have their derived values computed.
      let reading: Promise<Row[]>;
      if (keepsRows) {
        const pageIds = base({ id: table.id }, readsOtherTables([where, keys], table))
          .where(where)
          .orderBy(...orderBy)
          .limit(pageSize + 1)
          .offset(offset);
        reading = select(db, format)
          .where(sql`${table.id} = any(array(${pageIds}))`)
          .orderBy(...orderBy) as Promise<Row[]>;
      } else {
        reading = select(db, format)
          .where(where)
          .orderBy(...orderBy)
          .limit(pageSize + 1)
          .offset(offset) as Promise<Row[]>;
      }
      const [read, totals] = await Promise.all([reading, counting]);
      const rows = read.slice(0, pageSize);
      const counted = Number(totals[0]?.total ?? 0);
      const total =
        counted <= countBound ? counted : Math.max(counted, read.length > 0 ? offset + read.length : 0);
      const items = def.expand && rows.length > 0 ? await def.expand(db, rows, format) : rows;
      return { items, pagination: { page: q.page, pageSize, total } };
    },

    /**
     * A CSV export of the list (issue 15): every row the list call means, in its order, no paging.
     * Rows are read in batches after the last one's sort keys (keyset), each batch its own short
     * query, so no connection or transaction is held while the client reads. Parameters and columns
     * are checked before anything is sent.
     */
    async export(query: unknown, user: SessionUser | null) {
      const q = parseQuery(exportQuery, query) as ListParams & { columns?: string };
      const format = q.format ?? def.listFormat ?? "view";
      const columns = parseCsvColumns(q.columns, exportColumns(format));
      const where = listWhere(q, user);
      const { keys, descending, orderBy } = listOrder(q);
      const shape = formats[format];
      // A key is never null only when it is a NOT NULL column of the base table that no outer join empties.
      const keepsRows = !shape.joins || shape.joinsKeepRows === true;
      const keyset: KeysetKey[] = keys.map((key) => {
        const column = is(key, Column) ? key : is(key, SQL) ? nullableAs.get(key) : undefined;
        return { key, nullable: !(column?.notNull && column.table === table && keepsRows) };
      });
      const keyFields = Object.fromEntries(
        keyset.map(({ key }, i) => [`__keyset${i}`, sql`${is(key, SQL.Aliased) ? key.sql : key}`]),
      );
      const text = (row: Row, key: string) => def.exportText?.[key]?.(row) ?? cellText(row[key]);

      async function* batches() {
        let last: unknown[] | null = null;
        for (;;) {
          const read = (await select(db, format, { ...shape.fields, ...keyFields })
            .where(and(where, last ? keysetAfter(keyset, last, descending) : undefined))
            .orderBy(...orderBy)
            .limit(exportBatchSize)) as Row[];
          if (read.length === 0) return;
          const lastRow = read[read.length - 1];
          last = keyset.map((_, i) => lastRow[`__keyset${i}`]);
          const rows = def.expand ? await def.expand(db, read, format) : read;
          yield rows.map((row) => columns.map((column) => text(row, column.key)));
          if (read.length < exportBatchSize) return;
        }
      }
      return { header: columns.map((column) => column.title), batches: batches() };
    },

    async get(idOrUuid: string, query: unknown, user: SessionUser | null): Promise<Row> {
      const { format } = parseQuery(getQuery, query);
      const where = whereIdOrUuid(idOrUuid);
      const record = where ? await readOne(db, where, def.scope?.(user), format ?? "view") : null;
      if (!record) throw notFound(`${label} not found`);
      return record;
    },

    async create(body: unknown, user: SessionUser | null, change: ChangeContext): Promise<Row> {
      const input = parseInput(body);
      const uuid = typeof input.uuid === "string" && input.uuid !== "" ? input.uuid : newUuid(def.name);
      if (!isUuidOf(def.name, uuid)) {
        throw validationError({
          uuid: `Uuid must be a version-4 uuid with the prefix ${uuidPrefixes[def.name]}`,
        });
      }
      return db
        .transaction(async (tx) => {
          const ctx: WriteContext = { tx, user, change, existing: null };
          const values = await toRow(input, ctx);
          const [{ id }] = (await tx
            .insert(table)
            .values({ ...values, uuid } as never)
            .returning({ id: table.id })) as { id: number }[];
          await def.writeChildren?.(id, input, ctx);
          const record = (await readOne(tx, eq(table.id, id))) as Row;
          await def.afterChange?.(tx, null, record);
          const changes = [...diff(null, record), ...secretChanges(input)];
          await recordAudit(tx, change, { resource: def.name, uuid, action: "create", changes });
          return record;
        })
        .catch(mapDbError);
    },

    async update(uuid: string, body: unknown, user: SessionUser | null, change: ChangeContext): Promise<Row> {
      const input = parseInput(body);
      const errors: FieldError[] = [];
      if (typeof input.uuid === "string" && input.uuid !== "" && input.uuid !== uuid) {
        errors.push({ field: "uuid", message: "Uuid does not match the record being saved" });
      }
      if (typeof input.version !== "number")
        errors.push({ field: "version", message: "Version is required" });
      if (errors.length > 0) throw validationError(errors);
      return db
        .transaction(async (tx) => {
          const locked = await lock(tx, uuid, user);
          if (!locked) throw notFound(`${label} not found`);
          if (locked.version !== input.version) {
            throw conflict(
              `This ${label.toLowerCase()} was changed by someone else since you opened it. Reload it to see the changes.`,
            );
          }
          const before = (await readOne(tx, eq(table.id, locked.id))) as Row;
          const ctx: WriteContext = { tx, user, change, existing: before };
          const values = await toRow(input, ctx);
          await tx
            .update(table)
            .set({ ...values, version: sql`${table.version} + 1`, updatedAt: sql`now()` } as never)
            .where(eq(table.id, locked.id));
          await def.writeChildren?.(locked.id, input, ctx);
          const after = (await readOne(tx, eq(table.id, locked.id))) as Row;
          await def.afterChange?.(tx, before, after);
          const changes = [...diff(before, after), ...secretChanges(input)];
          if (changes.length > 0)
            await recordAudit(tx, change, { resource: def.name, uuid, action: "update", changes });
          return after;
        })
        .catch(mapDbError);
    },

    async remove(uuid: string, user: SessionUser | null, change: ChangeContext): Promise<void> {
      await db
        .transaction(async (tx) => {
          const locked = await lock(tx, uuid, user);
          if (!locked) throw notFound(`${label} not found`);
          const before = (await readOne(tx, eq(table.id, locked.id))) as Row;
          await def.beforeDelete?.(locked.id, { tx, user, change, existing: before });
          await tx.delete(table).where(eq(table.id, locked.id));
          await def.afterChange?.(tx, before, null);
          await recordAudit(tx, change, {
            resource: def.name,
            uuid,
            action: "delete",
            changes: diff(before, null),
          });
        })
        .catch(mapDbError);
    },
  };
}

export type ResourceService = ReturnType<typeof resourceService>;

const uuidParams = z.object({ uuid: z.string() });
const idParams = z.object({ id: z.string().describe("uuid or numeric id") });

/** The five routes of a described resource under /api/{name}. */
export function registerResource<Input extends Row>(
  fastify: FastifyInstance,
  deps: Deps,
  def: ResourceDescription<Input>,
) {
  // Params and query strings typed from their schemas.
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const service = resourceService(deps.db, def);
  const base = `/api/${def.name}`;
  const access = resourceAccess(def.name);
  const tags = [def.name];

  app.get(
    base,
    {
      config: { access: access.list },
      schema: { querystring: service.listQuery, tags },
      onRequest: async (request) => {
        request.query = service.withPreset(request.query) as typeof request.query;
      },
    },
    async (request, reply) =>
      send(request, reply, await service.list(request.query, request.user, deps.config.defaultPageSize)),
  );
  app.get(
    `${base}/export`,
    {
      config: { access: access.list },
      schema: { querystring: service.exportQuery, tags },
      onRequest: async (request) => {
        request.query = service.withPreset(request.query) as typeof request.query;
      },
    },
    async (request, reply) => {
      const { header, batches } = await service.export(request.query, request.user);
      return sendCsv(reply, def.name, header, batches);
    },
  );
  app.get(
    `${base}/:id`,
    {
      config: { access: access.get },
      schema: {
        params: idParams,
        querystring: service.getQuery,
        tags,
        ...(access.get === "public" ? { security: [] } : {}),
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      return send(request, reply, await service.get(id, request.query, request.user));
    },
  );
  app.post(
    base,
    { config: { access: access.write }, schema: { body: def.schema, tags } },
    async (request, reply) =>
      send(request, reply, await service.create(request.body, request.user, changeContext(request)), 201),
  );
  app.put(
    `${base}/:uuid`,
    { config: { access: access.write }, schema: { params: uuidParams, body: def.schema, tags } },
    async (request, reply) => {
      const { uuid } = request.params;
      return send(
        request,
        reply,
        await service.update(uuid, request.body, request.user, changeContext(request)),
      );
    },
  );
  app.delete(
    `${base}/:uuid`,
    { config: { access: access.write }, schema: { params: uuidParams, tags } },
    async (request, reply) => {
      const { uuid } = request.params;
      await service.remove(uuid, request.user, changeContext(request));
      return send(request, reply, { deleted: true });
    },
  );
  return service;
}
