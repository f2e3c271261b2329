import { resourceRegistry } from "@trialdesk/domain";
import { and, getTableColumns, type SQL, sql } from "drizzle-orm";
import type { PgColumn, PgSelect } from "drizzle-orm/pg-core";
import type { SessionUser } from "../auth/guards";
import { builtOnce, type Db, type Tx } from "../db/client";
import type { Format, ResourceDescription, Row, Selection } from "./resource-definition";

/** Columns the machinery keeps itself: neither shown by default nor written from input. */
export const bookkeepingColumns = new Set(["createdAt", "updatedAt"]);

/**
 * What every operation of one described resource shares (list, export, get and the writes): its
 * label, columns and formats, the caller's scope and hidden fields, and the statements built once.
 */
export function resourceContext<Input extends Row>(db: Db, def: ResourceDescription<Input>) {
  const table = def.table;
  /** The record's name in messages, e.g. "Therapy category". */
  const label: string = resourceRegistry[def.name].label;
  const columns = getTableColumns(table) as Record<string, PgColumn>;
  const plainFields = Object.fromEntries(
    Object.entries(columns).filter(([key]) => !bookkeepingColumns.has(key)),
  );
  const formats: Record<string, Format> = def.formats ?? { view: { fields: plainFields } };

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

  function select(tx: Tx | Db, format: string, fields?: Selection): PgSelect {
    const shape = formats[format];
    const query = tx
      .select((fields ?? shape.fields) as never)
      .from(table)
      .$dynamic() as unknown as PgSelect;
    return shape.joins ? shape.joins(query) : query;
  }

  /** The first of a read's rows with its children (`expand`), or null for none. */
  async function firstExpanded(tx: Tx | Db, rows: Row[], format: string): Promise<Row | null> {
    if (rows.length === 0) return null;
    return def.expand ? (await def.expand(tx, rows, format))[0] : rows[0];
  }

  /** One record in a format; `scope` is the caller's row filter (none for the machinery's own reads). */
  async function readOne(tx: Tx | Db, where: SQL, scope?: SQL, format = "view"): Promise<Row | null> {
    return firstExpanded(tx, (await select(tx, format).where(and(where, scope)).limit(1)) as Row[], format);
  }

  return {
    db,
    def,
    table,
    label,
    columns,
    formats,
    isMonitor,
    hidden,
    scopeOf,
    forCaller,
    select,
    firstExpanded,
    readOne,
    /** The resource's statements built once: reads by key, searched pages' rows, and saves. */
    statements: builtOnce(),
  };
}

export type ResourceContext<Input extends Row = Row> = ReturnType<typeof resourceContext<Input>>;
