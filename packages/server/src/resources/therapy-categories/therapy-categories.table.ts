import { pgTable, varchar } from "drizzle-orm/pg-core";
import { recordColumns, trgm, unique, uuidUnique } from "../../db/columns";

export const therapyCategories = pgTable(
  "therapy_categories",
  {
    ...recordColumns(),
    name: varchar({ length: 50 }).notNull(),
    code: varchar({ length: 3 }).notNull(),
  },
  (t) => [
    uuidUnique("therapy_categories", t.uuid),
    unique("therapy_categories", "code", t.code),
    trgm("therapy_categories", "name", t.name),
    trgm("therapy_categories", "code", t.code),
  ],
);
