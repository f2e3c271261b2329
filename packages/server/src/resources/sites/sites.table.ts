import { sql } from "drizzle-orm";
import { check, integer, pgTable, varchar } from "drizzle-orm/pg-core";
import { recordColumns, trgm, unique, uuidUnique } from "../../db/columns";

export const sites = pgTable(
  "sites",
  {
    ...recordColumns(),
    name: varchar({ length: 50 }).notNull(),
    shortName: varchar({ length: 50 }).notNull(),
    code: varchar({ length: 5 }).notNull(),
    /** Letters, digits and the separator "-" it ends with, e.g. "BUD-" (spec §5, design §4). */
    barcodePrefix: varchar({ length: 5 }).notNull(),
    address: varchar({ length: 200 }),
    city: varchar({ length: 50 }),
    countryCode: varchar({ length: 2 }),
    /** The running number of the last patient barcode issued for this site (design §4). */
    lastBarcodeNumber: integer().notNull().default(0),
  },
  (t) => [
    uuidUnique("sites", t.uuid),
    unique("sites", "code", t.code),
    unique("sites", "barcode_prefix", t.barcodePrefix),
    check("sites_barcode_prefix_check", sql`${t.barcodePrefix} ~ '^[A-Z0-9-]+$'`),
    trgm("sites", "name", t.name),
    trgm("sites", "short_name", t.shortName),
    trgm("sites", "code", t.code),
    trgm("sites", "city", t.city),
  ],
);
