import {
  alreadyAssignedMessage,
  assignmentUsedByVisitsMessage,
  blankToNull,
  patientName,
  type StudyPatientInput,
  toIsoDate,
} from "@trialdesk/domain";
import { and, eq, inArray, type SQL, type SQLWrapper, sql } from "drizzle-orm";
import { alias, type PgColumn } from "drizzle-orm/pg-core";
import type { SessionUser } from "../../auth/guards";
import { holds, queryRows, type Tx } from "../../db/client";
import { conflict, validationError } from "../../http/errors";
import { column, monitorSeesPatient } from "../monitor-assignments/monitor-scope";
import { flagFilter, idParam } from "../params";
import { patientVisits } from "../patient-visits/patient-visits.table";
import { patientScope } from "../patients/patients.resource";
import { patients } from "../patients/patients.table";
import { projects } from "../projects/projects.table";
import { byName, defineResource, foldedText, throughKey } from "../resource";
import type { Row } from "../resource-definition";
import { studies } from "../studies/studies.table";
import { users } from "../users/users.table";
import { keepVisitSchedules } from "../visit-schedule/visit-schedule";
import { resampleSdv } from "./sdv-sample";
import { studyPatients } from "./study-patients.table";

/**
 * Assignments follow their patient's site (design §4): staff see and change only the assignments of
 * their sites' patients, administrators all. A subquery keeps the scope on the base table.
 */
export function studyPatientScope(user: SessionUser | null): SQL | undefined {
  if (user?.isAdmin) return undefined;
  return inArray(
    studyPatients.patientId,
    sql`(select ${patients.id} from ${patients} where ${patientScope(user)})`,
  );
}

/** A patient id the user may assign; anything else reads like a patient that does not exist. */
export const patientNotFoundMessage = "Patient does not exist";

const startedByUser = alias(users, "started_by_user");
const closedByUser = alias(users, "closed_by_user");
const nameOf = (user: { firstName: PgColumn; lastName: PgColumn }) =>
  sql<string | null>`nullif(trim(concat_ws(' ', ${user.firstName}, ${user.lastName})), '')`;

const id = idParam();

/** The samples of the studies and sites these assignments (before and after a write) belong to. */
async function resampleAssignments(tx: Tx, assignments: (Row | null)[]) {
  const pairs = await queryRows<{ studyId: number; siteId: number }>(
    tx,
    sql`select distinct a.study_id as "studyId", p.recorder_site_id as "siteId"
      from (values ${sql.join(
        assignments
          .filter((a) => a !== null)
          .map((a) => sql`(${a.studyId as number}::int, ${a.patientId as number}::int)`),
        sql`, `,
      )}) as a(study_id, patient_id)
      join ${patients} p on p.id = a.patient_id order by 1, 2`,
  );
  // In one order, so two writes that touch the same two samples take their locks alike.
  const sampled = new Set<number>();
  for (const { studyId, siteId } of pairs)
    for (const id of await resampleSdv(tx, studyId, siteId)) sampled.add(id);
  return sampled;
}

/**
 * Whether the assignment's patient has visits recorded in its study: they need it, so it is neither
 * removed nor moved to another patient or study. The view answers it (the form shows both as fixed);
 * a save asks it again after the assignment is locked: a visit's save locks it too (decision 151), so
 * a visit saved at the same moment is seen.
 */
const visitsRecorded = (patientId: SQLWrapper, studyId: SQLWrapper) =>
  sql<boolean>`exists(select 1 from ${patientVisits}
    where ${patientVisits.patientId} = ${patientId} and ${patientVisits.studyId} = ${studyId})`;

const hasVisits = (tx: Tx, assignment: Row) =>
  holds(tx, visitsRecorded(sql`${assignment.patientId as number}`, sql`${assignment.studyId as number}`));

export const screenNrUsedMessage = "Screen number is already used in this study";
export const randomNrUsedMessage = "Random number is already used in this study";

type NumberColumn = "screenNr" | "randomNr";
const numberColumns = { screenNr: studyPatients.screenNr, randomNr: studyPatients.randomNr } as const;
const numberUsedMessages = { screenNr: screenNrUsedMessage, randomNr: randomNrUsedMessage } as const;

