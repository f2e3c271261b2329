import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  boolean,
  check,
  date,
  index,
  integer,
  numeric,
  pgTable,
  timestamp,
  uniqueIndex,
  varchar,
} from "drizzle-orm/pg-core";
import { fkIndex, oneOf, recordColumns, ref, requiredRef, uuidUnique } from "../../db/columns";
import { patientVisits } from "../patient-visits/patient-visits.table";
import { patients } from "../patients/patients.table";
import { projects } from "../projects/projects.table";
import { sites } from "../sites/sites.table";
import { studies } from "../studies/studies.table";
import { visits } from "../visits/visits.table";

/** Money columns: exact decimals, two places at most (HUF keeps whole forints in them). */
const money = () => numeric({ precision: 14, scale: 2 });

/**
 * What the site is owed (issue 45). Statements: prepared from the billable earnings of a project at a
 * site, with copies of the rates they used; once sent they never change (`paid` is the payments'
 * allocations, kept here under the statement's lock so states read it without a sum).
 */
export const statements = pgTable(
  "statements",
  {
    ...recordColumns(),
    projectId: requiredRef(() => projects.id),
    siteId: requiredRef(() => sites.id),
    periodTo: date({ mode: "string" }).notNull(),
    statementDate: date({ mode: "string" }).notNull(),
    dueDate: date({ mode: "string" }).notNull(),
    currency: varchar({ length: 3 }).notNull(),
    vatPercent: integer().notNull(),
    paymentDays: integer().notNull(),
    paidPercentage: integer().notNull(),
    net: money().notNull(),
    vat: money().notNull(),
    gross: money().notNull(),
    paid: money().notNull().default("0"),
    status: varchar({ length: 10 }).notNull().default("DRAFT"),
    externalInvoiceNumber: varchar({ length: 50 }),
    /** A close-out statement: it also releases the held-back amounts (every assignment closed). */
    closeOut: boolean().notNull().default(false),
    /** The open rest of a short payment the site gave up on, with its reason (then it counts as paid). */
    writtenOff: money().notNull().default("0"),
    writeOffReason: varchar({ length: 500 }),
  },
  (t) => [
    uuidUnique("statements", t.uuid),
    oneOf("statements", "status", t.status, ["DRAFT", "SENT", "VOID"]),
    index("statements_project_id_site_id_idx").on(t.projectId, t.siteId, t.statementDate),
    fkIndex("statements", "site_id", t.siteId),
  ],
);

/** Earnings: one per completed plan visit (the counting record), written with the visit's save. */
export const earnings = pgTable(
  "earnings",
  {
    ...recordColumns(),
    projectId: requiredRef(() => projects.id),
    siteId: requiredRef(() => sites.id),
    studyId: requiredRef(() => studies.id),
    patientId: requiredRef(() => patients.id),
    visitId: requiredRef(() => visits.id),
    // A visit record deleted leaves its earning (voided or reversed) without it.
    patientVisitId: ref(() => patientVisits.id, "set null"),
    serviceDate: date({ mode: "string" }).notNull(),
    currency: varchar({ length: 3 }).notNull(),
    amount: money().notNull(),
    heldBack: money().notNull(),
    payable: money().notNull(),
    /** The earning this line reverses: its visit stopped being completed after it was on a statement. */
    reversesId: integer().references((): AnyPgColumn => earnings.id),
    /** Un-completed before any statement: it no longer counts (kept, as nothing that happened is deleted). */
    voidedAt: timestamp({ withTimezone: true }),
    /** A reversing line was written for it. */
    reversedAt: timestamp({ withTimezone: true }),
    statementId: ref(() => statements.id),
    /** The close-out statement that released its held-back amount. */
    heldBackStatementId: ref(() => statements.id),
    /** Kept true for the rows that count (not voided, not reversed): the lists' and totals' filter. */
    live: boolean().notNull().default(true),
  },
  (t) => [
    uuidUnique("earnings", t.uuid),
    check("earnings_split_check", sql`${t.amount} = ${t.heldBack} + ${t.payable}`),
    // One earning that counts per patient, study and plan visit, whatever saves it at the same moment.
    uniqueIndex("earnings_live_visit_unique")
      .on(t.patientId, t.studyId, t.visitId)
      .where(sql`${t.live} and ${t.reversesId} is null`),
    index("earnings_project_id_site_id_service_date_idx").on(t.projectId, t.siteId, t.serviceDate, t.id),
    index("earnings_site_id_service_date_idx").on(t.siteId, t.serviceDate, t.id),
    // What a statement may take: of a project at a site, on no statement yet. Billed earnings (most of
    // a site's history) are not walked past on the way to them.
    index("earnings_unbilled_idx")
      .on(t.projectId, t.siteId, t.serviceDate)
      .where(sql`${t.statementId} is null and ${t.voidedAt} is null`),
    fkIndex("earnings", "study_id", t.studyId),
    fkIndex("earnings", "visit_id", t.visitId),
    index("earnings_patient_visit_id_idx").on(t.patientVisitId).where(sql`${t.patientVisitId} is not null`),
    index("earnings_reverses_id_idx").on(t.reversesId).where(sql`${t.reversesId} is not null`),
    index("earnings_statement_id_idx").on(t.statementId).where(sql`${t.statementId} is not null`),
    index("earnings_held_back_statement_id_idx")
      .on(t.heldBackStatementId)
      .where(sql`${t.heldBackStatementId} is not null`),
  ],
);

/** A statement's lines: its earnings (copied) and manual lines (a screen-failure fee, a credit). */
export const statementLines = pgTable(
  "statement_lines",
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    statementId: requiredRef(() => statements.id, "cascade"),
    earningId: ref(() => earnings.id),
    description: varchar({ length: 200 }).notNull(),
    serviceDate: date({ mode: "string" }),
    amount: money().notNull(),
    /** The line releases its earning's held-back amount (a close-out statement). */
    heldBack: boolean().notNull().default(false),
  },
  (t) => [
    index("statement_lines_statement_id_idx").on(t.statementId, t.id),
    index("statement_lines_earning_id_idx").on(t.earningId).where(sql`${t.earningId} is not null`),
  ],
);

/** Payments received from the sponsor; what is not allocated to statements is unapplied credit. */
export const payments = pgTable(
  "payments",
  {
    ...recordColumns(),
    projectId: requiredRef(() => projects.id),
    siteId: requiredRef(() => sites.id),
    receivedDate: date({ mode: "string" }).notNull(),
    currency: varchar({ length: 3 }).notNull(),
    amount: money().notNull(),
    reference: varchar({ length: 100 }),
  },
  (t) => [
    uuidUnique("payments", t.uuid),
    check("payments_amount_check", sql`${t.amount} > 0`),
    index("payments_project_id_site_id_idx").on(t.projectId, t.siteId, t.receivedDate),
    fkIndex("payments", "site_id", t.siteId),
  ],
);

export const paymentAllocations = pgTable(
  "payment_allocations",
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    paymentId: requiredRef(() => payments.id, "cascade"),
    statementId: requiredRef(() => statements.id),
    amount: money().notNull(),
  },
  (t) => [
    check("payment_allocations_amount_check", sql`${t.amount} > 0`),
    index("payment_allocations_payment_id_idx").on(t.paymentId),
    fkIndex("payment_allocations", "statement_id", t.statementId),
  ],
);
