import { type SdvCandidate, sdvSample, sdvSampleSize } from "@trialdesk/domain";
import { sql } from "drizzle-orm";
import { queryRows, type Tx } from "../../db/client";

/**
 * Recomputes the source-verification sample of a study at a site (issue 44; the rule is the domain's
 * sdvSample) and stores it on the assignments (`sdv_selected`), in the transaction of the write that
 * changed it. Writes of one study and site take turns on an advisory lock, so two assignments saved
 * at once, by two servers, leave the sample one of them would have left alone.
 */
export async function resampleSdv(tx: Tx, studyId: number, siteId: number): Promise<Set<number>> {
  await lockSample(tx, studyId, siteId);
  const rows = await queryRows<SdvCandidate & { selected: boolean; percentage: number | null }>(
    tx,
    sql`select sp.id, sp.start_date::text as "startDate", sp.sdv_selected as selected, sp.sdv_swapped as swapped,
        exists(select 1 from patient_visits pv where pv.patient_id = sp.patient_id
          and pv.study_id = sp.study_id and pv.sdv_verified_at is not null) as verified,
        (select pr.monitored_percentage from studies s join projects pr on pr.id = s.project_id
          where s.id = sp.study_id) as percentage
      from study_patients sp join patients p on p.id = sp.patient_id
      where sp.study_id = ${studyId} and p.recorder_site_id = ${siteId}
      order by sp.id`,
  );
  if (rows.length === 0) return new Set();
  const sample = sdvSample(rows, sdvSampleSize(rows[0].percentage ?? 0, rows.length));
  const changed = rows.filter((row) => row.selected !== sample.has(row.id)).map((row) => row.id);
  if (changed.length > 0)
    await tx.execute(
      sql`update study_patients set sdv_selected = not sdv_selected
        where id = any(${`{${changed.join(",")}}`}::int[])`,
    );
  return sample;
}

/** Writes of one study's sample at a site take turns (resampleSdv, a monitor's swap). */
export async function lockSample(tx: Tx, studyId: number, siteId: number): Promise<void> {
  await tx.execute(
    sql`select pg_advisory_xact_lock(hashtextextended('sdv-sample ' || ${studyId}::text || ' ' || ${siteId}::text, 0))`,
  );
}

/**
 * The same for every study and site of a project that has assignments (its percentage changed), or of
 * every project (data written directly: the demo seed).
 */
export async function resampleProject(tx: Tx, projectId: number | null): Promise<void> {
  const pairs = await queryRows<{ studyId: number; siteId: number }>(
    tx,
    sql`select distinct sp.study_id as "studyId", p.recorder_site_id as "siteId"
      from study_patients sp join patients p on p.id = sp.patient_id join studies s on s.id = sp.study_id
      where ${projectId === null ? sql`true` : sql`s.project_id = ${projectId}`} order by 1, 2`,
  );
  for (const { studyId, siteId } of pairs) await resampleSdv(tx, studyId, siteId);
}

export const resampleEverything = (tx: Tx) => resampleProject(tx, null);
