import {
  type FieldErrors,
  optionLabel,
  type PatientVisitInput,
  reopensVerification,
  type SdvStatus,
  sdvStatuses,
  sdvStatusValues,
  toIsoDate,
  type VisitStatus,
  validatePatientVisit,
  visitDateErrors,
  visitStatuses,
} from "@trialdesk/domain";
import { and, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { PgSelect } from "drizzle-orm/pg-core";
import { z } from "zod";
import type { SessionUser } from "../../auth/guards";
import { builtOnce, namedByText, type Tx } from "../../db/client";
import { validationError } from "../../http/errors";
import { earningInputsBeforeWrite, keepEarnings } from "../finance/earning-writes";
import { column, monitorSeesPatient } from "../monitor-assignments/monitor-scope";
import { booleanParam, idParam } from "../params";
import { patientScope } from "../patients/patients.resource";
import { patients } from "../patients/patients.table";
import { byName, defineResource, foldedText, throughKey } from "../resource";
import { anyAdministrator, anyStaffMember, siteIdsOf } from "../site-scope";
import { studies } from "../studies/studies.table";
import { studyPatients } from "../study-patients/study-patients.table";
import {
  keepVisitSchedules,
  type LockedAssignments,
  lockedAssignmentsJson,
  lockedAssignmentsOf,
  windowInputsBeforeWrite,
} from "../visit-schedule/visit-schedule";
import { visits } from "../visits/visits.table";
import { patientVisits } from "./patient-visits.table";
import { openQueriesSql, sdvStatusSql, sdvVerifiedAtSql } from "./sdv-columns";

export const patientVisitMessages = {
  patientRequired: "Patient is required",
  studyRequired: "Study is required",
  visitRequired: "Visit is required",
  notAssigned: "The patient is not assigned to this study",
  visitOfOtherStudy: "This visit does not belong to the study",
} as const;

/**
 * Patient visits are site-scoped through their patient (design §4): staff see and change the visits
 * of their sites' patients; administrators all. Uses only the base table (a subquery on patients).
 */
export function patientVisitScope(user: SessionUser | null): SQL | undefined {
  const patientsOfUser = patientScope(user);
  if (!patientsOfUser) return undefined;
  return inArray(
    patientVisits.patientId,
    sql`(select ${patients.id} from ${patients} where ${patientsOfUser})`,
  );
}

/**
 * The patient's screen number in the study: from its assignment, the active one first, else the
 * latest. Drizzle leaves single-table columns unqualified, so the correlation names the table.
 */
const screenNumber = sql<string | null>`(select sp.screen_nr from ${studyPatients} sp
  where sp.patient_id = ${sql.raw('"patient_visits"."patient_id"')}
    and sp.study_id = ${sql.raw('"patient_visits"."study_id"')}
  order by sp.active desc, sp.start_date desc nulls last, sp.id desc limit 1)`;
/** HH:mm as the wire carries it; the column is a time of day. */
const visitTime = sql<string | null>`to_char(${patientVisits.visitTime}, 'HH24:MI')`;
const patientName = sql<string>`${patients.lastName} || ' ' || ${patients.firstName}`;

const joins = (query: PgSelect) =>
  query
    .innerJoin(patients, eq(patients.id, patientVisits.patientId))
    .innerJoin(studies, eq(studies.id, patientVisits.studyId))
    .innerJoin(visits, eq(visits.id, patientVisits.visitId));

/**
 * The spec's validator lets everything pass (spec §5); what a visit cannot be stored without is
 * checked here, with the references' own messages.
 */
function validate(input: PatientVisitInput): FieldErrors {
  const errors: FieldErrors = { ...validatePatientVisit(input) };
  if (input.patientId == null) errors.patientId = patientVisitMessages.patientRequired;
  if (input.studyId == null) errors.studyId = patientVisitMessages.studyRequired;
  if (input.visitId == null) errors.visitId = patientVisitMessages.visitRequired;
  return errors;
}

/**
 * The references must hold together: a patient the user may see (otherwise it reads as missing, so
 * other sites' patients never leak), assigned to the study (active or closed: visits of a closed
 * assignment are history that staff still record and correct), and a visit of that study.
 * The assignments are locked as they are found (FOR UPDATE, in id order, as the window rebuild locks
 * them): an assignment removed at the same moment is either gone when this save reads it, or removed
 * only after this save's visit, which then stops its removal. Without the lock both went through and
 * left a visit of a patient not assigned to the study. The window rebuild of the save uses the rows
 * read here (decision 154).
 */
const referenceChecks = builtOnce();
async function checkReferences(tx: Tx, input: PatientVisitInput, user: SessionUser | null) {
  const patientId = input.patientId as number;
  const studyId = input.studyId as number;
  const visitId = input.visitId as number;
  // Asked in one round trip (issue 14: every save pays each one), built once per kind of caller.
  const admin = user?.isAdmin === true;
  const check = referenceChecks(tx, admin ? "all" : "sites", () => {
    const patient = tx
      .select({ one: sql`1` })
      .from(patients)
      .where(
        and(
          eq(patients.id, sql.placeholder("patientId")),
          patientScope(admin ? anyAdministrator : anyStaffMember),
        ),
      );
    // FOR KEY SHARE, as the insert's foreign key takes it anyway: a visit moving to another study at
    // the same moment (its save locks it) is read as it ends up.
    const visitStudy = tx
      .select({ studyId: visits.studyId })
      .from(visits)
      .where(eq(visits.id, sql.placeholder("visitId")))
      .for("key share");
    return tx
      .select({
        patient: sql<boolean>`exists(${patient})`,
        // Every one of them read (and so locked), and kept for the window rebuild of this save.
        assignments: lockedAssignmentsJson,
        visitStudyId: sql<number | null>`(${visitStudy})`,
        // The window engine's bounds of a visit date (issue 43).
        lplv: sql<
          string | null
        >`(select ${studies.lplv}::text from ${studies} where ${studies.id} = ${sql.placeholder("studyId")})`,
      })
      .from(sql`(select 1) as once`)
      .prepare(namedByText);
  });
  const [found] = await check.execute({ patientId, studyId, visitId, siteIds: siteIdsOf(user) });
  if (!found.patient) throw validationError({ patientId: patientVisitMessages.patientRequired });
  const errors: FieldErrors = {};
  const assignments = lockedAssignmentsOf(found.assignments);
  if (assignments.length === 0) errors.studyId = patientVisitMessages.notAssigned;
  if (found.visitStudyId === null || Number(found.visitStudyId) !== studyId)
    errors.visitId = patientVisitMessages.visitOfOtherStudy;
  // The patient's first start in the study: visits of an earlier, closed assignment stay history.
  const starts = assignments.flatMap((a) => (a.startDate ? [a.startDate] : [])).sort();
  Object.assign(
    errors,
    visitDateErrors(
      { visitDate: input.visitDate || null, visitStatus: input.visitStatus ?? "BOOKED" },
      // Today as the server's clock tells it (decision 191: sites share the server's time zone).
      { today: toIsoDate(new Date()), startDate: starts[0] ?? null, lplv: found.lplv ?? null },
    ),
  );
  if (Object.keys(errors).length > 0) throw validationError(errors);
  return assignments;
}

/**
 * Patient visits (spec §2.5, §3, §4 Patient visit form): a patient's records of a study's visits,
 * several per visit when it happened so (issue 43: a no-show, then the visit; Unscheduled visits).
 */
const keepSchedules = keepVisitSchedules((visit) => ({
  patientId: visit.patientId as number,
  studyId: visit.studyId as number,
}));

export const patientVisitsResource = defineResource<PatientVisitInput>({
  name: "patient-visits",
  table: patientVisits,
  validate,
  scope: patientVisitScope,
  // Never who the patient is (issue 44); searched by barcode and visit.
  monitors: {
    scope: (m) =>
      monitorSeesPatient(m, column("patient_visits", "study_id"), column("patient_visits", "patient_id")),
    hide: ["patientName"],
    search: [
      throughKey(patientVisits.patientId, patients.id, patients.barcode),
      throughKey(patientVisits.visitId, visits.id, visits.name),
    ],
  },
  sort: {
    patientVisitId: patientVisits.id,
    id: patientVisits.id,
    screenNumber,
    patientName: [byName(patients.lastName), byName(patients.firstName)],
    studyName: studies.workingName,
    visitName: visits.name,
    // Date, time, id: the order of patient_visits_visit_date_idx.
    visitDate: [patientVisits.visitDate, patientVisits.visitTime],
    visitStatus: patientVisits.visitStatus,
  },
  // The most recent visits first.
  defaultSort: "visitDate",
  defaultDirection: "desc",
  // The patient by the patient search's text (names without their accents, barcode, SSN, phones),
  // the study and the visit: each looked up first, the visits then read by their keys (decision 176).
  search: [
    throughKey(patientVisits.patientId, patients.id, foldedText(patients.searchText)),
    throughKey(patientVisits.studyId, studies.id, studies.workingName),
    throughKey(patientVisits.visitId, visits.id, visits.name),
  ],
  filters: {
    /** The active site's visits (through their patients). */
    siteId: {
      schema: idParam("Site must be a number"),
      where: (siteId: number) =>
        inArray(
          patientVisits.patientId,
          sql`(select ${patients.id} from ${patients} where ${patients.recorderSiteId} = ${siteId})`,
        ),
    },
    patientId: {
      schema: idParam("Patient must be a number"),
      where: (id: number) => eq(patientVisits.patientId, id),
    },
    studyId: {
      schema: idParam("Study must be a number"),
      where: (id: number) => eq(patientVisits.studyId, id),
    },
    /** Source verification (issue 44): one state, or (`sdv=true`) every visit there is to verify. */
    sdvStatus: {
      schema: z.enum(sdvStatusValues, { error: `Sdv status must be one of: ${sdvStatusValues.join(", ")}` }),
      where: (status: SdvStatus) => sql`${sdvStatusSql} = ${status}`,
    },
    sdv: {
      schema: booleanParam,
      where: (on: "true" | "false") => (on === "true" ? sql`${sdvStatusSql} <> 'NOT_REQUIRED'` : undefined),
    },
  },
  listFormat: "list",
  exportText: {
    visitStatus: (row) => optionLabel(visitStatuses, row.visitStatus as VisitStatus),
    sdvStatus: (row) => optionLabel(sdvStatuses, row.sdvStatus as SdvStatus),
  },
  formats: {
    view: {
      fields: {
        id: patientVisits.id,
        uuid: patientVisits.uuid,
        version: patientVisits.version,
        patientId: patientVisits.patientId,
        studyId: patientVisits.studyId,
        visitId: patientVisits.visitId,
        visitDate: patientVisits.visitDate,
        visitTime,
        visitStatus: patientVisits.visitStatus,
        visitResult: patientVisits.visitResult,
        notes: patientVisits.notes,
        patientName,
        barcode: patients.barcode,
        studyName: studies.workingName,
        visitName: visits.name,
        screenNumber,
        sdvStatus: sdvStatusSql,
        sdvVerifiedAt: sdvVerifiedAtSql,
        sdvVerifiedByName: patientVisits.sdvVerifiedByName,
        openQueries: openQueriesSql,
      },
      joins,
      // Inner joins over required references only.
      joinsKeepRows: true,
    },
    /** The source verification's rows (issue 44): what a monitor verifies, by patient barcode. */
    sdv: {
      fields: {
        patientVisitId: patientVisits.id,
        patientVisitUuid: patientVisits.uuid,
        barcode: patients.barcode,
        screenNumber,
        siteId: patients.recorderSiteId,
        studyId: patientVisits.studyId,
        studyName: studies.workingName,
        visitName: visits.name,
        visitDate: patientVisits.visitDate,
        visitStatus: patientVisits.visitStatus,
        sdvStatus: sdvStatusSql,
        sdvVerifiedAt: sdvVerifiedAtSql,
        sdvVerifiedByName: patientVisits.sdvVerifiedByName,
        openQueries: openQueriesSql,
      },
      joins,
      joinsKeepRows: true,
    },
    /** The list rows of spec §2.5; the row id is patientVisitUuid. */
    list: {
      fields: {
        patientVisitId: patientVisits.id,
        patientVisitUuid: patientVisits.uuid,
        screenNumber,
        barcode: patients.barcode,
        patientName,
        studyName: studies.workingName,
        visitName: visits.name,
        visitDate: patientVisits.visitDate,
        visitStatus: patientVisits.visitStatus,
        sdvStatus: sdvStatusSql,
      },
      joins,
      joinsKeepRows: true,
    },
  },
  toRow: async (input, { tx, user, existing, found }) => {
    // The assignments locked and read here go to the window rebuild of this save (afterChange).
    found.lockedAssignments = await checkReferences(tx, input, user);
    const row = {
      patientId: input.patientId,
      studyId: input.studyId,
      visitId: input.visitId,
      visitDate: input.visitDate || null,
      visitTime: input.visitTime || null,
      // A visit recorded without a status is a booking.
      visitStatus: input.visitStatus ?? "BOOKED",
      visitResult: input.visitResult ?? null,
      notes: input.notes?.trim() ? input.notes : null,
    };
    // A verified visit whose verified data change needs verifying again (issue 44).
    const reopens = existing?.sdvVerifiedAt != null && reopensVerification(existing, row);
    return reopens ? { ...row, sdvReopened: true } : row;
  },
  // The patient's windows in the study follow its recorded visits (both studies when one moved); what
  // they are computed from is read in the visit's own write statement.
  readWithWrite: { ...windowInputsBeforeWrite, ...earningInputsBeforeWrite },
  afterChange: async (tx, before, after, alongside, change, found) => {
    const locked = found.lockedAssignments as LockedAssignments | undefined;
    const writes = await keepSchedules(tx, before, after, alongside, change, locked);
    // A completed plan visit earns its fee; un-completed, its earning goes (issue 45).
    const earned = await keepEarnings(tx, before, after, alongside);
    return [...(writes ?? []), ...earned];
  },
});
