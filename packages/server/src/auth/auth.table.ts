import { sql } from "drizzle-orm";
import {
  check,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  varchar,
} from "drizzle-orm/pg-core";
import { ref } from "../db/columns";
import { monitors } from "../resources/monitors/monitors.table";
import { users } from "../resources/users/users.table";

/**
 * Refresh tokens, stored only as a SHA-256 hash. Every use rotates the token within its family
 * (one sign-in); presenting a rotated one again revokes the whole family (design §3).
 */
export const refreshTokens = pgTable(
  "refresh_tokens",
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    // The account signed in: a user or (issue 44) a monitor, exactly one.
    userId: ref(() => users.id, "cascade"),
    monitorId: ref(() => monitors.id, "cascade"),
    tokenHash: varchar({ length: 64 }).notNull(),
    familyId: uuid().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    rotatedAt: timestamp({ withTimezone: true }),
    revokedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    uniqueIndex("refresh_tokens_token_hash_unique").on(t.tokenHash),
    index("refresh_tokens_family_id_idx").on(t.familyId),
    index("refresh_tokens_user_id_idx").on(t.userId),
    index("refresh_tokens_expires_at_idx").on(t.expiresAt),
    index("refresh_tokens_monitor_id_idx").on(t.monitorId),
    check("refresh_tokens_account_check", sql`num_nonnulls(${t.userId}, ${t.monitorId}) = 1`),
  ],
);

/** Failed sign-ins, kept 15 minutes, counted per account and per address (no in-memory state). */
export const loginFailures = pgTable(
  "login_failures",
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    key: varchar({ length: 300 }).notNull(),
    at: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("login_failures_key_at_idx").on(t.key, t.at)],
);

/** Server-wide settings kept in the database, e.g. the generated token signing secret. */
export const settings = pgTable("settings", {
  key: varchar({ length: 100 }).primaryKey(),
  value: text().notNull(),
});
