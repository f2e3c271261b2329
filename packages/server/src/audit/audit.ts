import type { AuditChange, AuditEvent } from "@trialdesk/domain";
import { and, desc, eq, isNotNull, type SQL, type SQLWrapper, sql } from "drizzle-orm";
import { type Db, type Tx, type Write, writeTogether } from "../db/client";
import { patientVisits } from "../resources/patient-visits/patient-visits.table";
import { patients } from "../resources/patients/patients.table";
import { studyPatients } from "../resources/study-patients/study-patients.table";
import { auditEvents } from "./audit.table";

/** Who is changing what, and why: taken from the request by the resource machinery. */
export type ChangeContext = {
  userId: number | null;
  /** A monitor's change (issue 44): userId is then null. */
  monitorId?: number | null;
  userName: string | null;
  requestId: string;
  reason: string | null;
};

const patientSite = (patientId: SQLWrapper) =>
  sql`(select ${patients.recorderSiteId} from ${patients} where ${patients.id} = ${patientId})`;

/** Patient data and how its patient's site is found: from the record, else from the changed values. */
const siteOfPatientData: Record<string, { current: (uuid: SQLWrapper) => SQL; field: string }> = {
  patients: {
    current: (uuid) =>
      sql`(select ${patients.recorderSiteId} from ${patients} where ${patients.uuid} = ${uuid})`,
    field: "recorderSiteId",
  },
  "study-patients": {
    current: (uuid) =>
      sql`(select ${patients.recorderSiteId} from ${studyPatients} join ${patients} on ${patients.id} = ${studyPatients.patientId} where ${studyPatients.uuid} = ${uuid})`,
    field: "patientId",
  },
  "protocol-deviations": {
    current: (uuid) =>
      sql`(select ${patients.recorderSiteId} from protocol_deviations d join ${patients} on ${patients.id} = d.patient_id where d.uuid = ${uuid})`,
    field: "patientId",
  },
  "patient-visits": {
    current: (uuid) =>
      sql`(select ${patients.recorderSiteId} from ${patientVisits} join ${patients} on ${patients.id} = ${patientVisits.patientId} where ${patientVisits.uuid} = ${uuid})`,
    field: "patientId",
  },
};

type Event = { resource: string; uuid: string; action: AuditEvent["action"]; changes: AuditChange[] };

/**
 * Where the audit row of a patient-data record finds its site: its patient's site now; for a deleted
 * record the site (or patient) its last values name; else the site its earlier history kept. `from`
 * names the shape of that expression (`siteSql`), `named` the site or patient the changes name.
 */
function siteSource(event: Event) {
  const rule = siteOfPatientData[event.resource];
  const change = rule ? event.changes.find((c) => c.field === rule.field) : undefined;
  const named = change ? (change.new ?? change.old) : null;
  if (!rule) return { rule, from: "no site", named: null } as const;
  if (typeof named !== "number") return { rule, from: "record", named: null } as const;
  return { rule, from: rule.field === "patientId" ? "patient" : "site", named } as const;
}

/** The site expression of `siteSource`, of the placeholders `resource`, `uuid` and `named`. */
function siteSql({ rule, from }: ReturnType<typeof siteSource>, value: (name: string) => SQL) {
  if (!rule) return null;
  const fromChanges =
    from === "patient" ? patientSite(value("named")) : from === "site" ? value("named") : sql`null`;
  const earlier = sql`(select ${auditEvents.siteId} from ${auditEvents} where ${and(
    eq(auditEvents.resource, value("resource")),
    eq(auditEvents.uuid, value("uuid")),
    isNotNull(auditEvents.siteId),
  )} order by ${auditEvents.id} desc limit 1)`;
  return sql`coalesce(${rule.current(value("uuid"))}, ${fromChanges}::integer, ${earlier})`;
}

/**
 * Records one create, update or delete; called inside the write's transaction (design §3), in one
 * statement with the write's `along` (see writeTogether).
 */
export async function recordAudit(tx: Tx | Db, ctx: ChangeContext, event: Event, along: Write[] = []) {
  const site = siteSource(event);
  await writeTogether(tx, along, {
    key: `audit ${event.resource}, site from ${site.from}`,
    build: (placeholder) => {
      // Plain placeholders: the values below are sent as they are (the changes as JSON text).
      const value = (name: string) => sql`${placeholder(name)}`;
      return tx
        .insert(auditEvents)
        .values({
          userId: value("userId"),
          monitorId: value("monitorId"),
          userName: value("userName"),
          requestId: value("requestId"),
          resource: value("resource"),
          uuid: value("uuid"),
          action: value("action"),
          changes: value("changes"),
          reason: value("reason"),
          siteId: siteSql(site, value),
        })
        .getSQL();
    },
    values: {
      userId: ctx.userId,
      monitorId: ctx.monitorId ?? null,
      userName: ctx.userName,
      requestId: ctx.requestId,
      resource: event.resource,
      uuid: event.uuid,
      action: event.action,
      changes: JSON.stringify(event.changes),
      reason: ctx.reason,
      named: site.named,
    },
  });
}

type Flat = Record<string, unknown>;

/** Nested parts become dotted paths ("patientDetail.firstName"); arrays stay whole values. */
function flatten(value: Record<string, unknown>, prefix = "", out: Flat = {}): Flat {
  for (const [key, v] of Object.entries(value)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (v && typeof v === "object" && !Array.isArray(v) && !(v instanceof Date))
      flatten(v as Record<string, unknown>, path, out);
    else out[path] = v instanceof Date ? v.toISOString() : (v ?? null);
  }
  return out;
}

const bookkeeping = new Set(["id", "uuid", "version"]);

/** The per-field differences between two reads of a record (either may be absent). */
export function diff(
  before: Record<string, unknown> | null,
  after: Record<string, unknown> | null,
): AuditChange[] {
  const a = before ? flatten(before) : {};
  const b = after ? flatten(after) : {};
  const changes: AuditChange[] = [];
  for (const field of new Set([...Object.keys(a), ...Object.keys(b)])) {
    if (bookkeeping.has(field)) continue;
    const old = a[field] ?? null;
    const now = b[field] ?? null;
    if (JSON.stringify(old) !== JSON.stringify(now)) changes.push({ field, old, new: now });
  }
  return changes;
}

export async function auditTrail(db: Db, resource: string, uuid: string): Promise<AuditEvent[]> {
  const rows = await db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.resource, resource), eq(auditEvents.uuid, uuid)))
    .orderBy(desc(auditEvents.id))
    .limit(500);
  return rows.map((row) => ({
    id: row.id,
    at: row.at.toISOString(),
    userId: row.userId,
    userName: row.userName,
    requestId: row.requestId,
    resource: row.resource,
    uuid: row.uuid,
    action: row.action as AuditEvent["action"],
    changes: row.changes as AuditChange[],
    reason: row.reason,
  }));
}
