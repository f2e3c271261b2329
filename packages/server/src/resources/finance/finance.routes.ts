import {
  type Aging,
  agingBucket,
  agingBuckets,
  type Currency,
  exactMinor,
  formatMinor,
  isValidIsoDate,
  financeMessages as messages,
  statementLineSchema,
  toIsoDate,
  toMinor,
  writeOffSchema,
} from "@trialdesk/domain";
import { and, eq, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { recordAudit } from "../../audit/audit";
import { currentUser, type SessionUser } from "../../auth/guards";
import { queryRows } from "../../db/client";
import type { Deps } from "../../deps";
import { send } from "../../http/envelope";
import { conflict, notFound, validationError } from "../../http/errors";
import { answers } from "../../http/openapi-responses";
import { idParam } from "../params";
import { changeContext, parseBody, parseQuery, resourceAnswers, resourceService } from "../resource";
import { statementLines, statements } from "./finance.table";
import { earningStateSql } from "./finance-sql";
import { statementScope, statementsResource, totalStatement } from "./statements.resource";

const financeQuery = z.strictObject({
  projectId: idParam("Project must be a number"),
  siteId: idParam("Site must be a number").optional(),
  asOf: z.string().refine(isValidIsoDate, "asOf must be a real date written as yyyy-MM-dd").optional(),
});

/** The sites a finance figure adds up: the one asked (if the user's), else every site the user has. */
function sitesOf(user: SessionUser, siteId: number | undefined) {
  if (siteId !== undefined) return user.isAdmin || user.siteIds.includes(siteId) ? sql`${siteId}` : sql`null`;
  return user.isAdmin ? sql`site_id` : sql`any(${`{${user.siteIds.join(",")}}`}::int[])`;
}

/**
 * Finance figures of a project (issue 45), at one site or at every site of the user:
 * - GET /api/finance/summary: earned, held back, awaiting verification, unbilled, billed, received, open;
 * - GET /api/finance/aging: the open gross of the sent statements by days past their due date (the
 *   domain's agingBucket), beside unbilled, awaiting verification, held back and unapplied credit;
 * - POST /api/statements/{uuid}/lines: a manual line on a draft statement;
 * - POST /api/statements/{uuid}/write-off: the open rest of a short payment given up, with a reason.
 */
export function financeRoutes(fastify: FastifyInstance, deps: Deps) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const statementService = resourceService(deps.db, statementsResource);

  async function figures(user: SessionUser, projectId: number, siteId: number | undefined) {
    const site = sitesOf(user, siteId);
    const [project] = await queryRows<{ currency: Currency | null }>(
      deps.db,
      sql`select currency from projects where id = ${projectId}`,
    );
    if (!project) throw notFound("Project not found");
    const currency = project.currency ?? "EUR";
    const [sums] = await queryRows<Record<string, string>>(
      deps.db,
      sql`select
          coalesce(sum(amount), 0)::text as earned,
          coalesce(sum(held_back) filter (where held_back_statement_id is null), 0)::text as "heldBack",
          coalesce(sum(payable) filter (where state = 'AWAITING_VERIFICATION'), 0)::text as "awaitingVerification",
          coalesce(sum(payable) filter (where state = 'BILLABLE'), 0)::text as unbilled
        from (select earnings.*, ${earningStateSql} as state from earnings
          where project_id = ${projectId} and site_id = ${site} and voided_at is null) e`,
    );
    const [paid] = await queryRows<Record<string, string>>(
      deps.db,
      sql`select
          (select coalesce(sum(gross), 0) from statements where project_id = ${projectId} and site_id = ${site} and status = 'SENT')::text as billed,
          (select coalesce(sum(amount), 0) from payments where project_id = ${projectId} and site_id = ${site})::text as received,
          (select coalesce(sum(written_off), 0) from statements where project_id = ${projectId} and site_id = ${site} and status = 'SENT')::text as "writtenOff",
          (select coalesce(sum(a.amount), 0) from payment_allocations a join payments p on p.id = a.payment_id
            where p.project_id = ${projectId} and p.site_id = ${site})::text as allocated`,
    );
    const open = await queryRows<{ dueDate: string; open: string }>(
      deps.db,
      sql`select due_date::text as "dueDate", (gross - paid - written_off)::text as open from statements
        where project_id = ${projectId} and site_id = ${site} and status = 'SENT' and gross > paid + written_off`,
    );
    const minor = (text: string) => toMinor(text, currency);
    return { currency, sums, paid, open, minor };
  }

  app.get(
    "/api/finance/summary",
    {
      schema: {
        querystring: financeQuery.omit({ asOf: true }),
        tags: ["finance"],
        response: answers(z.unknown()),
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const q = parseQuery(financeQuery.omit({ asOf: true }), request.query);
      const { currency, sums, paid, open, minor } = await figures(user, q.projectId, q.siteId);
      const money = (amount: bigint) => formatMinor(amount, currency);
      return send(request, reply, {
        currency,
        earned: money(minor(sums.earned)),
        heldBack: money(minor(sums.heldBack)),
        awaitingVerification: money(minor(sums.awaitingVerification)),
        unbilled: money(minor(sums.unbilled)),
        billed: money(minor(paid.billed)),
        received: money(minor(paid.received)),
        writtenOff: money(minor(paid.writtenOff)),
        open: money(open.reduce((sum, s) => sum + minor(s.open), 0n)),
      });
    },
  );

  app.get(
    "/api/finance/aging",
    { schema: { querystring: financeQuery, tags: ["finance"], response: answers(z.unknown()) } },
    async (request, reply) => {
      const user = currentUser(request);
      const q = parseQuery(financeQuery, request.query);
      const asOf = q.asOf ?? toIsoDate(new Date());
      const { currency, sums, paid, open, minor } = await figures(user, q.projectId, q.siteId);
      const buckets = Object.fromEntries(agingBuckets.map((bucket) => [bucket, 0n])) as Record<
        string,
        bigint
      >;
      for (const statement of open) buckets[agingBucket(statement.dueDate, asOf)] += minor(statement.open);
      const money = (amount: bigint) => formatMinor(amount, currency);
      const aging: Aging = {
        currency,
        asOf,
        notDue: money(buckets.notDue),
        days1to30: money(buckets.days1to30),
        days31to60: money(buckets.days31to60),
        days61to90: money(buckets.days61to90),
        over90: money(buckets.over90),
        unbilled: money(minor(sums.unbilled)),
        awaitingVerification: money(minor(sums.awaitingVerification)),
        heldBack: money(minor(sums.heldBack)),
        unappliedCredit: money(minor(paid.received) - minor(paid.allocated)),
      };
      return send(request, reply, aging);
    },
  );

  /**
   * POST /api/statements/{uuid}/write-off: the site gives up the open rest of a sent statement (a
   * short payment), with its reason; the statement then counts as paid. Audited; once per statement.
   */
  app.post(
    "/api/statements/:uuid/write-off",
    {
      schema: {
        params: z.object({ uuid: z.string().max(80) }),
        body: writeOffSchema,
        tags: ["statements"],
        response: answers(resourceAnswers(statementService).record),
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const reason = parseBody(writeOffSchema, request.body).reason.trim();
      if (!reason) throw validationError({ reason: messages.writeOffReasonRequired });
      const { uuid } = request.params;
      await deps.db.transaction(async (tx) => {
        const [statement] = await queryRows<{ id: number; currency: Currency; open: string; sent: boolean }>(
          tx,
          sql`select id, currency, (gross - paid - written_off)::text as open, status = 'SENT' and written_off = 0 as sent
            from statements where uuid = ${uuid} and ${statementScope(user) ?? sql`true`} for update`,
        );
        if (!statement) throw notFound("Statement not found");
        const open = toMinor(statement.open, statement.currency);
        if (!statement.sent || open <= 0n) throw conflict(messages.writeOffNotOpen);
        const amount = formatMinor(open, statement.currency);
        await tx
          .update(statements)
          .set({
            writtenOff: amount,
            writeOffReason: reason,
            version: sql`${statements.version} + 1`,
            updatedAt: sql`now()`,
          })
          .where(eq(statements.id, statement.id));
        await recordAudit(tx, changeContext(request), {
          resource: "statements",
          uuid,
          action: "update",
          changes: [
            { field: "writtenOff", old: null, new: amount },
            { field: "writeOffReason", old: null, new: reason },
          ],
        });
      });
      return send(request, reply, await statementService.get(uuid, {}, user));
    },
  );

  app.post(
    "/api/statements/:uuid/lines",
    {
      schema: {
        params: z.object({ uuid: z.string().max(80) }),
        body: statementLineSchema,
        tags: ["statements"],
        response: answers(resourceAnswers(statementService).record, 201),
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const line = parseBody(statementLineSchema, request.body);
      if (!line.description.trim()) throw validationError({ description: messages.descriptionRequired });
      const { uuid } = request.params;
      await deps.db.transaction(async (tx) => {
        const [statement] = await tx
          .select({
            id: statements.id,
            status: statements.status,
            currency: statements.currency,
            vatPercent: statements.vatPercent,
          })
          .from(statements)
          .where(and(eq(statements.uuid, uuid), statementScope(user)))
          .for("update");
        if (!statement) throw notFound("Statement not found");
        if (statement.status !== "DRAFT") throw conflict(messages.notDraftLines);
        const currency = statement.currency as Currency;
        const amount = exactMinor(line.amount, currency);
        if (amount === null) throw validationError({ amount: messages.tooManyDigits });
        await tx.insert(statementLines).values({
          statementId: statement.id,
          description: line.description.trim(),
          amount: formatMinor(amount, currency),
        });
        await totalStatement(tx, statement.id, currency, statement.vatPercent);
        await tx
          .update(statements)
          .set({ version: sql`${statements.version} + 1`, updatedAt: sql`now()` })
          .where(eq(statements.id, statement.id));
        await recordAudit(tx, changeContext(request), {
          resource: "statements",
          uuid,
          action: "update",
          changes: [
            {
              field: "lines",
              old: null,
              new: `${line.description.trim()}: ${formatMinor(amount, currency)}`,
            },
          ],
        });
      });
      return send(request, reply, await statementService.get(uuid, {}, user), 201);
    },
  );
}
