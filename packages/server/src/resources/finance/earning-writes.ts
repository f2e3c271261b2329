import {
  type Currency,
  formatMinor,
  newUuid,
  splitEarning,
  toIsoDate,
  toMinor,
  visitFees,
} from "@trialdesk/domain";
import { type SQL, sql } from "drizzle-orm";
import { queryRows, type Tx, type Write } from "../../db/client";

type VisitRecord = Record<string, unknown>;

/** What a completed visit's earning needs: the project's terms, the patient's site, the live earning. */
type EarningInputs = {
  projectId: number;
  siteId: number;
  patientFee: string | null;
  currency: Currency | null;
  paidPercentage: number | null;
  mandatory: number[];
  /** The plan's visit shares in percent, in plan order (none: the fee is shared equally). */
  shares: [number, string][];
  live: { id: number; patientVisitId: number | null; statementId: number | null; serviceDate: string } | null;
};

/** The inputs of the visit named by `visit` (its patient_id, study_id and visit_id columns). */
const inputsOf = (visit: { patientId: SQL; studyId: SQL; visitId: SQL }) => sql`(select json_build_object(
    'projectId', pr.id, 'siteId', (select p.recorder_site_id from patients p where p.id = ${visit.patientId}),
    'patientFee', pr.patient_fee::text, 'currency', pr.currency, 'paidPercentage', pr.paid_percentage,
    'mandatory', coalesce((select json_agg(e.from_visit_id order by e.sequence)
      from studyplan_schedule_entries e join studyplans sp on sp.id = e.studyplan_id
      join visits v on v.id = e.from_visit_id where sp.study_id = s.id and v.mandatory), '[]'),
    'shares', coalesce((select json_agg(json_build_array(e.from_visit_id, e.fee_share::text) order by e.sequence)
      from studyplan_schedule_entries e join studyplans sp on sp.id = e.studyplan_id
      where sp.study_id = s.id and e.fee_share is not null), '[]'),
    'live', (select json_build_object('id', er.id, 'patientVisitId', er.patient_visit_id,
        'statementId', er.statement_id, 'serviceDate', er.service_date)
      from earnings er where er.patient_id = ${visit.patientId} and er.study_id = ${visit.studyId}
        and er.visit_id = ${visit.visitId} and er.live and er.reverses_id is null))
  from studies s join projects pr on pr.id = s.project_id where s.id = ${visit.studyId})`;

/**
 * Read in a patient visit's write statement (its `readWithWrite`, beside the window inputs): what the
 * earning of the written visit needs, so that completing a visit costs no round trip more (issue 14's
 * budget of four). The statement names the written row patient_visits.
 */
export const earningInputsBeforeWrite = {
  earningInputs: inputsOf({
    patientId: sql`"patient_visits"."patient_id"`,
    studyId: sql`"patient_visits"."study_id"`,
    visitId: sql`"patient_visits"."visit_id"`,
  }),
};

async function readInputs(tx: Tx, visit: VisitRecord): Promise<EarningInputs | null> {
  const [row] = await queryRows<{ inputs: EarningInputs | string | null }>(
    tx,
    sql`select ${inputsOf({
      patientId: sql`${visit.patientId as number}::int`,
      studyId: sql`${visit.studyId as number}::int`,
      visitId: sql`${visit.visitId as number}::int`,
    })} as inputs`,
  );
  return parse(row?.inputs ?? null);
}

const parse = (inputs: EarningInputs | string | null | undefined): EarningInputs | null =>
  typeof inputs === "string" ? (JSON.parse(inputs) as EarningInputs) : (inputs ?? null);

/**
 * Keeps the earnings in step with a patient visit's save, in its transaction (issue 45): a plan visit
 * completed earns its fee (the project's patient fee shared over the plan's mandatory visits, or the
 * visit's own share of it, split into payable and held back by the paid percentage); un-completed or
 * deleted, its earning is voided
 * while on no statement, else a reversing line waits for the next statement. One earning counts per
 * patient, study and visit (a unique index), so a second completed record of the visit earns nothing.
 * A new earning is answered as a write that rides with the save's last statement.
 */
export async function keepEarnings(
  tx: Tx,
  before: VisitRecord | null,
  after: VisitRecord | null,
  alongside?: VisitRecord,
): Promise<Write[]> {
  const wasDone = before?.visitStatus === "COMPLETED";
  const isDone = after?.visitStatus === "COMPLETED";
  if (!wasDone && !isDone) return [];
  const moved =
    after !== null &&
    before !== null &&
    (["patientId", "studyId", "visitId"] as const).some((key) => after[key] !== before[key]);
  if (wasDone && before && (!isDone || moved)) await unearn(tx, before);
  if (!isDone || !after) return [];
  const inputs = alongside && !moved ? parse(alongside.earningInputs as string) : await readInputs(tx, after);
  return inputs ? earn(tx, after, inputs) : [];
}

async function earn(tx: Tx, visit: VisitRecord, inputs: EarningInputs): Promise<Write[]> {
  const { live } = inputs;
  if (live) {
    // The same record re-dated: the earning follows while it is on no statement.
    if (live.patientVisitId === visit.id && live.statementId === null && live.serviceDate !== visit.visitDate)
      await tx.execute(
        sql`update earnings set service_date = ${visit.visitDate as string}, updated_at = now()
          where id = ${live.id} and statement_id is null`,
      );
    return [];
  }
  const mandatory = inputs.mandatory.map(Number);
  const currency = inputs.currency;
  if (!inputs.patientFee || !currency) return [];
  // With shares, each visit that has one earns it; without, each mandatory visit an equal part.
  const shares = new Map((inputs.shares ?? []).map(([visitId, share]) => [Number(visitId), share]));
  const fee = visitFees(toMinor(inputs.patientFee, currency), mandatory, shares).get(visit.visitId as number);
  if (fee === undefined || fee === 0n) return [];
  const { payable, heldBack } = splitEarning(fee, inputs.paidPercentage ?? 100);
  const money = (amount: bigint) => formatMinor(amount, currency);
  const columns = [
    "uuid",
    "project_id",
    "site_id",
    "study_id",
    "patient_id",
    "visit_id",
    "patient_visit_id",
    "service_date",
    "currency",
    "amount",
    "held_back",
    "payable",
  ];
  return [
    {
      key: "earning of a completed visit",
      // A save of the same visit at the same moment earned first: this one earns nothing.
      build: (value) =>
        sql`insert into earnings (${sql.raw(columns.join(", "))}) values (${sql.join(
          columns.map((column) => sql`${value(column)}`),
          sql`, `,
        )}) on conflict (patient_id, study_id, visit_id) where live and reverses_id is null do nothing`,
      values: {
        uuid: newUuid("earnings"),
        project_id: inputs.projectId,
        site_id: inputs.siteId,
        study_id: visit.studyId,
        patient_id: visit.patientId,
        visit_id: visit.visitId,
        patient_visit_id: visit.id,
        service_date: visit.visitDate,
        currency,
        amount: money(fee),
        held_back: money(heldBack),
        payable: money(payable),
      },
    },
  ];
}

/** The live earning of a visit's patient, study and visit, locked (a statement may be taking it). */
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