/**
 * A screen number, and a random number when given, belongs to one patient in a study (issue 46): the
 * patient's own earlier assignment (closed, then assigned again) may keep it, another patient's may
 * not. No index can say "another patient", so saves of one number in one study take turns on an
 * advisory lock (any process, decision 179) and each reads, after it holds the lock, what the others
 * committed. Compared trimmed (toRow trims) and in any case. A save that keeps its study, patient and
 * number is not asked again, so a duplicate made before this rule does not block the record's other
 * changes (decision 211). Screen number before random number, in every save: the same order of locks.
 */
async function checkNumbers(
  tx: Tx,
  row: { studyId: number; patientId: number; screenNr: string | null; randomNr: string | null },
  existing: Row | null,
) {
  for (const field of ["screenNr", "randomNr"] as NumberColumn[]) {
    const value = row[field];
    if (value === null) continue;
    const kept =
      existing !== null &&
      existing.studyId === row.studyId &&
      existing.patientId === row.patientId &&
      typeof existing[field] === "string" &&
      (existing[field] as string).toLowerCase() === value.toLowerCase();
    if (kept) continue;
    const folded = sql`lower(${value}::text)`;
    await tx.execute(
      sql`select pg_advisory_xact_lock(hashtextextended(${`study_patients ${field} `}::text || ${row.studyId}::text || ' ' || ${folded}, 0))`,
    );
    const column = numberColumns[field];
    const used = await holds(
      tx,
      sql`exists(select 1 from ${studyPatients} where ${studyPatients.studyId} = ${row.studyId}::int
        and lower(${column}) = ${folded} and ${studyPatients.patientId} <> ${row.patientId}::int
        and ${studyPatients.id} is distinct from ${(existing?.id as number | undefined) ?? null}::int)`,
    );
    if (used) throw validationError({ [field]: numberUsedMessages[field] });
  }
}

/**
 * Study-patients (spec §2.5, §3, §4, §5): a patient's assignment to a study, active or closed with a
 * reason. The server records who started it, and who closed it and when; reopening clears those.
 * One view serves the list, the record and the `pid` lookup of spec §7.
 */
