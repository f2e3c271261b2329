import { sql } from "drizzle-orm";
import { boolean, pgTable, text, varchar } from "drizzle-orm/pg-core";
import { recordColumns, trgm, unique, uuidUnique } from "../../db/columns";

export const monitors = pgTable(
  "monitors",
  {
    ...recordColumns(),
    email: varchar({ length: 254 }).notNull(),
    passwordHash: text().notNull(),
    firstName: varchar({ length: 50 }).notNull(),
    lastName: varchar({ length: 50 }).notNull(),
    isActive: boolean().notNull().default(true),
  },
  (t) => [
    uuidUnique("monitors", t.uuid),
    unique("monitors", "email", sql`lower(${t.email})`),
    trgm("monitors", "email", t.email),
    trgm("monitors", "first_name", t.firstName),
    trgm("monitors", "last_name", t.lastName),
  ],
);
