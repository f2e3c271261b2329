import { mayAccess, monitorMay, resourceAccess } from "@trialdesk/domain";
import { and, desc, eq, isNotNull, sql } from "drizzle-orm";
import type { PgSelect } from "drizzle-orm/pg-core";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { currentUser, type SessionUser } from "../auth/guards";
import type { Db } from "../db/client";
import type { Deps } from "../deps";
import { send } from "../http/envelope";
import { forbidden } from "../http/errors";
import { answers } from "../http/openapi-responses";
import { parseQuery, type ResourceDescription } from "../resources/resource";
import { auditTrail } from "./audit";
import { auditEvents } from "./audit.table";
import { describeHistory } from "./history";

export const auditQuery = z.strictObject({
  resource: z.string().min(1).max(40),
  uuid: z.string().min(1).max(80),
});

/**
 * Whether the user may read this record's history: the resource's own read access (administrators
 * only for users and monitors), and for site-scoped data the same scope as reading the record; a
 * deleted record's history follows the site its audit rows kept.
 */
async function mayReadHistory(
  db: Db,
  // biome-ignore lint/suspicious/noExplicitAny: any described resource, whatever its input type.
  def: ResourceDescription<any>,
  uuid: string,
  user: SessionUser,
): Promise<boolean> {
  if (user.kind === "monitor") {
    // A monitor reads the history of what they may read, and of nothing else (issue 44).
    if (!def.monitors || !monitorMay(def.name, "read")) throw forbidden();
    // Read as the record is read: a scope may name a table its view joins (a studyplan's study).
    const query = db.select({ id: def.table.id }).from(def.table).$dynamic() as unknown as PgSelect;
    const joined = def.formats?.view?.joins?.(query) ?? query;
    const [visible] = await joined.where(and(eq(def.table.uuid, uuid), def.monitors.scope(sql`${user.id}`)));
    return Boolean(visible);
  }
  if (!mayAccess(resourceAccess(def.name).get, user)) throw forbidden();
  const scope = def.scope?.(user);
  if (!scope) return true;
  const table = def.table;
  const [record] = await db.select({ id: table.id }).from(table).where(eq(table.uuid, uuid)).limit(1);
  if (record) {
    const [visible] = await db
      .select({ id: table.id })
      .from(table)
      .where(and(eq(table.id, record.id as number), scope));
    return Boolean(visible);
  }
  const [last] = await db
    .select({ siteId: auditEvents.siteId })
    .from(auditEvents)
    .where(and(eq(auditEvents.resource, def.name), eq(auditEvents.uuid, uuid), isNotNull(auditEvents.siteId)))
    .orderBy(desc(auditEvents.id))
    .limit(1);
  return last?.siteId != null && user.siteIds.includes(last.siteId);
}

/** The history's answer (AuditEvent items, newest first), for /api/docs. */
const change = z.object({ field: z.string(), old: z.unknown(), new: z.unknown() });
const auditAnswer = answers(
  z.object({
    items: z.array(
      z.looseObject({
        id: z.number(),
        at: z.string(),
        userId: z.number().nullable(),
        userName: z.string().nullable(),
        requestId: z.string(),
        resource: z.string(),
        uuid: z.string(),
        action: z.enum(["create", "update", "delete"]),
        changes: z.array(change),
        reason: z.string().nullable(),
      }),
    ),
  }),
);

/**
 * GET /api/audit?resource&uuid → a record's history, newest first, to those who may read the record,
 * with the records it refers to named (describeHistory).
 * A record one may not see answers an empty history, as an unknown one does (nothing leaks).
 */
export function auditRoutes(
  app: FastifyInstance,
  { db }: Deps,
  // biome-ignore lint/suspicious/noExplicitAny: any described resource, whatever its input type.
  resources: ResourceDescription<any>[],
) {
  const byName = new Map(resources.map((def) => [def.name as string, def]));
  app.get(
    "/api/audit",
    {
      config: { monitors: true },
      schema: { querystring: auditQuery, tags: ["audit"], response: auditAnswer },
    },
    async (request, reply) => {
      const query = parseQuery(auditQuery, request.query);
      const def = byName.get(query.resource);
      const user = currentUser(request);
      const allowed = def ? await mayReadHistory(db, def, query.uuid, user) : false;
      if (!allowed) return send(request, reply, { items: [] });
      const monitor = user.kind === "monitor";
      const hidden = new Set(monitor ? (def?.monitors?.hide ?? []) : []);
      // What a monitor may not read is not in the history they read either (issue 44).
      const events = (await auditTrail(db, query.resource, query.uuid)).map((event) =>
        hidden.size === 0
          ? event
          : { ...event, changes: event.changes.filter((c) => !hidden.has(c.field.split(".")[0])) },
      );
      // Referenced records are named within the reader's own scope of each resource (a monitor's: none
      // but what their assignments give).
      const items = await describeHistory(db, query.resource, events, (name) => {
        const referenced = byName.get(name);
        if (!monitor) return referenced?.scope?.(user);
        return referenced?.monitors?.scope(sql`${user.id}`) ?? sql`false`;
      });
      return send(request, reply, { items });
    },
  );
}
