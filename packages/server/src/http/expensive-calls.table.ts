import { bigint, index, pgTable, timestamp, varchar } from "drizzle-orm/pg-core";

/**
 * Expensive calls in flight (issue 46, point 14; expensive-calls.ts): one lease per call under its
 * account's key, and one more under "exports" for an export or a visit summary. In the database, so
 * every server process counts the same leases (design §7); each expires unless renewed, so the
 * leases of a process that died free themselves. Unlogged (migration 0026): nothing here needs to
 * outlive a database crash.
 */
export const expensiveCallLeases = pgTable(
  "expensive_call_leases",
  {
    // Every expensive call takes one or two: an int would run out within a year of a busy site.
    id: bigint({ mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    key: varchar({ length: 100 }).notNull(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [index("expensive_call_leases_key_expires_at_idx").on(t.key, t.expiresAt)],
);
