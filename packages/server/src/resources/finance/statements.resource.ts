import {
  type Currency,
  dueDate,
  formatMinor,
  financeMessages as messages,
  type StatementInput,
  statementStatusValues,
  statementTotals,
  toMinor,
} from "@trialdesk/domain";
import { and, asc, eq, type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import type { SessionUser } from "../../auth/guards";
import { queryRows, type Tx } from "../../db/client";
import { conflict, validationError } from "../../http/errors";
import { idParam } from "../params";
import { projects } from "../projects/projects.table";
import { defineResource, type Row } from "../resource";
import { inSites } from "../site-scope";
import { sites } from "../sites/sites.table";
import { earnings, statementLines, statements } from "./finance.table";
import { earningStateSql, moneyText, statementStatusSql, withMoneyTexts } from "./finance-sql";

export const statementScope = (user: SessionUser | null) =>
  user?.isAdmin ? undefined : inSites(statements.siteId, user);

const statementMoney = ["net", "vat", "gross", "paid", "open", "writtenOff"];

/** Statements of one project at one site are prepared one at a time (no earning on two of them). */
export const lockStatementsOf = (tx: Tx, projectId: number, siteId: number) =>
  tx.execute(
    sql`select pg_advisory_xact_lock(hashtextextended('statements ' || ${projectId}::text || ' ' || ${siteId}::text, 0))`,
  );

/** The project's terms at the site, if the user may prepare its statements there; null otherwise. */
async function termsOf(tx: Tx, projectId: number, siteId: number, user: SessionUser | null) {
  if (user && !user.isAdmin && !user.siteIds.includes(siteId)) return null;
  const [terms] = await queryRows<{
    currency: Currency | null;
    vat: number | null;
    paymentDays: number | null;
    paidPercentage: number | null;
    atSite: boolean;
  }>(
    tx,
    sql`select currency, vat, payment_days as "paymentDays", paid_percentage as "paidPercentage",
        exists(select 1 from project_sites ps where ps.project_id = projects.id and ps.site_id = ${siteId}) as "atSite"
      from projects where id = ${projectId}`,
  );
  return terms ?? null;
}

/** The earnings a statement takes: billable, of the project at the site, up to the period's end. */
const billable = (projectId: number, siteId: number, periodTo: string) =>
  and(
    eq(earnings.projectId, projectId),
    eq(earnings.siteId, siteId),
    sql`${earnings.voidedAt} is null and ${earnings.statementId} is null and ${earnings.serviceDate} <= ${periodTo}`,
    sql`${earningStateSql} = 'BILLABLE'`,
  );

/**
 * The held-back amounts a close-out statement releases: of the project at the site, up to the period's
 * end, not released yet, of earnings that count (a reversed one and its reversal both, which cancel)
 * and are not awaiting verification (their held back waits with them).
 */
const releasable = (projectId: number, siteId: number, periodTo: string) =>
  and(
    eq(earnings.projectId, projectId),
    eq(earnings.siteId, siteId),
    sql`${earnings.voidedAt} is null and ${earnings.heldBackStatementId} is null and ${earnings.heldBack} <> 0
      and ${earnings.serviceDate} <= ${periodTo}`,
    sql`${earningStateSql} <> 'AWAITING_VERIFICATION'`,
  );

/** How many assignments of the project's studies are still open for patients of the site. */
async function openAssignments(tx: Tx, projectId: number, siteId: number) {
  const [row] = await queryRows<{ n: number }>(
    tx,
    sql`select count(*)::int as n from study_patients sp join studies s on s.id = sp.study_id
      join patients p on p.id = sp.patient_id
      where s.project_id = ${projectId} and p.recorder_site_id = ${siteId} and sp.active`,
  );
  return row?.n ?? 0;
}

/** The line text of an earning: its visit and patient, and what kind of line it is. */
const lineDescription = (kind: SQL) => sql`(select v.name || ' · ' || p.barcode from visits v, patients p
    where v.id = earnings.visit_id and p.id = earnings.patient_id) || ${kind}`;

/** Sets a statement's totals from its lines (VAT once, on the net). */
export async function totalStatement(tx: Tx, statementId: number, currency: Currency, vatPercent: number) {
  const lines = await tx
    .select({ amount: statementLines.amount })
    .from(statementLines)
    .where(eq(statementLines.statementId, statementId));
  await setTotals(
    tx,
    statementId,
    currency,
    lines.map((line) => toMinor(String(line.amount), currency)),
    vatPercent,
  );
}

/** Sets a statement's totals from its lines' amounts (the domain's statementTotals). */
async function setTotals(
  tx: Tx,
  statementId: number,
  currency: Currency,
  lines: bigint[],
  vatPercent: number,
) {
  const totals = statementTotals(lines, vatPercent);
  await tx
    .update(statements)
    .set({
      net: formatMinor(totals.net, currency),
      vat: formatMinor(totals.vat, currency),
      gross: formatMinor(totals.gross, currency),
    })
    .where(eq(statements.id, statementId));
}

/**
 * Statements (issue 45): prepared from the billable earnings of a project at a site up to a date, with
 * copies of the rates they used; DRAFT → SENT (never changes after) → PARTIALLY_PAID → PAID as payments
 * are allocated, or VOID, which makes its earnings billable again. Never deleted.
 */
export const statementsResource = defineResource<StatementInput>({
  name: "statements",
  table: statements,
  scope: statementScope,
  sort: {
    id: statements.id,
    statementDate: statements.statementDate,
    dueDate: statements.dueDate,
    gross: statements.gross,
    status: statementStatusSql,
  },
  defaultSort: "statementDate",
  defaultDirection: "desc",
  search: [statements.externalInvoiceNumber],
  filters: {
    projectId: {
      schema: idParam("Project must be a number"),
      where: (id: number) => eq(statements.projectId, id),
    },
    siteId: { schema: idParam("Site must be a number"), where: (id: number) => eq(statements.siteId, id) },
    status: {
      schema: z.enum(statementStatusValues, {
        error: `Status must be one of: ${statementStatusValues.join(", ")}`,
      }),
      where: (status: string) => sql`${statementStatusSql} = ${status}`,
    },
  },
  formats: {
    view: {
      fields: {
        id: statements.id,
        uuid: statements.uuid,
        version: statements.version,
        projectId: statements.projectId,
        projectName: projects.workingName,
        siteId: statements.siteId,
        siteCode: sites.code,
        periodTo: statements.periodTo,
        statementDate: statements.statementDate,
        dueDate: statements.dueDate,
        currency: statements.currency,
        vatPercent: statements.vatPercent,
        paymentDays: statements.paymentDays,
        paidPercentage: statements.paidPercentage,
        net: statements.net,
        vat: statements.vat,
        gross: statements.gross,
        paid: statements.paid,
        open: sql<string>`${statements.gross} - ${statements.paid} - ${statements.writtenOff}`,
        status: statementStatusSql,
        externalInvoiceNumber: statements.externalInvoiceNumber,
        closeOut: statements.closeOut,
        writtenOff: statements.writtenOff,
        writeOffReason: statements.writeOffReason,
      },
      joins: (query) =>
        query
          .innerJoin(projects, eq(projects.id, statements.projectId))
          .innerJoin(sites, eq(sites.id, statements.siteId)),
      joinsKeepRows: true,
    },
  },
  // A statement read alone carries its lines.
  expand: async (db, rows) => {
    const read = withMoneyTexts(rows, statementMoney);
    if (read.length !== 1) return read;
    const lines = await db
      .select({
        id: statementLines.id,
        earningUuid: earnings.uuid,
        description: statementLines.description,
        serviceDate: statementLines.serviceDate,
        amount: statementLines.amount,
        heldBack: statementLines.heldBack,
      })
      .from(statementLines)
      .leftJoin(earnings, eq(earnings.id, statementLines.earningId))
      .where(eq(statementLines.statementId, read[0].id as number))
      .orderBy(asc(statementLines.serviceDate), asc(statementLines.id));
    return [
      {
        ...read[0],
        lines: lines.map((line) => ({ ...line, amount: moneyText(line.amount, read[0].currency) })),
      },
    ];
  },
  toRow: async (input, { tx, user, existing }) => {
    if (existing) return statementChange(input, existing);
    const projectId = input.projectId as number;
    const siteId = input.siteId as number;
    const terms = await termsOf(tx, projectId, siteId, user);
    if (!terms) throw validationError({ projectId: messages.projectRequired });
    if (!terms.atSite) throw validationError({ siteId: messages.siteOfOtherProject });
    if (!terms.currency)
      throw validationError({ projectId: "The project has no currency in its finance terms" });
    await lockStatementsOf(tx, projectId, siteId);
    const closeOut = input.closeOut === true;
    if (closeOut) {
      const open = await openAssignments(tx, projectId, siteId);
      if (open > 0) throw validationError({ closeOut: messages.assignmentsOpen(open) });
    }
    // Whether anything is billable is known once the lines are taken (writeChildren, same transaction).
    const zero = formatMinor(0n, terms.currency);
    return {
      projectId,
      siteId,
      periodTo: input.periodTo,
      statementDate: input.statementDate,
      dueDate: dueDate(input.statementDate as string, terms.paymentDays ?? 0),
      currency: terms.currency,
      vatPercent: terms.vat ?? 0,
      paymentDays: terms.paymentDays ?? 0,
      paidPercentage: terms.paidPercentage ?? 100,
      net: zero,
      vat: zero,
      gross: zero,
      status: "DRAFT",
      externalInvoiceNumber: input.externalInvoiceNumber?.trim() || null,
      closeOut,
    };
  },
  writeChildren: async (id, input, { tx, existing }) => {
    if (!existing) {
      // Under the lock taken in toRow: the earnings it counted, each taken by this statement only.
      const [projectId, siteId, periodTo] = [
        input.projectId as number,
        input.siteId as number,
        input.periodTo as string,
      ];
      type Taken = { id: number; serviceDate: string; amount: string; description: string };
      const taken = await queryRows<Taken>(
        tx,
        sql`update earnings set statement_id = ${id}, updated_at = now()
          where id in (select earnings.id from earnings where ${billable(projectId, siteId, periodTo)} for update)
          returning id, service_date::text as "serviceDate", payable::text as amount,
            ${lineDescription(sql`case when reverses_id is not null then ' (reversal)' else '' end`)} as description`,
      );
      // A close-out statement releases the held-back amounts too, each once (decision 243).
      const released =
        input.closeOut === true
          ? await queryRows<Taken>(
              tx,
              sql`update earnings set held_back_statement_id = ${id}, updated_at = now()
                where id in (select earnings.id from earnings where ${releasable(projectId, siteId, periodTo)} for update)
                returning id, service_date::text as "serviceDate", held_back::text as amount,
                  ${lineDescription(sql`' · held back released' || case when reverses_id is not null then ' (reversal)' else '' end`)} as description`,
            )
          : [];
      const lines = [
        ...taken.map((e) => ({ ...e, heldBack: false })),
        ...released.map((e) => ({ ...e, heldBack: true })),
      ];
      // Nothing to bill: refused on the field, the statement not kept (the transaction is undone).
      if (lines.length === 0)
        throw validationError({
          periodTo: input.closeOut === true ? messages.nothingToCloseOut : messages.nothingBillable,
        });
      await tx.insert(statementLines).values(
        lines.map((e) => ({
          statementId: id,
          earningId: e.id,
          description: e.description,
          serviceDate: e.serviceDate,
          amount: e.amount,
          heldBack: e.heldBack,
        })),
      );
      // Its totals from the lines just taken (VAT once, on the net).
      const [header] = await tx
        .select({ currency: statements.currency, vatPercent: statements.vatPercent })
        .from(statements)
        .where(eq(statements.id, id));
      const currency = header.currency as Currency;
      await setTotals(
        tx,
        id,
        currency,
        lines.map((line) => toMinor(line.amount, currency)),
        header.vatPercent,
      );
      return;
    }
    if (input.status === "VOID" && existing.status !== "VOID") await releaseEarnings(tx, id);
  },
  beforeDelete: async () => {
    throw conflict(messages.neverDeleted);
  },
  unique: {},
});

/** What a save may change: the status (DRAFT → SENT or VOID, SENT → VOID while unpaid) and the invoice number. */
function statementChange(input: StatementInput, existing: Row): Row {
  const was = existing.status as string;
  const paidState = (status: string | null | undefined) => status === "PARTIALLY_PAID" || status === "PAID";
  // Partially paid and paid follow from the payments: sent back as read, they mean no change.
  if (paidState(input.status) && input.status !== was)
    throw validationError({ status: messages.notSettable });
  const status = !input.status || paidState(input.status) ? (paidState(was) ? "SENT" : was) : input.status;
  const number = input.externalInvoiceNumber?.trim() || null;
  if (was === "VOID") throw conflict(messages.statementSent);
  if (was !== "DRAFT") {
    if (status === "VOID") {
      if (Number(existing.paid) !== 0) throw conflict(messages.statementWithPayments);
      if (Number(existing.writtenOff) !== 0) throw conflict(messages.statementWrittenOff);
      return { status };
    }
    // Sent: only an invoice number not recorded yet may be added.
    const numberAdded = !existing.externalInvoiceNumber && number !== null;
    if (status !== "SENT" || (number !== existing.externalInvoiceNumber && !numberAdded))
      throw conflict(messages.statementSent);
    return numberAdded ? { externalInvoiceNumber: number } : {};
  }
  return { status, externalInvoiceNumber: number };
}

/** A voided statement's earnings are billable again; a reversed one and its reversal cancel out. */
async function releaseEarnings(tx: Tx, statementId: number) {
  await tx.execute(
    sql`update earnings set voided_at = now(), live = false, updated_at = now()
      where statement_id is null and voided_at is null and reverses_id in (
        select id from earnings where statement_id = ${statementId} and reversed_at is not null)`,
  );
  await tx.execute(
    sql`update earnings set statement_id = null, updated_at = now(),
        voided_at = case when reversed_at is not null then now() else voided_at end
      where statement_id = ${statementId}`,
  );
  // A voided close-out statement's held-back amounts are held back again.
  await tx.execute(
    sql`update earnings set held_back_statement_id = null, updated_at = now()
      where held_back_statement_id = ${statementId}`,
  );
}
