import {
  automaticDeviationText,
  type DerivedDeviation,
  type DeviationStatus,
  newUuid,
  toIsoDate,
} from "@trialdesk/domain";
import { sql } from "drizzle-orm";
import { type ChangeContext, diff } from "../../audit/audit";
import { auditEvents } from "../../audit/audit.table";
import { type Db, queryRows, type Tx } from "../../db/client";
import { intArray } from "../resource-query";
import { protocolDeviations } from "./protocol-deviations.table";

/**
 * Keeps the automatic protocol deviations (issue 43) equal to what the window engine derives
 * (derivedDeviations), in the transaction of the write that changed the engine's inputs: a visit
 * saved, re-dated or deleted, an assignment closed, a studyplan changed. The assignments are locked
 * by then (visit-schedule.ts), so two writes of one assignment take turns; the partial unique index
 * keeps one per assignment, visit and kind whatever happens. Nothing is deleted: a deviation whose
 * cause went away is withdrawn while OPEN, else marked as no longer applying.
 */

/** An automatic deviation as stored, as far as keeping it needs. */
export type StoredDeviation = {
  id: number;
  uuid: string;
  version: number;
  studyPatientId: number;
  visitId: number;
  kind: DerivedDeviation["kind"];
  status: DeviationStatus;
  daysOutside: number | null;
  patientVisitId: number | null;
  description: string;
  noLongerApplies: boolean;
  siteId: number;
};

/** The assignment a set of derived deviations belongs to. */
export type DeviationOwner = { id: number; patientId: number; studyId: number; siteId: number };

/** The stored automatic deviations of some assignments, as one JSON array (read beside other reads). */
export const storedDeviationsSql = (studyPatientIds: readonly number[]) =>
  sql`select d.id, d.uuid, d.version, d.study_patient_id as "studyPatientId", d.visit_id as "visitId", d.kind,
      d.status, d.days_outside as "daysOutside", d.patient_visit_id as "patientVisitId", d.description,
      d.no_longer_applies as "noLongerApplies", d.site_id as "siteId"
    from protocol_deviations d
    where d.source = 'AUTOMATIC' and d.study_patient_id = any(${intArray(studyPatientIds)}::int[])`;

export async function storedDeviationsOf(db: Db | Tx, studyPatientIds: readonly number[]) {
  if (studyPatientIds.length === 0) return [];
  return queryRows<StoredDeviation>(db, storedDeviationsSql(studyPatientIds));
}

const keyOf = (studyPatientId: number, visitId: number, kind: string) =>
  `${studyPatientId}/${visitId}/${kind}`;

/** Whether two derivations of one assignment differ in what a stored deviation keeps. */
export function sameDerivations(a: readonly DerivedDeviation[], b: readonly DerivedDeviation[]): boolean {
  if (a.length !== b.length) return false;
  const text = (d: DerivedDeviation) => `${d.visitId}/${d.kind}/${d.daysOutside}/${d.patientVisitId}`;
  const left = new Set(a.map(text));
  return b.every((d) => left.has(text(d)));
}

/** A text Trialdesk wrote (not one staff rewrote), so it may be written anew when the days change. */
const writtenByTrialdesk = /^Visit (completed \d+ days? (before|after) its window|missed: its window)/;

/** The audit trail names who changed a deviation by itself, and why. */
const byTrialdesk = (change: ChangeContext) =>
  change.userName ? `Trialdesk (after ${change.userName}'s change)` : "Trialdesk";

/** Rows a statement writes at most: a start that rebuilds a large database writes many. */
const chunk = 1_000;
const chunks = <T>(rows: T[]) =>
  Array.from({ length: Math.ceil(rows.length / chunk) }, (_, i) => rows.slice(i * chunk, (i + 1) * chunk));

type Update = {
  existing: StoredDeviation;
  next: Partial<
    Pick<StoredDeviation, "status" | "daysOutside" | "patientVisitId" | "description" | "noLongerApplies">
  >;
  reason: string;
};

/**
 * Writes what turns the stored automatic deviations of `owners` into the derived ones, each change
 * with its audit row: inserts, then updates, then their audit rows, each a statement of many rows
 * (nothing at all for a save that changes no deviation, the usual case).
 */
