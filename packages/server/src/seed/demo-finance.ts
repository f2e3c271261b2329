import { addDays, type Currency, formatMinor, newUuid, toIsoDate, toMinor } from "@trialdesk/domain";
import { count, sql } from "drizzle-orm";
import type { SessionUser } from "../auth/guards";
import { type Db, queryRows, writeTogether } from "../db/client";
import { keepEarnings } from "../resources/finance/earning-writes";
import { statements } from "../resources/finance/finance.table";
import { paymentsResource } from "../resources/finance/payments.resource";
import { statementsResource } from "../resources/finance/statements.resource";
import { resourceService } from "../resources/resource";

const system = {
  id: 0,
  uuid: "",
  email: "",
  profile: { firstName: "", lastName: "" },
  isAdmin: true,
  siteIds: [],
  kind: "user",
} as SessionUser;
const seedChange = { userId: null, userName: "system", requestId: "seed", reason: null };

/**
 * The demo's money on the day it starts (issue 45): the demo visits (written directly) earn as a save
 * would have; the demo monitor has verified the oldest at BUD, so some are billable and the rest await
 * verification; one statement sent long ago is overdue, a later one is paid in part. Once only.
 */
export async function seedFinance(db: Db, demoStudyUuid: string, today = toIsoDate(new Date())) {
  const [existing] = await db.select({ n: count() }).from(statements);
  if (Number(existing.n) > 0) return;
  const [study] = await queryRows<{ id: number; projectId: number; siteId: number | null }>(
    db,
    sql`select s.id, s.project_id as "projectId", (select id from sites where code = 'BUD') as "siteId"
      from studies s where s.uuid = ${demoStudyUuid}`,
  );
  if (!study?.siteId) return;
  const completed = await queryRows<Record<string, unknown>>(
    db,
    sql`select id, patient_id as "patientId", study_id as "studyId", visit_id as "visitId",
        visit_date::text as "visitDate", visit_status as "visitStatus"
      from patient_visits where visit_status = 'COMPLETED' and visit_date is not null order by visit_date, id`,
  );
  await db.transaction(async (tx) => {
    for (const visit of completed) await writeTogether(tx, await keepEarnings(tx, null, visit));
    // The monitor's work so far: the BUD visits of the demo study done more than two months ago.
    await tx.execute(
      sql`update patient_visits pv set sdv_verified_at = pv.visit_date + time '17:00',
          sdv_verified_by = m.id, sdv_verified_by_name = m.first_name || ' ' || m.last_name
        from monitors m, patients p
        where m.email = 'monitor@example.com' and p.id = pv.patient_id and p.recorder_site_id = ${study.siteId}
          and pv.study_id = ${study.id} and pv.visit_status = 'COMPLETED' and pv.visit_date < ${addDays(today, -60)}`,
    );
  });
  const statementService = resourceService(db, statementsResource);
  const paymentService = resourceService(db, paymentsResource);
  const prepare = async (periodTo: string, statementDate: string) => {
    try {
      const draft = (await statementService.create(
        {
          uuid: newUuid("statements"),
          projectId: study.projectId,
          siteId: study.siteId,
          periodTo,
          statementDate,
        },
        system,
        seedChange,
      )) as Record<string, unknown>;
      return (await statementService.update(
        draft.uuid as string,
        { ...draft, status: "SENT", externalInvoiceNumber: `INV-${statementDate.slice(0, 7)}` },
        system,
        seedChange,
      )) as Record<string, unknown>;
    } catch {
      return null; // nothing billable in that period
    }
  };
  // Sent long ago and unpaid: overdue. Then a later one, paid in part.
  await prepare(addDays(today, -150), addDays(today, -140));
  const later = await prepare(addDays(today, -90), addDays(today, -85));
  if (later) {
    const currency = later.currency as Currency;
    const half = formatMinor(toMinor(later.gross as string, currency) / 2n, currency);
    await paymentService.create(
      {
        uuid: newUuid("payments"),
        projectId: study.projectId,
        siteId: study.siteId,
        receivedDate: addDays(today, -20),
        amount: half,
        reference: "Sponsor transfer",
        allocations: [{ statementId: later.id as number, amount: half }],
      },
      system,
      seedChange,
    );
  }
}
