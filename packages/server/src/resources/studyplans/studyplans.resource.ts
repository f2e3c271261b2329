import {
  defaultCalculationMode,
  type FieldErrors,
  feeSharesProblem,
  type StudyplanInput,
  scheduleProblem,
  studyplanStatus,
} from "@trialdesk/domain";
import { and, asc, eq, inArray, notInArray, type SQL, sql } from "drizzle-orm";
import type { Tx } from "../../db/client";
import { validationError } from "../../http/errors";
import { column, monitorSeesStudy } from "../monitor-assignments/monitor-scope";
import { projects } from "../projects/projects.table";
import { defineResource, type WriteContext } from "../resource";
import { studies } from "../studies/studies.table";
import { keepVisitSchedules } from "../visit-schedule/visit-schedule";
import { visits } from "../visits/visits.table";
import { studyplanScheduleEntries as entries, studyplans } from "./studyplans.table";
import { askAboutRecordedVisits } from "./window-changes";

type ScheduleEntry = StudyplanInput["schedule"][number];

/** The counts behind the list's status badge (spec §3 Plan counts), one correlated count each. */
const studyplanVisitCount: SQL<number> = sql`(select count(*)::int from ${entries} where ${entries.studyplanId} = ${studyplans.id})`;
const mandatoryStudyplanVisitCount: SQL<number | null> =
  sql`(select count(*)::int from ${entries} inner join ${visits} on ${visits.id} = ${entries.fromVisitId} where ${entries.studyplanId} = ${studyplans.id} and ${visits.mandatory})`;
const mandatoryVisitCount: SQL<number> = sql`(select count(*)::int from ${visits} where ${visits.studyId} = ${studies.id} and ${visits.mandatory})`;

/**
 * The plan's study: fixed once the plan exists; a new plan names it by studyUuid (spec §3) or studyId.
 * A study named that is not the plan's, or does not exist, is a field error.
 */
async function studyOf(input: StudyplanInput, { tx, existing }: WriteContext): Promise<number> {
  const byUuid = input.studyUuid
    ? (await tx.select({ id: studies.id }).from(studies).where(eq(studies.uuid, input.studyUuid)))[0]?.id
    : undefined;
  if (input.studyUuid && byUuid === undefined) throw validationError({ studyUuid: "Study does not exist" });
  const named = byUuid ?? input.studyId ?? undefined;
  if (byUuid !== undefined && typeof input.studyId === "number" && input.studyId !== byUuid)
    throw validationError({ studyId: "Study id and study uuid name different studies" });
  if (existing) {
    const own = existing.studyId as number;
    if (named !== undefined && named !== own)
      throw validationError({ studyId: "The study of a studyplan cannot be changed" });
    return own;
  }
  if (named === undefined) throw validationError({ studyId: "Study is required" });
  return named;
}

/**
 * Every visit of the schedule must be a visit of the plan's study, each once, in a consistent chain
 * (the domain's scheduleProblem): the server never trusts the editor to have rebuilt it.
 */
async function checkSchedule(tx: Tx, studyId: number, schedule: ScheduleEntry[]) {
  const problem = scheduleProblem(schedule) ?? feeSharesProblem(schedule);
  if (problem) throw validationError({ schedule: problem });
  const ids = [...new Set(schedule.map((e) => e.fromVisitId))];
  if (ids.length === 0) return;
  const own = await tx
    .select({ id: visits.id })
    .from(visits)
    .where(and(inArray(visits.id, ids), eq(visits.studyId, studyId)))
    // As the entries' foreign keys lock them anyway; a visit moving to another study is read as it ends up.
    .for("key share");
  if (own.length !== ids.length) {
    const errors: FieldErrors = { schedule: "Every studyplan visit must be a visit of the plan's study" };
    throw validationError(errors);
  }
}

/**
 * Studyplans (spec §2.5, §3, §4): a study's ordered visits with the days between them. The list
 * answers one row per study (a right join from the plans to the studies), so studies without a plan
 * show as Missing.
 */
