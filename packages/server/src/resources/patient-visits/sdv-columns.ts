import type { SdvStatus } from "@trialdesk/domain";
import { sql } from "drizzle-orm";

/**
 * A patient visit's source verification (issue 44) as SQL, for lists and filters: the domain's
 * sdvStatus rule, over the visit's own row (named "patient_visits", as a save's statement also names
 * its written row) and its patient's sample in the study. The server's monitors.test.ts holds the two alike.
 */
const sampled = sql`exists(select 1 from study_patients sp
  where sp.patient_id = "patient_visits"."patient_id" and sp.study_id = "patient_visits"."study_id"
    and sp.sdv_selected)`;

export const sdvStatusSql = sql<SdvStatus>`case
  when "patient_visits"."sdv_verified_at" is not null then
    case when "patient_visits"."sdv_reopened" then 'REOPENED' else 'VERIFIED' end
  when "patient_visits"."visit_status" = 'COMPLETED' and ${sampled} then 'PENDING'
  else 'NOT_REQUIRED' end`;

/** Queries on the visit not yet closed: a verified visit with one counts as not verified. */
export const openQueriesSql = sql<number>`(select count(*)::int from queries q
  where q.patient_visit_id = "patient_visits"."id" and q.status <> 'CLOSED')`;

export const sdvVerifiedAtSql = sql<
  string | null
>`to_char("patient_visits"."sdv_verified_at" at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`;
