import {
  changeNeedsReason,
  changeReasonMessages,
  countBound,
  type FieldError,
  type FieldErrors,
  isUuidOf,
  type ListData,
  maxPageSize,
  newUuid,
  resourceRegistry,
  searchedWithin,
  uuidPrefixes,
} from "@trialdesk/domain";
import {
  and,
  asc,
  Column,
  desc,
  eq,
  getTableColumns,
  getTableName,
  is,
  type Placeholder,
  SQL,
  type SQLWrapper,
  sql,
} from "drizzle-orm";
import type { PgColumn, PgSelect } from "drizzle-orm/pg-core";
import { z } from "zod";
import { type ChangeContext, diff, recordAudit } from "../audit/audit";
import type { SessionUser } from "../auth/guards";
import {
  builtOnce,
  type Db,
  namedByText,
  prepared,
  queryRows,
  type Runnable,
  readsOf,
  type Tx,
  writeTogether,
} from "../db/client";
import { cellText, parseCsvColumns } from "../http/csv";
import { databaseError } from "../http/database-errors";
import { badRequest, conflict, notFound, validationError } from "../http/errors";
import { booleanParam } from "./params";
import {
  type Format,
  nullableAs,
  type ResourceDescription,
  type Row,
  readsOtherTables,
  type Selection,
  type WriteContext,
} from "./resource-definition";
import {
  intArray,
  type KeysetKey,
  keysetAfter,
  parseQuery,
  searchCondition,
  zodFieldErrors,
} from "./resource-query";
import { anyAdministrator, anyStaffMember, siteIdsOf } from "./site-scope";

const bookkeepingColumns = new Set(["createdAt", "updatedAt"]);
/** Rows an export reads at a time. */
export const exportBatchSize = 500;
const maxInt = 2_147_483_647;
/** The list query's field for the bounded count, beside the page's own fields. */
const totalField = "listTotal";

