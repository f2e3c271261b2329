import {
  type Currency,
  exactMinor,
  formatMinor,
  financeMessages as messages,
  type PaymentInput,
  toMinor,
} from "@trialdesk/domain";
import { asc, eq, inArray, sql } from "drizzle-orm";
import type { SessionUser } from "../../auth/guards";
import { queryRows, type Tx } from "../../db/client";
import { conflict, validationError } from "../../http/errors";
import { idParam } from "../params";
import { projects } from "../projects/projects.table";
import { defineResource } from "../resource";
import { inSites } from "../site-scope";
import { sites } from "../sites/sites.table";
import { paymentAllocations, payments, statements } from "./finance.table";
import { moneyText, withMoneyTexts } from "./finance-sql";

const paymentScope = (user: SessionUser | null) =>
  user?.isAdmin ? undefined : inSites(payments.siteId, user);

const allocatedSql = sql<string>`(select coalesce(sum(a.amount), 0) from payment_allocations a where a.payment_id = "payments"."id")`;

/** An amount typed in a currency that has fewer decimals ("12.50" HUF) is refused, never rounded. */
function exactly(text: string, currency: Currency, field: string): bigint {
  const minor = exactMinor(text, currency);
  if (minor === null) throw validationError({ [field]: messages.tooManyDigits });
  return minor;
}

/**
 * Payments (issue 45): received from the sponsor for a project at a site, allocated to its sent
 * statements (what is not allocated stays unapplied credit). A save checks every allocation against
 * the statement's open amount with the statements locked, so two payments at once never pay one
 * statement twice over. Never deleted.
 */
export const paymentsResource = defineResource<PaymentInput>({
  name: "payments",
  table: payments,
  scope: paymentScope,
  sort: { id: payments.id, receivedDate: payments.receivedDate, amount: payments.amount },
  defaultSort: "receivedDate",
  defaultDirection: "desc",
  search: [payments.reference],
  filters: {
    projectId: {
      schema: idParam("Project must be a number"),
      where: (id: number) => eq(payments.projectId, id),
    },
    siteId: { schema: idParam("Site must be a number"), where: (id: number) => eq(payments.siteId, id) },
  },
  formats: {
    view: {
      fields: {
        id: payments.id,
        uuid: payments.uuid,
        version: payments.version,
        projectId: payments.projectId,
        projectName: projects.workingName,
        siteId: payments.siteId,
        siteCode: sites.code,
        receivedDate: payments.receivedDate,
        currency: payments.currency,
        amount: payments.amount,
        reference: payments.reference,
        allocated: allocatedSql,
        unapplied: sql<string>`${payments.amount} - ${allocatedSql}`,
      },
      joins: (query) =>
        query
          .innerJoin(projects, eq(projects.id, payments.projectId))
          .innerJoin(sites, eq(sites.id, payments.siteId)),
      joinsKeepRows: true,
    },
  },
  expand: async (db, rows) => {
    const read = withMoneyTexts(rows, ["amount", "allocated", "unapplied"]);
    if (read.length === 0) return read;
    const allocations = await db
      .select({
        paymentId: paymentAllocations.paymentId,
        statementId: paymentAllocations.statementId,
        statementUuid: statements.uuid,
        amount: paymentAllocations.amount,
      })
      .from(paymentAllocations)
      .innerJoin(statements, eq(statements.id, paymentAllocations.statementId))
      .where(
        inArray(
          paymentAllocations.paymentId,
          read.map((r) => r.id as number),
        ),
      )
      .orderBy(asc(paymentAllocations.id));
    return read.map((payment) => ({
      ...payment,
      allocations: allocations
        .filter((a) => a.paymentId === payment.id)
        .map(({ paymentId: _, ...a }) => ({ ...a, amount: moneyText(a.amount, payment.currency) })),
    }));
  },
  toRow: async (input, { tx, user, existing }) => {
    const projectId = (existing?.projectId ?? input.projectId) as number;
    const siteId = (existing?.siteId ?? input.siteId) as number;
    if (user && !user.isAdmin && !user.siteIds.includes(siteId))
      throw validationError({ siteId: messages.siteRequired });
    const [project] = await queryRows<{ currency: Currency | null; atSite: boolean }>(
      tx,
      sql`select currency, exists(select 1 from project_sites ps where ps.project_id = projects.id
          and ps.site_id = ${siteId}) as "atSite" from projects where id = ${projectId}`,
    );
    if (!project) throw validationError({ projectId: messages.projectRequired });
    if (!project.atSite) throw validationError({ siteId: messages.siteOfOtherProject });
    if (!project.currency)
      throw validationError({ projectId: "The project has no currency in its finance terms" });
    const currency = project.currency;
    const amount = exactly(input.amount as string, currency, "amount");
    await checkAllocations(tx, input, {
      projectId,
      siteId,
      currency,
      amount,
      paymentId: existing?.id as number | undefined,
    });
    return {
      projectId,
      siteId,
      receivedDate: input.receivedDate,
      currency,
      amount: formatMinor(amount, currency),
      reference: input.reference?.trim() || null,
    };
  },
  writeChildren: async (id, input, { tx }) => {
    // Statements' paid amounts follow their allocations (locked by checkAllocations).
    await tx.execute(
      sql`update statements s set paid = s.paid - a.amount
        from payment_allocations a where a.payment_id = ${id} and a.statement_id = s.id`,
    );
    await tx.delete(paymentAllocations).where(eq(paymentAllocations.paymentId, id));
    const allocations = (input.allocations ?? []).filter((a) => Number(a.amount) !== 0);
    if (allocations.length === 0) return;
    await tx
      .insert(paymentAllocations)
      .values(allocations.map((a) => ({ paymentId: id, statementId: a.statementId, amount: a.amount })));
    await tx.execute(
      sql`update statements s set paid = s.paid + a.amount
        from payment_allocations a where a.payment_id = ${id} and a.statement_id = s.id`,
    );
  },
  beforeDelete: async () => {
    throw conflict(messages.neverDeleted);
  },
});

