import {
  type Currency,
  formatMinor,
  newUuid,
  splitEarning,
  toIsoDate,
  toMinor,
  visitFees,
} from "@trialdesk/domain";
import { sql } from "drizzle-orm";
import { queryRows, type Tx } from "../../db/client";

type VisitRecord = Record<string, unknown>;

/**
 * Keeps the earnings in step with a patient visit's save, in its transaction (issue 45): a plan visit
 * completed earns its fee (the project's patient fee shared over the plan's mandatory visits, split
 * into payable and held back by the paid percentage); un-completed or deleted, its earning is voided
 * while on no statement, else a reversing line waits for the next statement. One earning counts per
 * patient, study and visit (a unique index), so a second completed record of the visit earns nothing.
 */
export async function keepEarnings(tx: Tx, before: VisitRecord | null, after: VisitRecord | null) {
  const wasDone = before?.visitStatus === "COMPLETED";
  const isDone = after?.visitStatus === "COMPLETED";
  if (!wasDone && !isDone) return;
  if (isDone && after) await earn(tx, after);
  const moved =
    after !== null &&
    before !== null &&
    (["patientId", "studyId", "visitId"] as const).some((key) => after[key] !== before[key]);
  if (wasDone && before && (!isDone || moved)) await unearn(tx, before);
}

/** The live earning of a visit's patient, study and visit, locked. */
async function liveEarning(tx: Tx, visit: VisitRecord) {
  const [row] = await queryRows<{ id: number; patientVisitId: number | null; statementId: number | null }>(
    tx,
    sql`select id, patient_visit_id as "patientVisitId", statement_id as "statementId" from earnings
      where patient_id = ${visit.patientId as number} and study_id = ${visit.studyId as number}
        and visit_id = ${visit.visitId as number} and live and reverses_id is null
      for update`,
  );
  return row ?? null;
}

async function earn(tx: Tx, visit: VisitRecord) {
  const live = await liveEarning(tx, visit);
  if (live) {
    // The same record re-dated: the earning follows while it is on no statement.
    if (live.patientVisitId === visit.id && live.statementId === null)
      await tx.execute(
        sql`update earnings set service_date = ${visit.visitDate as string}, updated_at = now()
          where id = ${live.id} and service_date <> ${visit.visitDate as string}`,
      );
    return;
  }
  const [terms] = await queryRows<{
    projectId: number;
    siteId: number;
    patientFee: string | null;
    currency: Currency | null;
    paidPercentage: number | null;
    mandatory: number[];
  }>(
    tx,
    sql`select pr.id as "projectId", p.recorder_site_id as "siteId", pr.patient_fee::text as "patientFee",
        pr.currency, pr.paid_percentage as "paidPercentage",
        coalesce((select array_agg(e.from_visit_id order by e.sequence)
          from studyplan_schedule_entries e join studyplans sp on sp.id = e.studyplan_id
          join visits v on v.id = e.from_visit_id
          where sp.study_id = s.id and v.mandatory), '{}') as mandatory
      from studies s join projects pr on pr.id = s.project_id, patients p
      where s.id = ${visit.studyId as number} and p.id = ${visit.patientId as number}`,
  );
  if (!terms?.patientFee || !terms.currency || !terms.mandatory.map(Number).includes(visit.visitId as number))
    return;
  const fee = visitFees(toMinor(terms.patientFee, terms.currency), terms.mandatory.map(Number)).get(
    visit.visitId as number,
  );
  if (fee === undefined || fee === 0n) return;
  const { payable, heldBack } = splitEarning(fee, terms.paidPercentage ?? 100);
  const money = (amount: bigint) => formatMinor(amount, terms.currency as Currency);
  await tx.execute(
    sql`insert into earnings (uuid, project_id, site_id, study_id, patient_id, visit_id, patient_visit_id,
        service_date, currency, amount, held_back, payable)
      values (${newUuid("earnings")}, ${terms.projectId}, ${terms.siteId}, ${visit.studyId as number},
        ${visit.patientId as number}, ${visit.visitId as number}, ${visit.id as number},
        ${visit.visitDate as string}, ${terms.currency}, ${money(fee)}, ${money(heldBack)}, ${money(payable)})`,
  );
}

async function unearn(tx: Tx, visit: VisitRecord) {
  const live = await liveEarning(tx, visit);
  // Another record of the visit holds it: it stays.
  if (!live || (live.patientVisitId !== null && live.patientVisitId !== visit.id)) return;
  if (live.statementId === null) {
    await tx.execute(
      sql`update earnings set live = false, voided_at = now(), updated_at = now() where id = ${live.id}`,
    );
    return;
  }
  // On a statement, which never changes: a reversing line goes on the next one.
  await tx.execute(
    sql`with reversed as (
        update earnings set live = false, reversed_at = now(), updated_at = now() where id = ${live.id} returning *)
      insert into earnings (uuid, project_id, site_id, study_id, patient_id, visit_id, patient_visit_id,
        service_date, currency, amount, held_back, payable, reverses_id)
      select ${newUuid("earnings")}, project_id, site_id, study_id, patient_id, visit_id, null,
        ${toIsoDate(new Date())}, currency, -amount, -held_back, -payable, id from reversed`,
  );
}