export const studyplansResource = defineResource<StudyplanInput>({
  name: "studyplans",
  table: studyplans,
  // Every format joins the plan's study.
  monitors: {
    scope: (m) => monitorSeesStudy(m, column("studies", "id")),
    search: [studies.workingName, projects.protocolNr],
  },
  sort: {
    studyId: studies.id,
    studyName: studies.workingName,
    protocolNr: projects.protocolNr,
    id: studyplans.id,
  },
  defaultSort: "studyId",
  search: [studies.workingName, projects.protocolNr],
  // Written by administrators only, as all study setup (the registry's access; decision 226).
  listFormat: "per-study",
  // The list's rows are studies, with a plan or without.
  rowKey: studies.id,
  exportText: {
    visits: (row) =>
      `Studyplan: ${row.studyplanVisitCount} visits; Mandatory: ${row.mandatoryStudyplanVisitCount ?? 0} of ${row.mandatoryVisitCount ?? 0} planned`,
    status: (row) => studyplanStatus(row),
  },
  formats: {
    view: {
      fields: {
        id: studyplans.id,
        uuid: studyplans.uuid,
        version: studyplans.version,
        studyId: studyplans.studyId,
        calculationMode: studyplans.calculationMode,
        studyUuid: studies.uuid,
        studyName: studies.workingName,
      },
      joins: (query) =>
        query
          .innerJoin(studies, eq(studies.id, studyplans.studyId))
          .innerJoin(projects, eq(projects.id, studies.projectId)),
    },
    // The studyplans list: every study, with its plan's counts when it has one.
    "per-study": {
      fields: {
        studyId: studies.id,
        studyUuid: studies.uuid,
        studyName: studies.workingName,
        protocolNr: projects.protocolNr,
        studyplanId: studyplans.id,
        studyplanUuid: studyplans.uuid,
        studyplanVisitCount: sql<number>`coalesce(${studyplanVisitCount}, 0)`,
        mandatoryStudyplanVisitCount: sql<
          number | null
        >`case when ${studyplans.id} is null then null else ${mandatoryStudyplanVisitCount} end`,
        mandatoryVisitCount,
      },
      joins: (query) =>
        query
          .rightJoin(studies, eq(studies.id, studyplans.studyId))
          .innerJoin(projects, eq(projects.id, studies.projectId)),
    },
  },
  toRow: async (input, ctx) => {
    const studyId = await studyOf(input, ctx);
    await checkSchedule(ctx.tx, studyId, input.schedule);
    // A save that changes what recorded visits are asks first (409) unless it says it was asked
    // (decision 227); the system's own writes (demo seed, factories: no user id) are not asked.
    if (input.confirmWindowChanges !== true && ctx.user?.id != null)
      await askAboutRecordedVisits(ctx.tx, studyId, input);
    return { studyId, calculationMode: input.calculationMode ?? defaultCalculationMode };
  },
  /**
   * The schedule, written in place: an entry keeps its id while its from-visit stays in the plan
   * (so an unchanged plan saves without changes in the audit trail); the rest are added or removed.
   */
  writeChildren: async (studyplanId, input, { tx }) => {
    const wanted = [...input.schedule].sort((a, b) => a.sequence - b.sequence);
    const fromIds = wanted.map((e) => e.fromVisitId);
    await tx
      .delete(entries)
      .where(
        and(
          eq(entries.studyplanId, studyplanId),
          fromIds.length ? notInArray(entries.fromVisitId, fromIds) : undefined,
        ),
      );
    // Kept entries step out of the way first, so no two rows ever share a sequence.
    const kept = await tx
      .update(entries)
      .set({ sequence: sql`${entries.sequence} + 100000` })
      .where(eq(entries.studyplanId, studyplanId))
      .returning({ fromVisitId: entries.fromVisitId });
    const keptIds = new Set(kept.map((e) => e.fromVisitId));
    const values = (e: ScheduleEntry) => ({
      toVisitId: e.toVisitId,
      daysFromStart: e.daysFromStart,
      allowedDaysBefore: e.allowedDaysBefore,
      allowedDaysAfter: e.allowedDaysAfter,
      sequence: e.sequence,
      feeShare: e.feeShare ?? null,
    });
    for (const e of wanted.filter((e) => keptIds.has(e.fromVisitId))) {
      await tx
        .update(entries)
        .set(values(e))
        .where(and(eq(entries.studyplanId, studyplanId), eq(entries.fromVisitId, e.fromVisitId)));
    }
    const added = wanted.filter((e) => !keptIds.has(e.fromVisitId));
    if (added.length > 0)
      await tx
        .insert(entries)
        .values(added.map((e) => ({ studyplanId, fromVisitId: e.fromVisitId, ...values(e) })));
  },
  /** The plan's schedule, ordered by sequence; list rows (one per study) carry only the counts. */
  expand: async (db, records, format) => {
    if (format !== "view") return records;
    const ids = records.map((r) => r.id as number);
    const rows = await db
      .select({
        studyplanId: entries.studyplanId,
        id: entries.id,
        fromVisitId: entries.fromVisitId,
        toVisitId: entries.toVisitId,
        daysFromStart: entries.daysFromStart,
        allowedDaysBefore: entries.allowedDaysBefore,
        allowedDaysAfter: entries.allowedDaysAfter,
        sequence: entries.sequence,
        feeShare: entries.feeShare,
      })
      .from(entries)
      .where(inArray(entries.studyplanId, ids))
      .orderBy(asc(entries.studyplanId), asc(entries.sequence));
    return records.map((record) => ({
      ...record,
      schedule: rows.filter((r) => r.studyplanId === record.id).map(({ studyplanId: _, ...entry }) => entry),
    }));
  },
  // Every assignment of the study is placed anew by the changed plan.
  afterChange: (tx, before, after, alongside, change) =>
    keepVisitSchedules((plan) => ({ studyId: plan.studyId as number }))(tx, before, after, alongside, change),
  unique: {
    studyplans_study_id_unique: { field: "studyId", message: "The study already has a studyplan" },
  },
});
