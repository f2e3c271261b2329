import { type Currency, type EarningState, formatMinor, toMinor } from "@trialdesk/domain";
import { sql } from "drizzle-orm";

/**
 * Finance states as SQL over the rows named by their tables ("earnings", "statements"), for lists and
 * filters (issue 45). A sent statement is paid when its payments and its write-off cover its gross. An earning on no statement is BILLABLE unless its patient is in the verification
 * sample and its visit does not count as verified (verified, not changed since, no query open: the
 * domain's countsAsVerified); on a statement, PAID once that statement is paid in full.
 */
export const statementStatusSql = sql<string>`case
  when "statements"."status" = 'SENT' and "statements"."paid" + "statements"."written_off" >= "statements"."gross" then 'PAID'
  when "statements"."status" = 'SENT' and "statements"."paid" > 0 then 'PARTIALLY_PAID'
  else "statements"."status" end`;

export const earningStateSql = sql<EarningState>`case
  when "earnings"."statement_id" is not null then
    (select case when s.status = 'SENT' and s.paid + s.written_off >= s.gross then 'PAID' else 'ON_STATEMENT' end
      from statements s where s.id = "earnings"."statement_id")
  when "earnings"."reverses_id" is null
    and exists(select 1 from study_patients sp where sp.patient_id = "earnings"."patient_id"
      and sp.study_id = "earnings"."study_id" and sp.sdv_selected)
    and not exists(select 1 from patient_visits pv where pv.id = "earnings"."patient_visit_id"
      and pv.sdv_verified_at is not null and not pv.sdv_reopened
      and not exists(select 1 from queries q where q.patient_visit_id = pv.id and q.status <> 'CLOSED'))
    then 'AWAITING_VERIFICATION'
  else 'BILLABLE' end`;

/** A stored amount (numeric text) as the wire writes it in its currency: "370.00", HUF "1001". */
export const moneyText = (value: unknown, currency: unknown): string =>
  formatMinor(toMinor(String(value ?? "0"), currency as Currency), currency as Currency);

/** The amounts of read rows in their currency's digits. */
export function withMoneyTexts<R extends Record<string, unknown>>(rows: R[], fields: string[]): R[] {
  return rows.map((row) => {
    const next: Record<string, unknown> = { ...row };
    for (const field of fields) if (field in next) next[field] = moneyText(next[field], row.currency);
    return next as R;
  });
}
