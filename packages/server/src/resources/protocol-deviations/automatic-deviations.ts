import {
  automaticDeviationText,
  type DerivedDeviation,
  type DeviationStatus,
  newUuid,
  toIsoDate,
} from "@trialdesk/domain";
import { sql } from "drizzle-orm";
import { type ChangeContext, diff, recordAudit } from "../../audit/audit";
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
};

/** The assignment a set of derived deviations belongs to. */
export type DeviationOwner = { id: number; patientId: number; studyId: number; siteId: number };

/** The stored automatic deviations of some assignments, as one JSON array (read beside other reads). */
export const storedDeviationsSql = (studyPatientIds: readonly number[]) =>
  sql`select d.id, d.uuid, d.version, d.study_patient_id as "studyPatientId", d.visit_id as "visitId", d.kind,
      d.status, d.days_outside as "daysOutside", d.patient_visit_id as "patientVisitId", d.description,
      d.no_longer_applies as "noLongerApplies"
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
const automatic = (change: ChangeContext, reason: string): ChangeContext => ({
  ...change,
  userName: change.userName ? `Trialdesk (after ${change.userName}'s change)` : "Trialdesk",
  reason,
});

/**
 * Writes what turns the stored automatic deviations of `owners` into the derived ones, each change
 * with its audit row. Rare (a save that changes no deviation writes nothing), so plain statements.
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
  for (const owner of owners) {
    for (const deviation of derived.get(owner.id) ?? []) {
      const key = keyOf(owner.id, deviation.visitId, deviation.kind);
      const existing = storedByKey.get(key);
      storedByKey.delete(key);
      const description = automaticDeviationText(deviation.kind, deviation.daysOutside, deviation);
      if (!existing) {
        const uuid = newUuid("protocol-deviations");
        const [row] = await tx
          .insert(protocolDeviations)
          .values({
            uuid,
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
          })
          // Another write of the same assignment cannot get here first (the assignment is locked),
          // but the index decides, not this code.
          .onConflictDoNothing()
          .returning();
        if (row)
          await recordAudit(tx, automatic(change, "Recorded by Trialdesk from the visit windows"), {
            resource: "protocol-deviations",
            uuid,
            action: "create",
            changes: diff(null, row),
          });
        continue;
      }
      const next: Partial<StoredDeviation> = {};
      let reason = "Updated by Trialdesk from the visit windows";
      if (existing.status === "WITHDRAWN") {
        next.status = "OPEN";
        reason = "Its cause applies again";
      }
      if (existing.noLongerApplies) {
        next.noLongerApplies = false;
        reason = "Its cause applies again";
      }
      if (existing.daysOutside !== deviation.daysOutside) next.daysOutside = deviation.daysOutside;
      if (existing.patientVisitId !== deviation.patientVisitId)
        next.patientVisitId = deviation.patientVisitId;
      if (existing.description !== description && writtenByTrialdesk.test(existing.description))
        next.description = description;
      await update(tx, existing, next, automatic(change, reason));
    }
  }
  // What is stored and no longer derived: its cause went away.
  for (const existing of storedByKey.values()) {
    if (existing.status === "OPEN")
      await update(
        tx,
        existing,
        { status: "WITHDRAWN" },
        automatic(
          change,
          "Withdrawn by Trialdesk: its cause went away (the visit is no longer outside its window or missed)",
        ),
      );
    else if (existing.status !== "WITHDRAWN" && !existing.noLongerApplies)
      await update(
        tx,
        existing,
        { noLongerApplies: true },
        automatic(change, "No longer applies: its cause went away after it was reported"),
      );
  }
}

async function update(
  tx: Tx | Db,
  existing: StoredDeviation,
  next: Partial<StoredDeviation>,
  change: ChangeContext,
) {
  const changes = diff(
    Object.fromEntries(Object.keys(next).map((k) => [k, existing[k as keyof StoredDeviation]])),
    next,
  );
  if (changes.length === 0) return;
  await tx
    .update(protocolDeviations)
    .set({ ...next, version: sql`${protocolDeviations.version} + 1`, updatedAt: new Date() })
    .where(sql`${protocolDeviations.id} = ${existing.id}`);
  await recordAudit(tx, change, {
    resource: "protocol-deviations",
    uuid: existing.uuid,
    action: "update",
    changes,
  });
}
