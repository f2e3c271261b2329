import { and, eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { SessionUser } from "../auth/guards";
import { prepared } from "../db/client";
import { notFound } from "../http/errors";
import { maxId } from "./params";
import type { ResourceContext } from "./resource-context";
import type { Row } from "./resource-definition";
import { parseQuery } from "./resource-query";
import { anyAdministrator, anyStaffMember, siteIdsOf } from "./site-scope";

/** A record's key as a route names it: its id (digits) or its uuid; null for neither. */
function keyOf(idOrUuid: string): { column: "id" | "uuid"; value: number | string } | null {
  if (/^\d{1,10}$/.test(idOrUuid)) {
    const id = Number(idOrUuid);
    return id <= maxId ? { column: "id", value: id } : null;
  }
  return idOrUuid.length <= 80 ? { column: "uuid", value: idOrUuid } : null;
}

/** A resource's read of one record by its id or uuid, in a format, as the caller may see it. */
export function resourceGet<Input extends Row>(context: ResourceContext<Input>) {
  const { db, def, table, label, formats, isMonitor, forCaller, select, firstExpanded, statements } = context;

  const getQuery = z.strictObject({
    format: z.enum(Object.keys(formats) as [string, ...string[]], { error: "Unknown format" }).optional(),
  });

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

  async function get(idOrUuid: string, query: unknown, user: SessionUser | null): Promise<Row> {
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
  }

  return { getQuery, get };
}