/** Words of a search term that count when a resource searches by word. */
const maxSearchWords = 5;

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

  /**
   * An edit or deletion of recorded clinical data without a reason is refused, and nothing changes
   * (issue 46, point 1): asked of the stored record, as a visit only booked needs none (decision 229).
   */
  function refuseWithoutReason(stored: Row, change: ChangeContext) {
    if (changeNeedsReason(def.name, stored) && !change.reason)
      throw badRequest(changeReasonMessages.required);
  }

  /** Whether the caller is a monitor (issue 44): their own scope, search and hidden fields. */
  const isMonitor = (user: SessionUser | null) => user?.kind === "monitor";
  const hidden = new Set(def.monitors?.hide ?? []);
  /** The rows the caller may see: a monitor's assignments (none without a monitor view), or the scope. */
  function scopeOf(user: SessionUser | null): SQL | undefined {
    if (user && isMonitor(user)) return def.monitors?.scope(sql`${user.id}`) ?? sql`false`;
    return def.scope?.(user);
  }
  /** A record as the caller may read it: without what identifies a patient, for a monitor. */
  function forCaller<R extends Row | null>(row: R, user: SessionUser | null): R {
    if (!row || !isMonitor(user) || hidden.size === 0) return row;
    return Object.fromEntries(Object.entries(row).filter(([key]) => !hidden.has(key))) as R;
  }

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
    return firstExpanded(tx, (await select(tx, format).where(and(where, scope)).limit(1)) as Row[], format);
  }

  /** The resource's statements built once: reads by key, searched pages' rows, and saves. */
  const statements = builtOnce();

  /**
   * A row's values as placeholders, under a key naming the fields written, for a statement built once;
   * null when a value is SQL (computed in the statement), which is then built on every call. The values
   * go as Drizzle sends them: each column's driver value, null as null.
   */
  function asPlaceholders(row: Row) {
    const keys = Object.keys(row).filter((key) => key in columns && row[key] !== undefined);
    if (keys.some((key) => is(row[key], SQL))) return null;
    return {
      key: keys.join(","),
      placeholders: Object.fromEntries(keys.map((key) => [key, sql`${sql.placeholder(key)}`])),
      values: Object.fromEntries(
        keys.map((key) => [key, row[key] === null ? null : columns[key].mapToDriverValue(row[key])]),
      ),
    };
  }

  /** The view of one record by id, for the machinery's own reads inside a save. */
  async function readById(tx: Tx, id: number): Promise<Row | null> {
    const read = statements(tx, "read", () =>
      select(tx, "view")
        .where(eq(table.id, sql.placeholder("id")))
        .limit(1)
        .prepare(namedByText),
    );
    return firstExpanded(tx, (await read.execute({ id })) as Row[], "view");
  }

  /**
   * The insert (`id` null) or update of `row`, returning every column; `id` may be a placeholder.
   */
  function writeOf(tx: Tx, row: Row, id: number | Placeholder | null) {
    if (id === null)
      return tx
        .insert(table)
        .values(row as never)
        .returning();
    return tx
      .update(table)
      .set({ ...row, version: sql`${table.version} + 1`, updatedAt: sql`now()` } as never)
      .where(eq(table.id, id))
      .returning();
  }

  /**
   * Writes a record (an insert, or the update of record `id`) and answers it as the view format reads it.
   * Without children to write, in the write's own statement: the write is a WITH part named as the
   * table, so the view's columns and joins read the written row (a statement does not see its own
   * writes in the table). That is one round trip less for every save (issue 14); it holds while no
   * view field reads other rows of its own table. Children are written between the two otherwise.
   */
  async function written(
    tx: Tx,
    row: Row,
    id: number | null,
    input: Input,
    ctx: WriteContext,
  ): Promise<{ record: Row; alongside?: Row }> {
    if (!def.writeChildren) {
      const alongsideKeys = Object.keys(def.readWithWrite ?? {});
      const rows = (await runWrite(tx, row, id, "read as viewed", (write) => {
        const written = tx.$with(getTableName(table), {}).as(write.getSQL());
        const shape = formats.view;
        const query = tx
          .with(written)
          .select({ ...shape.fields, ...def.readWithWrite } as never)
          .from(table)
          .$dynamic() as unknown as PgSelect;
        return shape.joins ? shape.joins(query) : query;
      })) as Row[];
      if (alongsideKeys.length === 0) return { record: (await firstExpanded(tx, rows, "view")) as Row };
      const alongside: Row = {};
      const viewed = rows.map((read) => {
        const rest = { ...read };
        for (const key of alongsideKeys) {
          alongside[key] = read[key];
          delete rest[key];
        }
        return rest;
      });
      return { record: (await firstExpanded(tx, viewed, "view")) as Row, alongside };
    }
    const [written] = (await runWrite(tx, row, id, "returning its id", (write) => write)) as { id: number }[];
    await def.writeChildren(written.id, input, ctx);
    return { record: (await readById(tx, written.id)) as Row };
  }

  /**
   * Runs the write of `row` (see writeOf) as `statement` makes it a query (`what` names that in its
   * key): built once for the fields written when their values are plain (asPlaceholders), else built
   * for this call.
   */
  async function runWrite(
    tx: Tx,
    row: Row,
    id: number | null,
    what: string,
    statement: (
      write: ReturnType<typeof writeOf>,
    ) => PromiseLike<unknown> & { prepare(name: string): Runnable },
  ) {
    const as = asPlaceholders(row);
    if (!as) return statement(writeOf(tx, row, id));
    const key = `${id === null ? "insert" : "update"} ${what} ${as.key}`;
    const placeholderId = id === null ? null : sql.placeholder("$id");
    return statements(tx, key, () =>
      statement(writeOf(tx, as.placeholders, placeholderId)).prepare(namedByText),
    ).execute({ ...as.values, $id: id });
  }

  /** The first of a read's rows with its children (`expand`), or null for none. */
  async function firstExpanded(tx: Tx | Db, rows: Row[], format: string): Promise<Row | null> {
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

  /** A record's key as a route names it: its id (digits) or its uuid; null for neither. */
  function keyOf(idOrUuid: string): { column: "id" | "uuid"; value: number | string } | null {
    if (/^\d{1,10}$/.test(idOrUuid)) {
      const id = Number(idOrUuid);
      return id <= maxInt ? { column: "id", value: id } : null;
    }
    return idOrUuid.length <= 80 ? { column: "uuid", value: idOrUuid } : null;
  }

  /**
   * The read by key, built once per format, key and kind of caller and prepared (issue 14: building the
   * SQL text was a quarter of a patient view's process time). The caller's scope is made for a stand-in
   * of their kind, whose sites are the statement's `siteIds` parameter.
   */
  function readByKey(format: string, column: "id" | "uuid", user: SessionUser | null) {
    const admin = user?.isAdmin === true;
    const monitor = isMonitor(user);
    const name = `${def.name}_${format}_${column}_${admin ? "all" : monitor ? "monitor" : "sites"}`;
    const scope = monitor
      ? (def.monitors?.scope(sql.placeholder("monitorId")) ?? sql`false`)
      : def.scope?.(admin ? anyAdministrator : anyStaffMember);
    return statements(db, name, () =>
      select(db, format)
        .where(and(eq(table[column], sql.placeholder("key")), scope))
        .limit(1)
        .prepare(name),
    );
  }

  /**
   * A searched list page's rows by their ids (`ids`: one int[] value), in the list's order: built once
   * per format and order and prepared, as the reads by key are.
   */
  function rowsByIds(format: string, order: string, descending: boolean, orderBy: SQL[]) {
    const name = `${def.name}_${format}_${order}_${descending ? "desc" : "asc"}_page`;
    return statements(db, name, () =>
      select(db, format)
        .where(sql`${table.id} = any(${sql.placeholder("ids")}::int[])`)
        .orderBy(...orderBy)
        .prepare(name),
    );
  }

  const mapDbError = (error: unknown): never => {
    throw databaseError(error, { label, unique: def.unique }) ?? error;
  };

  async function lock(tx: Tx, uuid: string, user: SessionUser | null) {
    if (uuid.length > 80) return null;
    const [row] = (await tx
      .select({ id: table.id, version: table.version })
      .from(table)
      .where(and(eq(table.uuid, uuid), scopeOf(user)))
      .for("update")) as { id: number; version: number }[];
    return row ?? null;
  }

  type ListParams = Record<string, unknown> & {
    searchTerm?: string;
    order?: string;
    direction?: "asc" | "desc";
    format?: string;
  };

  /**
   * The words of a list call's search (the whole term unless the resource searches by word). A word of
   * one letter is left out, as the worklist's search leaves it (searchedWithin): it is in nearly every
   * row and no index finds it (issue 46, decision 242).
   */
  function searchWords(q: ListParams): string[] {
    const term = q.searchTerm?.trim();
    if (!term) return [];
    return (def.searchByWord ? term.split(/\s+/) : [term]).filter(searchedWithin).slice(0, maxSearchWords);
  }

  /**
   * The rows a list call means: the user's scope, the search and the filters. A search in another
   * table's columns first looks up what each word matches there (searchCondition).
   */
  async function listWhere(q: ListParams, user: SessionUser | null) {
    const scope = scopeOf(user);
    const words = searchWords(q);
    const columns = isMonitor(user) ? (def.monitors?.search ?? []) : def.search;
    if (isMonitor(user) && hidden.has(q.order ?? ""))
      throw validationError({ order: "A monitor cannot sort by this column" });
    const search =
      words.length > 0 && columns.length === 0
        ? { page: sql`false`, count: sql`false` }
        : await searchCondition(db, words, columns);
    const filters: (SQL | undefined)[] = [];
    for (const [key, filter] of Object.entries(def.filters ?? {})) {
      if (q[key] !== undefined) filters.push(filter.where(q[key] as never, user));
    }
    // The search has a form of its own for counting (searchCondition).
    return { where: and(scope, search?.page, ...filters), countWhere: and(scope, search?.count, ...filters) };
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
  function exportColumns(format: string, user: SessionUser | null): Set<string> {
    const plain = Object.entries(formats[format].fields)
      .filter(([, field]) => is(field, Column) || is(field, SQL) || is(field, SQL.Aliased))
      .map(([key]) => key);
    const all = [...plain, ...Object.keys(def.exportText ?? {})];
    return new Set(isMonitor(user) ? all.filter((key) => !hidden.has(key)) : all);
  }

  return {
    def,
    formats,
    scopeOf,
    forCaller,
    hidden,
    listQuery,
    withPreset,
    exportQuery,
    getQuery,
    readOne,

    async list(query: unknown, user: SessionUser | null, defaultPageSize: number): Promise<ListData<Row>> {
      const q = parseQuery(listQuery, query) as ListParams & z.infer<typeof listQuery>;
      const pageSize = q.pagesize ?? defaultPageSize;
      const format = q.format ?? def.listFormat ?? "view";
      const { where, countWhere } = await listWhere(q, user);
      const { keys, descending, orderBy } = listOrder(q);
      const offset = (q.page - 1) * pageSize;
      const shape = formats[format];
      const keepsRows = !shape.joins || shape.joinsKeepRows === true;
      // Named statements (planned once per connection) unless searched: a plan hardly depends on which
      // site or study a list is of, but a search's depends on its words; a generic plan took the search
      // "a" from 14 to 232 ms (decision 148).
      const searched = searchWords(q).length > 0;
      const { db: listDb, run } = readsOf(db, "list", !searched);
      const base = (fields: Selection, needsJoins: boolean) =>
        needsJoins
          ? select(listDb, format, fields)
          : (listDb
              .select(fields as never)
              .from(table)
              .$dynamic() as PgSelect);

      // Counted exactly up to the bound only; beyond it the total is a lower bound (domain pager rule).
      const bounded = base({ one: sql`1` }, !keepsRows || readsOtherTables(countWhere, table))
        .where(countWhere)
        .limit(countBound + 1)
        .as("bounded");
      // The count rides along with the page (its ids, or its rows), computed once (issue 14); only a
      // page past the end, which has no row to carry it, asks for it on its own.
      const boundedCount = sql<number>`(select count(*)::int from ${bounded})`;
      const withTotal = { ...shape.fields, [totalField]: boundedCount };

      // One row past the page tells whether more follow. Deep pages skip over ids read from an index
      // alone, and only the page's own rows are joined and have their derived values computed.
      const pageIds = (fields: Selection) =>
        base(fields, readsOtherTables([where, keys], table))
          .where(where)
          .orderBy(...orderBy)
          .limit(pageSize + 1)
          .offset(offset);
      type Counted = { [totalField]?: number };
      /** The page's rows (one more if more follow), and the count that rode along with them. */
      let read: Row[];
      let carried: number | undefined;
      const countAlone = () => queryRows<{ total: number }>(listDb, sql`select ${boundedCount} as total`);
      if (keepsRows && searched) {
        // A search's ids are planned for its words, alone; the rows of those ids are then read by a
        // statement built and planned once per format and order (decision 166).
        const page = (await pageIds({ id: table.id })) as { id: number }[];
        // A page with room to spare ends the list, so it tells the count: a search finding a few
        // patients (a barcode, a name) does not read its matches a second time to count them
        // (decision 175). Otherwise they are counted beside the read of the page's rows.
        const endsList = page.length <= pageSize && (page.length > 0 || offset === 0);
        const [rowsRead, count] = await Promise.all([
          page.length === 0
            ? []
            : (rowsByIds(format, q.order ?? defaultSort, descending, orderBy).execute({
                ids: intArray(page.map((row) => row.id)),
              }) as Promise<Row[]>),
          endsList ? offset + page.length : countAlone().then(([row]) => row.total),
        ]);
        read = rowsRead;
        carried = count;
      } else {
        const rowsOf = keepsRows
          ? select(listDb, format, withTotal).where(
              sql`${table.id} = any(array(${pageIds({ id: table.id })}))`,
            )
          : select(listDb, format, withTotal)
              .where(where)
              .limit(pageSize + 1)
              .offset(offset);
        const withCount = await run(async () => (await rowsOf.orderBy(...orderBy)) as (Row & Counted)[]);
        carried = withCount[0]?.[totalField];
        read = withCount.map(({ [totalField]: _, ...row }) => row as Row);
      }
      const rows = read.slice(0, pageSize);
      const counted = Number(carried ?? (await run(countAlone))[0].total);
      const total =
        counted <= countBound ? counted : Math.max(counted, read.length > 0 ? offset + read.length : 0);
      const expand = def.expand;
      const expanded = expand && rows.length > 0 ? await run(() => expand(listDb, rows, format)) : rows;
      const items = expanded.map((row) => forCaller(row, user));
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
      const columns = parseCsvColumns(q.columns, exportColumns(format, user));
      const { where } = await listWhere(q, user);
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
      const key = keyOf(idOrUuid);
      const shape = format ?? "view";
      const rows = key
        ? ((await readByKey(shape, key.column, user).execute({
            key: key.value,
            ...(isMonitor(user) ? { monitorId: user?.id } : { siteIds: siteIdsOf(user) }),
          })) as Row[])
        : [];
      const record = await prepared(db, "record", (named) => firstExpanded(named, rows, shape));
      if (!record) throw notFound(`${label} not found`);
      return forCaller(record, user);
    },

    async create(body: unknown, user: SessionUser | null, change: ChangeContext): Promise<Row> {
      const input = parseInput(body);
      const uuid = typeof input.uuid === "string" && input.uuid !== "" ? input.uuid : newUuid(def.name);
      if (!isUuidOf(def.name, uuid)) {
        throw validationError({
          uuid: `Uuid must be a version-4 uuid with the prefix ${uuidPrefixes[def.name]}`,
        });
      }
      // One record by its key, each statement of the same text every time: prepared.
      return prepared(db, "record", (named) =>
        named.transaction(async (tx) => {
          const ctx: WriteContext = { tx, user, change, existing: null, found: {} };
          const values = await toRow(input, ctx);
          const { record, alongside } = await written(tx, { ...values, uuid }, null, input, ctx);
          const later = await def.afterChange?.(tx, null, record, alongside, change, ctx.found);
          const changes = [...diff(null, record), ...secretChanges(input)];
          await recordAudit(tx, change, { resource: def.name, uuid, action: "create", changes }, later);
          return forCaller(record, user);
        }),
      ).catch(mapDbError);
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
      // One record by its key, each statement of the same text every time: prepared.
      return prepared(db, "record", (named) =>
        named.transaction(async (tx) => {
          const locked = await lock(tx, uuid, user);
          if (!locked) throw notFound(`${label} not found`);
          if (locked.version !== input.version) {
            throw conflict(
              `This ${label.toLowerCase()} was changed by someone else since you opened it. Reload it to see the changes.`,
            );
          }
          const before = (await readById(tx, locked.id)) as Row;
          refuseWithoutReason(before, change);
          const ctx: WriteContext = { tx, user, change, existing: before, found: {} };
          const values = await toRow(input, ctx);
          const { record: after, alongside } = await written(tx, values, locked.id, input, ctx);
          const later = await def.afterChange?.(tx, before, after, alongside, change, ctx.found);
          const changes = [...diff(before, after), ...secretChanges(input)];
          await (changes.length > 0
            ? recordAudit(tx, change, { resource: def.name, uuid, action: "update", changes }, later)
            : writeTogether(tx, later ?? []));
          return forCaller(after, user);
        }),
      ).catch(mapDbError);
    },

    async remove(uuid: string, user: SessionUser | null, change: ChangeContext): Promise<void> {
      await prepared(db, "record", (named) =>
        named.transaction(async (tx) => {
          const locked = await lock(tx, uuid, user);
          if (!locked) throw notFound(`${label} not found`);
          const before = (await readById(tx, locked.id)) as Row;
          refuseWithoutReason(before, change);
          await def.beforeDelete?.(locked.id, { tx, user, change, existing: before, found: {} });
          await tx.delete(table).where(eq(table.id, locked.id));
          const later = await def.afterChange?.(tx, before, null, undefined, change, {});
          await recordAudit(
            tx,
            change,
            { resource: def.name, uuid, action: "delete", changes: diff(before, null) },
            later,
          );
        }),
      ).catch(mapDbError);
    },
  };
}

export type ResourceService = ReturnType<typeof resourceService>;
