import { boolean, pgTable, varchar } from "drizzle-orm/pg-core";
import { recordColumns, trgm, unique, uuidUnique } from "../../db/columns";

export const partners = pgTable(
  "partners",
  {
    ...recordColumns(),
    name: varchar({ length: 50 }).notNull(),
    code: varchar({ length: 3 }).notNull(),
    cro: boolean().notNull().default(false),
    sponsor: boolean().notNull().default(false),
  },
  (t) => [
    uuidUnique("partners", t.uuid),
    unique("partners", "code", t.code),
    trgm("partners", "name", t.name),
    trgm("partners", "code", t.code),
  ],
);
