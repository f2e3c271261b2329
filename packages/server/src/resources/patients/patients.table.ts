import { sql } from "drizzle-orm";
import { date, index, integer, pgTable, text, varchar } from "drizzle-orm/pg-core";
import { oneOf, recordColumns, ref, requiredRef, trgm, unique, uuidUnique } from "../../db/columns";
import { addressTypes, contactTypes, sexes } from "../../db/enums";
import { sites } from "../sites/sites.table";

/** A patient's address (patient.address); owned by its patient. */
export const addresses = pgTable(
  "addresses",
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    countryCode: varchar({ length: 2 }),
    city: varchar({ length: 50 }),
    streetAddress: varchar({ length: 200 }),
    postalCode: varchar({ length: 20 }),
    additionalAddressLine: varchar({ length: 200 }),
    addressType: varchar({ length: 10 }).notNull().default("DEFAULT"),
  },
  (t) => [oneOf("addresses", "address_type", t.addressType, addressTypes)],
);

/** A patient with its detail part as columns (patient.patientDetail is 1:1). */
export const patients = pgTable(
  "patients",
  {
    ...recordColumns(),
    /** Generated on create: the recorder site's prefix and its running number, e.g. BUD-000042. */
    barcode: varchar({ length: 20 }).notNull(),
    status: integer().notNull().default(1),
    statusDetails: varchar({ length: 200 }),
    recorderSiteId: requiredRef(() => sites.id),
    addressId: ref(() => addresses.id, "set null"),
    // patientDetail
    firstName: varchar({ length: 50 }).notNull(),
    lastName: varchar({ length: 50 }).notNull(),
    ssn: varchar({ length: 50 }),
    birthName: varchar({ length: 50 }),
    birthDate: date({ mode: "string" }),
    birthCountryCode: varchar({ length: 2 }),
    birthCity: varchar({ length: 50 }),
    motherName: varchar({ length: 50 }),
    sex: varchar({ length: 6 }).notNull().default("UNK"),
    notes: varchar({ length: 2000 }),
    /**
     * The patient search's one text (issue 14): names, barcode, SSN and phones in lower case, kept by
     * triggers (migration 0009) on every write of a patient or its contacts, whoever writes them.
     * One trigram index answers every word of a search at once ("kovacs anna": 200 → 1 ms).
     */
    searchText: text(),
  },
  (t) => [
    uuidUnique("patients", t.uuid),
    unique("patients", "barcode", t.barcode),
    unique("patients", "address_id", t.addressId),
    oneOf("patients", "sex", t.sex, sexes),
    // The foreign key's index, with id after the site: a site's patients in the default order (id),
    // paged and counted from the index alone.
    index("patients_recorder_site_id_idx").on(t.recorderSiteId, t.id),
    // The list's order by name: last name then first name in the users' language (byName in
    // resource.ts: the same collation, so these indexes serve the order), then id. Migration 0013 adds
    // INCLUDE (search_text), which Drizzle cannot declare: a search by name tests it from the index.
    index("patients_name_idx").on(
      sql`${t.lastName} collate "und-x-icu"`,
      sql`${t.firstName} collate "und-x-icu"`,
      t.id,
    ),
    index("patients_recorder_site_id_name_idx").on(
      t.recorderSiteId,
      sql`${t.lastName} collate "und-x-icu"`,
      sql`${t.firstName} collate "und-x-icu"`,
      t.id,
    ),
    index("patients_birth_date_idx").on(t.birthDate),
    // No duplicate patients (issue 46, migration 0024): the save's checks find another patient with
    // the same SSN (folded by ssn_fold: no case, spaces or punctuation) anywhere, and one with the same
    // name and birth date (folded by search_fold, trimmed) at the site, each from its index.
    index("patients_ssn_fold_idx").on(sql`ssn_fold(${t.ssn})`),
    index("patients_same_name_idx").on(
      t.recorderSiteId,
      t.birthDate,
      sql`search_fold(btrim(${t.lastName}))`,
      sql`search_fold(btrim(${t.firstName}))`,
    ),
    trgm("patients", "barcode", t.barcode),
    trgm("patients", "first_name", t.firstName),
    trgm("patients", "last_name", t.lastName),
    trgm("patients", "ssn", t.ssn),
    trgm("patients", "search_text", t.searchText).with({ fastupdate: false }),
  ],
);

/** patient.contacts[]: ordered by position; owned by the patient. */
export const patientContacts = pgTable(
  "patient_contacts",
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    patientId: requiredRef(() => patients.id, "cascade"),
    position: integer().notNull().default(0),
    contactType: varchar({ length: 5 }).notNull(),
    value: varchar({ length: 60 }).notNull(),
    notes: varchar({ length: 200 }),
  },
  (t) => [
    oneOf("patient_contacts", "contact_type", t.contactType, contactTypes),
    index("patient_contacts_patient_id_idx").on(t.patientId, t.position),
    index("patient_contacts_value_trgm").using("gin", t.value.op("gin_trgm_ops")),
    // Keeps a site's patient list fast: sorted by the first phone without scanning contacts.
    index("patient_contacts_phone_idx").on(t.patientId, t.position).where(sql`contact_type = 'PHONE'`),
  ],
);
