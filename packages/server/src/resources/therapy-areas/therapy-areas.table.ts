import { pgTable, varchar } from "drizzle-orm/pg-core";
import { fkIndex, recordColumns, requiredRef, trgm, unique, uuidUnique } from "../../db/columns";
import { therapyCategories } from "../therapy-categories/therapy-categories.table";

export const therapyAreas = pgTable(
  "therapy_areas",
  {
    ...recordColumns(),
    name: varchar({ length: 50 }).notNull(),
    code: varchar({ length: 3 }).notNull(),
    therapyCategoryId: requiredRef(() => therapyCategories.id),
  },
  (t) => [
    uuidUnique("therapy_areas", t.uuid),
    unique("therapy_areas", "code", t.code),
    fkIndex("therapy_areas", "therapy_category_id", t.therapyCategoryId),
    trgm("therapy_areas", "name", t.name),
    trgm("therapy_areas", "code", t.code),
  ],
);