export async function keepAutomaticDeviations(
  tx: Tx | Db,
  owners: readonly DeviationOwner[],
  derived: ReadonlyMap<number, readonly DerivedDeviation[]>,
  stored: readonly StoredDeviation[],
  change: ChangeContext,
): Promise<void> {
  const today = toIsoDate(new Date());
  const storedByKey = new Map(stored.map((d) => [keyOf(d.studyPatientId, d.visitId, d.kind), d]));
  const inserts: (typeof protocolDeviations.$inferInsert)[] = [];
  const updates: Update[] = [];
  for (const owner of owners) {
    for (const deviation of derived.get(owner.id) ?? []) {
      const key = keyOf(owner.id, deviation.visitId, deviation.kind);
      const existing = storedByKey.get(key);
      storedByKey.delete(key);
      const description = automaticDeviationText(deviation.kind, deviation.daysOutside, deviation);
      if (!existing) {
        inserts.push({
          uuid: newUuid("protocol-deviations"),
          siteId: owner.siteId,
          patientId: owner.patientId,
          studyId: owner.studyId,
          studyPatientId: owner.id,
          visitId: deviation.visitId,
          patientVisitId: deviation.patientVisitId,
          kind: deviation.kind,
          source: "AUTOMATIC",
          detectedOn: today,
          daysOutside: deviation.daysOutside,
          description,
          severity: "MINOR",
          status: "OPEN",
        });
        continue;
      }
      const next: Update["next"] = {};
      let reason = "Updated by Trialdesk from the visit windows";
      if (existing.status === "WITHDRAWN" || existing.noLongerApplies) reason = "Its cause applies again";
      if (existing.status === "WITHDRAWN") next.status = "OPEN";
      if (existing.noLongerApplies) next.noLongerApplies = false;
      if (existing.daysOutside !== deviation.daysOutside) next.daysOutside = deviation.daysOutside;
      if (existing.patientVisitId !== deviation.patientVisitId)
        next.patientVisitId = deviation.patientVisitId;
      if (existing.description !== description && writtenByTrialdesk.test(existing.description))
        next.description = description;
      if (Object.keys(next).length > 0) updates.push({ existing, next, reason });
    }
  }
  // What is stored and no longer derived: its cause went away.
  for (const existing of storedByKey.values()) {
    if (existing.status === "OPEN")
      updates.push({
        existing,
        next: { status: "WITHDRAWN" },
        reason:
          "Withdrawn by Trialdesk: its cause went away (the visit is no longer outside its window or missed)",
      });
    else if (existing.status !== "WITHDRAWN" && !existing.noLongerApplies)
      updates.push({
        existing,
        next: { noLongerApplies: true },
        reason: "No longer applies: its cause went away after it was reported",
      });
  }
  const audit: (typeof auditEvents.$inferInsert)[] = [];
  const auditRow = (
    uuid: string,
    siteId: number,
    action: "create" | "update",
    changes: unknown,
    reason: string,
  ) =>
    audit.push({
      userId: change.userId,
      userName: byTrialdesk(change),
      requestId: change.requestId,
      resource: "protocol-deviations",
      uuid,
      action,
      changes,
      reason,
      siteId,
    });
  for (const rows of chunks(inserts)) {
    // Another write of the same assignment cannot get here first (its assignment is locked), but the
    // unique index decides, not this code.
    const written = await tx.insert(protocolDeviations).values(rows).onConflictDoNothing().returning();
    for (const row of written)
      auditRow(
        row.uuid,
        row.siteId,
        "create",
        diff(null, row),
        "Recorded by Trialdesk from the visit windows",
      );
  }
  for (const batch of chunks(updates)) {
    await queryRows(
      tx,
      sql`update protocol_deviations d set
          status = coalesce(r.status, d.status),
          no_longer_applies = coalesce(r."noLongerApplies", d.no_longer_applies),
          days_outside = case when r."setDays" then r."daysOutside" else d.days_outside end,
          patient_visit_id = case when r."setVisit" then r."patientVisitId" else d.patient_visit_id end,
          description = coalesce(r.description, d.description),
          version = d.version + 1, updated_at = now()
        from json_to_recordset(${JSON.stringify(
          batch.map(({ existing, next }) => ({
            id: existing.id,
            status: next.status ?? null,
            noLongerApplies: next.noLongerApplies ?? null,
            setDays: "daysOutside" in next,
            daysOutside: next.daysOutside ?? null,
            setVisit: "patientVisitId" in next,
            patientVisitId: next.patientVisitId ?? null,
            description: next.description ?? null,
          })),
        )}::json) as r(id int, status varchar, "noLongerApplies" boolean, "setDays" boolean,
          "daysOutside" int, "setVisit" boolean, "patientVisitId" int, description varchar)
        where d.id = r.id`,
    );
    for (const { existing, next, reason } of batch) {
      const before = Object.fromEntries(
        Object.keys(next).map((k) => [k, existing[k as keyof StoredDeviation]]),
      );
      auditRow(existing.uuid, existing.siteId, "update", diff(before, next), reason);
    }
  }
  for (const rows of chunks(audit)) await tx.insert(auditEvents).values(rows);
}