/**
 * Every allocation goes to a sent statement of the payment's project and site, none beyond its open
 * amount (this payment's earlier allocation to it counted back), and all together not beyond the
 * payment. The statements are locked in id order for the rest of the save.
 */
async function checkAllocations(
  tx: Tx,
  input: PaymentInput,
  payment: { projectId: number; siteId: number; currency: Currency; amount: bigint; paymentId?: number },
) {
  const allocations = input.allocations ?? [];
  if (allocations.length === 0) return;
  const ids = [...new Set(allocations.map((a) => a.statementId))].sort((a, b) => a - b);
  const open = await queryRows<{ id: number; open: string; ok: boolean }>(
    tx,
    sql`select s.id, (s.gross - s.paid - s.written_off + coalesce((select sum(a.amount) from payment_allocations a
          where a.statement_id = s.id and a.payment_id = ${payment.paymentId ?? 0}), 0))::text as open,
        (s.project_id = ${payment.projectId} and s.site_id = ${payment.siteId} and s.status = 'SENT') as ok
      from statements s where s.id = any(${`{${ids.join(",")}}`}::int[]) order by s.id for update`,
  );
  const byId = new Map(open.map((row) => [Number(row.id), row]));
  const errors: Record<string, string> = {};
  const left = new Map<number, bigint>();
  let total = 0n;
  allocations.forEach((allocation, index) => {
    const field = `allocations.${index}.amount`;
    const statement = byId.get(allocation.statementId);
    if (!statement?.ok) {
      errors[`allocations.${index}.statementId`] = messages.statementOfOther;
      return;
    }
    const amount = exactly(allocation.amount, payment.currency, field);
    if (amount <= 0n) {
      errors[field] = messages.amountPositive;
      return;
    }
    const room = left.get(allocation.statementId) ?? toMinor(statement.open, payment.currency);
    if (amount > room) errors[field] = messages.beyondOpen;
    left.set(allocation.statementId, room - amount);
    total += amount;
  });
  if (Object.keys(errors).length === 0 && total > payment.amount) errors.allocations = messages.beyondPayment;
  if (Object.keys(errors).length > 0) throw validationError(errors);
}
