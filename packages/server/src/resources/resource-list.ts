import { countBound, type ListData, maxPageSize, searchedWithin } from "@trialdesk/domain";
import { and, asc, desc, type SQL, type SQLWrapper, sql } from "drizzle-orm";
import type { PgSelect } from "drizzle-orm/pg-core";
import { z } from "zod";
import type { SessionUser } from "../auth/guards";
import { queryRows, readsOf } from "../db/client";
import { validationError } from "../http/errors";
import { booleanParam } from "./params";
import type { ResourceContext } from "./resource-context";
import { type Row, readsOtherTables, type Selection } from "./resource-definition";
import { intArray, parseQuery, searchCondition } from "./resource-query";

/** The list query's field for the bounded count, beside the page's own fields. */
const totalField = "listTotal";

/** Words of a search term that count when a resource searches by word. */
const maxSearchWords = 5;

/** A list call's parameters as parsed: search, order, format and the resource's filters. */
export type ListParams = Record<string, unknown> & {
  searchTerm?: string;
  order?: string;
  direction?: "asc" | "desc";
  format?: string;
};

/**
 * A resource's list: its query parameters, and the rows a call means (scope, search,
 * filters) in its order, one page of them with a bounded count. The export reads the same rows.
 */
export function resourceList<Input extends Row>(context: ResourceContext<Input>) {
  const { db, def, table, formats, isMonitor, hidden, scopeOf, forCaller, select, statements } = context;
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

  /** One page of the rows a list call means, with the count (bounded: see the domain's pager rule). */
  async function list(
    query: unknown,
    user: SessionUser | null,
    defaultPageSize: number,
  ): Promise<ListData<Row>> {
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
        ? select(listDb, format, withTotal).where(sql`${table.id} = any(array(${pageIds({ id: table.id })}))`)
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
  }

  return { listQuery, withPreset, listWhere, listOrder, list };
}

export type ResourceList = ReturnType<typeof resourceList>;