export const studyPatientsResource = defineResource<StudyPatientInput>({
  name: "study-patients",
  table: studyPatients,
  scope: studyPatientScope,
  // Never who the patient is, nor staff's notes and names (issue 44).
  monitors: {
    scope: (m) =>
      monitorSeesPatient(m, column("study_patients", "study_id"), column("study_patients", "patient_id")),
    hide: [
      "firstName",
      "lastName",
      "patientName",
      "notes",
      "startedBy",
      "startedByName",
      "closedBy",
      "closedByName",
    ],
    search: [
      throughKey(studyPatients.patientId, patients.id, patients.barcode),
      studyPatients.screenNr,
      studyPatients.randomNr,
    ],
  },
  sort: {
    id: studyPatients.id,
    barcode: patients.barcode,
    patientName: [byName(patients.lastName), byName(patients.firstName)],
    projectInternalCode: projects.internalCode,
    studyWorkingName: studies.workingName,
    screenNr: studyPatients.screenNr,
    randomNr: studyPatients.randomNr,
    startDate: studyPatients.startDate,
    active: studyPatients.active,
  },
  // By word: every word in the patient search's text (names without their accents, barcode, SSN,
  // phones), looked up first and the assignments read by patient (decision 176), or the screen or
  // random number.
  search: [
    throughKey(studyPatients.patientId, patients.id, foldedText(patients.searchText)),
    studyPatients.screenNr,
    studyPatients.randomNr,
  ],
  searchByWord: true,
  filters: {
    /** A patient's assignments: the lookup of spec §7 (GET study-patients?pid={patientId}). */
    pid: { schema: id, where: (patientId: number) => eq(studyPatients.patientId, patientId) },
    studyId: { schema: id, where: (studyId: number) => eq(studyPatients.studyId, studyId) },
    /** The active site's assignments (the list screens work in one site, like the patients'). */
    // A subquery on the base table, so the list counts and pages without joining.
    siteId: {
      schema: id,
      where: (siteId: number) =>
        inArray(
          studyPatients.patientId,
          sql`(select ${patients.id} from ${patients} where ${patients.recorderSiteId} = ${siteId})`,
        ),
    },
    active: flagFilter(studyPatients.active),
  },
  exportText: {
    patientName: (row) => patientName(row.lastName as string, row.firstName as string),
    active: (row) => (row.active === false ? "Closed" : "Active"),
  },
  formats: {
    view: {
      fields: {
        id: studyPatients.id,
        uuid: studyPatients.uuid,
        version: studyPatients.version,
        studyId: studyPatients.studyId,
        patientId: studyPatients.patientId,
        screenNr: studyPatients.screenNr,
        randomNr: studyPatients.randomNr,
        active: studyPatients.active,
        startDate: studyPatients.startDate,
        startedBy: studyPatients.startedBy,
        closeDate: studyPatients.closeDate,
        closeReason: studyPatients.closeReason,
        closedBy: studyPatients.closedBy,
        notes: studyPatients.notes,
        barcode: patients.barcode,
        firstName: patients.firstName,
        lastName: patients.lastName,
        projectInternalCode: projects.internalCode,
        studyWorkingName: studies.workingName,
        studyUuid: studies.uuid,
        startedByName: nameOf(startedByUser),
        closedByName: nameOf(closedByUser),
        hasVisits: visitsRecorded(studyPatients.patientId, studyPatients.studyId),
        sdvSelected: studyPatients.sdvSelected,
      },
      joins: (query) =>
        query
          .innerJoin(patients, eq(patients.id, studyPatients.patientId))
          .innerJoin(studies, eq(studies.id, studyPatients.studyId))
          .innerJoin(projects, eq(projects.id, studies.projectId))
          .leftJoin(startedByUser, eq(startedByUser.id, studyPatients.startedBy))
          .leftJoin(closedByUser, eq(closedByUser.id, studyPatients.closedBy)),
      // Required references and to-one lookups only.
      joinsKeepRows: true,
    },
  },
  toRow: async (input, { tx, user, existing }) => {
    // The patient must be one the user may see: another site's reads like a missing one (no leak).
    const [patient] = await tx
      .select({ id: patients.id })
      .from(patients)
      .where(and(eq(patients.id, input.patientId as number), patientScope(user)));
    if (!patient) throw validationError({ patientId: patientNotFoundMessage });
    // Moving it to another patient or study would take it from the visits recorded under it.
    const moved =
      existing &&
      (input.studyId !== existing.studyId
        ? "studyId"
        : input.patientId !== existing.patientId
          ? "patientId"
          : null);
    if (existing && moved && (await hasVisits(tx, existing)))
      throw validationError({ [moved]: assignmentUsedByVisitsMessage });

    const screenNr = blankToNull(input.screenNr?.trim());
    const randomNr = blankToNull(input.randomNr?.trim());
    await checkNumbers(
      tx,
      { studyId: input.studyId as number, patientId: input.patientId as number, screenNr, randomNr },
      existing,
    );

    const active = input.active !== false;
    const wasActive = existing ? existing.active === true : true;
    const closing = !active && wasActive;
    return {
      studyId: input.studyId,
      patientId: input.patientId,
      screenNr,
      randomNr,
      active,
      startDate: input.startDate ?? null,
      notes: blankToNull(input.notes?.trim()),
      // Who started it is recorded once, by the server.
      ...(existing ? {} : { startedBy: user?.id ?? null }),
      // Closing records who and when (a given close date is kept); reopening clears them.
      closeReason: active ? null : input.closeReason,
      closeDate: active
        ? null
        : (input.closeDate ?? (existing?.closeDate as string | null) ?? toIsoDate(new Date())),
      closedBy: active ? null : closing ? (user?.id ?? null) : (existing?.closedBy ?? null),
    };
  },
  // An assignment whose patient has visits in the study stays: the visits need it.
  // Start date, closing and reopening move the assignment's windows (a deleted one's rows cascade).
  // Every assignment write recomputes the verification sample of its study and site (issue 44).
  afterChange: async (tx, before, after, _alongside, change) => {
    const sampled = await resampleAssignments(tx, [before, after]);
    // The answer was read with the write, before the sample was: it tells the sample as it now is.
    if (after) after.sdvSelected = sampled.has(after.id as number);
    return keepVisitSchedules((assignment) => ({ studyPatientIds: [assignment.id as number] }))(
      tx,
      null,
      after,
      undefined,
      change,
    );
  },
  beforeDelete: async (_id, { tx, existing }) => {
    if (await hasVisits(tx, existing as Row)) throw conflict("Study patient is still used by patient visits");
  },
  unique: {
    study_patients_active_study_id_patient_id_unique: { field: "studyId", message: alreadyAssignedMessage },
  },
});
