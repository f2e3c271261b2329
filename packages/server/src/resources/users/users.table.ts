import { sql } from "drizzle-orm";
import { boolean, pgTable, primaryKey, text, timestamp, varchar } from "drizzle-orm/pg-core";
import { fkIndex, recordColumns, requiredRef, trgm, unique, uuidUnique } from "../../db/columns";
import { sites } from "../sites/sites.table";

export const users = pgTable(
  "users",
  {
    ...recordColumns(),
    email: varchar({ length: 254 }).notNull(),
    /** argon2id; never leaves the server. */
    passwordHash: text().notNull(),
    lastPasswordChangeDate: timestamp({ withTimezone: true }),
    isActive: boolean().notNull().default(true),
    isAdmin: boolean().notNull().default(false),
    // profile
    firstName: varchar({ length: 50 }).notNull(),
    lastName: varchar({ length: 50 }).notNull(),
  },
  (t) => [
    uuidUnique("users", t.uuid),
    unique("users", "email", sql`lower(${t.email})`),
    trgm("users", "email", t.email),
    trgm("users", "first_name", t.firstName),
    trgm("users", "last_name", t.lastName),
  ],
);

/** The sites a user works for (user.siteIds). */
export const userSites = pgTable(
  "user_sites",
  {
    userId: requiredRef(() => users.id, "cascade"),
    siteId: requiredRef(() => sites.id),
  },
  (t) => [primaryKey({ columns: [t.userId, t.siteId] }), fkIndex("user_sites", "site_id", t.siteId)],
);
