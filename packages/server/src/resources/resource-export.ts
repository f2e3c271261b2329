import { and, Column, is, SQL, sql } from "drizzle-orm";
import { z } from "zod";
import type { SessionUser } from "../auth/guards";
import { cellText, parseCsvColumns } from "../http/csv";
import type { ResourceContext } from "./resource-context";
import { nullableAs, type Row } from "./resource-definition";
import type { ListParams, ResourceList } from "./resource-list";
import { type KeysetKey, keysetAfter, parseQuery } from "./resource-query";

/** A resource's CSV export: the list's rows (its `listWhere` and `listOrder`), every one, in batches. */
export function resourceExport<Input extends Row>(
  context: ResourceContext<Input>,
  { listQuery, listWhere, listOrder }: Pick<ResourceList, "listQuery" | "listWhere" | "listOrder">,
) {
  const { db, def, table, formats, isMonitor, hidden, select } = context;

  /** An export takes the list's search, filters, order and format, no paging, and its columns. */
  const exportQuery = listQuery.omit({ page: true, pagesize: true }).extend({
    columns: z.string().max(20_000).describe("JSON list of [key, title] pairs").optional(),
  });

  /** Columns an export may name in a format: its own plain fields, and the resource's export texts. */
  function exportColumns(format: string, user: SessionUser | null): Set<string> {
    const plain = Object.entries(formats[format].fields)
      .filter(([, field]) => is(field, Column) || is(field, SQL) || is(field, SQL.Aliased))
      .map(([key]) => key);
    const all = [...plain, ...Object.keys(def.exportText ?? {})];
    return new Set(isMonitor(user) ? all.filter((key) => !hidden.has(key)) : all);
  }

  /**
   * A CSV export of the list (issue 15): every row the list call means, in its order, no paging.
   * Rows are read in batches after the last one's sort keys (keyset), each batch its own short
   * query, so no connection or transaction is held while the client reads. Parameters and columns
   * are checked before anything is sent.
   */
  async function exportCsv(query: unknown, user: SessionUser | null, batchRows: number) {
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
          .limit(batchRows)) as Row[];
        if (read.length === 0) return;
        const lastRow = read[read.length - 1];
        last = keyset.map((_, i) => lastRow[`__keyset${i}`]);
        const rows = def.expand ? await def.expand(db, read, format) : read;
        yield rows.map((row) => columns.map((column) => text(row, column.key)));
        if (read.length < batchRows) return;
      }
    }
    return { header: columns.map((column) => column.title), batches: batches() };
  }

  return { exportQuery, export: exportCsv };
}
