import { index, integer, jsonb, pgTable, timestamp, varchar } from "drizzle-orm/pg-core";
import { oneOf } from "../db/columns";
import { auditActions } from "../db/enums";

/**
 * Append-only history of every create, update and delete (design §3). A trigger (migration
 * 0002_audit_append_only) refuses UPDATE, DELETE and TRUNCATE. No foreign key to users: the
 * trail must outlive what it describes, so it keeps the user's name too.
 */
export const auditEvents = pgTable(
  "audit_events",
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    at: timestamp({ withTimezone: true }).notNull().defaultNow(),
    userId: integer(),
    /** The monitor who made the change (issue 44: verification, queries); userId is then null. */
    monitorId: integer(),
    userName: varchar({ length: 120 }),
    requestId: varchar({ length: 100 }).notNull(),
    resource: varchar({ length: 40 }).notNull(),
    uuid: varchar({ length: 80 }).notNull(),
    action: varchar({ length: 10 }).notNull(),
    changes: jsonb().notNull(),
    reason: varchar({ length: 500 }),
    /** The patient's site for patient data (patients, study-patients, patient visits), kept so the
     * site scope still applies to the history of a deleted record. */
    siteId: integer(),
  },
  (t) => [
    oneOf("audit_events", "action", t.action, auditActions),
    index("audit_events_resource_uuid_idx").on(t.resource, t.uuid, t.id),
    index("audit_events_user_id_idx").on(t.userId),
  ],
);
