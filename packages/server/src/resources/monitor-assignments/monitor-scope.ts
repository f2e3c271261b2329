import { type SQL, type SQLWrapper, sql } from "drizzle-orm";

/**
 * What a monitor may read (issue 44): the studies of their assignments current today (dates
 * inclusive, the server's today as everywhere, decision 194), at the assignment's sites, or at every
 * site of the study's project when it lists none. Each scope names its row's columns qualified by
 * table: inside these subqueries an unqualified "study_id" would be the assignment's own.
 */
const currentAssignment = (monitorId: SQLWrapper, studyId: SQLWrapper) =>
  sql`ma.monitor_id = ${monitorId} and ma.study_id = ${studyId}
    and current_date between ma.access_from and ma.access_to`;

/** The monitor has a current assignment to the study. */
export const monitorSeesStudy = (monitorId: SQLWrapper, studyId: SQLWrapper): SQL =>
  sql`exists(select 1 from monitor_assignments ma where ${currentAssignment(monitorId, studyId)})`;

/** The monitor has a current assignment to the study that covers the site. */
export const monitorSeesSite = (monitorId: SQLWrapper, studyId: SQLWrapper, siteId: SQLWrapper): SQL =>
  sql`exists(select 1 from monitor_assignments ma where ${currentAssignment(monitorId, studyId)}
    and (${siteId} = any(ma.site_ids) or (cardinality(ma.site_ids) = 0 and exists(
      select 1 from project_sites ps join studies s on s.project_id = ps.project_id
      where s.id = ma.study_id and ps.site_id = ${siteId}))))`;

/** The same for a patient's record: the patient's site. */
export const monitorSeesPatient = (monitorId: SQLWrapper, studyId: SQLWrapper, patientId: SQLWrapper): SQL =>
  monitorSeesSite(
    monitorId,
    studyId,
    sql`(select p.recorder_site_id from patients p where p.id = ${patientId})`,
  );

/** A table's column named in full, for the scopes above (`"study_patients"."study_id"`). */
export const column = (table: string, name: string) => sql.raw(`"${table}"."${name}"`);
