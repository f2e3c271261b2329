import { sql } from "drizzle-orm";
import { boolean, check, index, integer, numeric, pgTable, primaryKey, varchar } from "drizzle-orm/pg-core";
import { fkIndex, oneOf, recordColumns, requiredRef, trgm, unique, uuidUnique } from "../../db/columns";
import { currencies, phases, projectStatusIds, vatRates } from "../../db/enums";
import { partners } from "../partners/partners.table";
import { sites } from "../sites/sites.table";
import { therapyAreas } from "../therapy-areas/therapy-areas.table";

/** A project with its details, finance and settings parts as columns (each part is 1:1). */
export const projects = pgTable(
  "projects",
  {
    ...recordColumns(),
    workingName: varchar({ length: 50 }).notNull(),
    protocolNr: varchar({ length: 50 }).notNull(),
    internalCode: varchar({ length: 50 }).notNull(),
    projectStatusId: integer().notNull(),
    // details
    longName: varchar({ length: 200 }),
    officialTitle: varchar({ length: 500 }),
    officialUrl: varchar({ length: 500 }),
    phase: integer().notNull(),
    ipName: varchar({ length: 50 }),
    therapyAreaId: requiredRef(() => therapyAreas.id),
    croId: requiredRef(() => partners.id),
    sponsorId: requiredRef(() => partners.id),
    // finance
    settlementDays: integer(),
    paymentDays: integer(),
    patientFee: numeric({ precision: 12, scale: 2 }),
    currency: varchar({ length: 3 }),
    vat: integer(),
    paidPercentage: integer(),
    monitoredPercentage: integer(),
    // settings
    rescreen: boolean().notNull().default(false),
    cohortHandling: boolean().notNull().default(false),
    hospitalisation: boolean().notNull().default(false),
  },
  (t) => [
    uuidUnique("projects", t.uuid),
    unique("projects", "internal_code", t.internalCode),
    // One project per protocol number, compared trimmed and in any case (issue 46): "td-2025-001 " is
    // TD-2025-001. Named by the convention, so a clash reads on the field protocolNr.
    unique("projects", "protocol_nr", sql`lower(btrim(${t.protocolNr}))`),
    oneOf("projects", "project_status_id", t.projectStatusId, projectStatusIds),
    oneOf("projects", "phase", t.phase, phases),
    oneOf("projects", "currency", t.currency, currencies),
    oneOf("projects", "vat", t.vat, vatRates),
    check("projects_paid_percentage_check", sql`${t.paidPercentage} between 0 and 100`),
    check("projects_monitored_percentage_check", sql`${t.monitoredPercentage} between 0 and 100`),
    check("projects_settlement_days_check", sql`${t.settlementDays} between 0 and 999`),
    check("projects_payment_days_check", sql`${t.paymentDays} between 0 and 999`),
    fkIndex("projects", "therapy_area_id", t.therapyAreaId),
    fkIndex("projects", "cro_id", t.croId),
    fkIndex("projects", "sponsor_id", t.sponsorId),
    index("projects_protocol_nr_idx").on(t.protocolNr),
    trgm("projects", "working_name", t.workingName),
    trgm("projects", "protocol_nr", t.protocolNr),
    trgm("projects", "internal_code", t.internalCode),
  ],
);

/** The sites a project runs at (project.siteIds). */
export const projectSites = pgTable(
  "project_sites",
  {
    projectId: requiredRef(() => projects.id, "cascade"),
    siteId: requiredRef(() => sites.id),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.siteId] }), fkIndex("project_sites", "site_id", t.siteId)],
);
