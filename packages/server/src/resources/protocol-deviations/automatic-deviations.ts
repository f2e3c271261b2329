import {
  automaticDeviationText,
  type DerivedDeviation,
  type DeviationStatus,
  newUuid,
  toIsoDate,
} from "@trialdesk/domain";
import { type SQL, sql } from "drizzle-orm";
import { type ChangeContext, diff } from "../../audit/audit";
import type { Write } from "../../db/client";
import type { protocolDeviations } from "./protocol-deviations.table";

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

/** The stored automatic deviations `where` names (alias d), for a read beside others. */
export const storedDeviationsSql = (where: SQL) =>
  sql`select d.id, d.uuid, d.version, d.study_patient_id as "studyPatientId", d.visit_id as "visitId", d.kind,
      d.status, d.days_outside as "daysOutside", d.patient_visit_id as "patientVisitId", d.description,
      d.no_longer_applies as "noLongerApplies", d.site_id as "siteId"
    from "public"."protocol_deviations" d
    where d.source = 'AUTOMATIC' and ${where}`;

const keyOf = (studyPatientId: number, visitId: number, kind: string) =>
  `${studyPatientId}/${visitId}/${kind}`;

/** A text Trialdesk wrote (not one staff rewrote), so it may be written anew when the days change. */
const writtenByTrialdesk = /^Visit (completed \d+ days? (before|after) its window|missed: its window)/;

/** The audit trail names who changed a deviation by itself, and why. */
const byTrialdesk = (change: ChangeContext) =>
  change.userName ? `Trialdesk (after ${change.userName}'s change)` : "Trialdesk";

type Update = {
  existing: StoredDeviation;
  next: Partial<
    Pick<StoredDeviation, "status" | "daysOutside" | "patientVisitId" | "description" | "noLongerApplies">
  >;
  reason: string;
};

/** The key of an assignment's visit in the set of those with an open automatic deviation. */
export const openKey = (studyPatientId: number, visitId: number) => `${studyPatientId}/${visitId}`;

/** The assignments' visits whose automatic deviation is open, as stored. */
export const openAsStored = (stored: readonly StoredDeviation[]) =>
  new Set(stored.filter((d) => d.status === "OPEN").map((d) => openKey(d.studyPatientId, d.visitId)));

/**
 * What turns the stored automatic deviations of `owners` into the derived ones: the writes, each
 * change with its audit row, left to the caller to run with its own last statement (writeTogether:
 * no round trip of their own, and nothing at all for a save that changes no deviation, the usual
 * case), and the visits whose automatic deviation is open afterwards (the worklist's "Deviations open").
 */
export function deviationWrites(
  owners: readonly DeviationOwner[],
  derived: ReadonlyMap<number, readonly DerivedDeviation[]>,
  stored: readonly StoredDeviation[],
  change: ChangeContext,
): { writes: Write[]; open: Set<string> } {
  const today = toIsoDate(new Date());
  const storedByKey = new Map(stored.map((d) => [keyOf(d.studyPatientId, d.visitId, d.kind), d]));
  const inserts: (typeof protocolDeviations.$inferInsert)[] = [];
  const updates: Update[] = [];
  const open = new Set<string>();
  for (const owner of owners) {
    for (const deviation of derived.get(owner.id) ?? []) {
      const key = keyOf(owner.id, deviation.visitId, deviation.kind);
      const existing = storedByKey.get(key);
      storedByKey.delete(key);
      const description = automaticDeviationText(deviation.kind, deviation.daysOutside, deviation);
      if (!existing || existing.status === "WITHDRAWN" || existing.status === "OPEN")
        open.add(openKey(owner.id, deviation.visitId));
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
  const audit: AuditRow[] = [];
  const auditRow = (
    uuid: string,
    siteId: number,
    action: "create" | "update",
    changes: unknown,
    reason: string,
  ) => audit.push({ uuid, siteId, action, changes: JSON.stringify(changes), reason });
  for (const row of inserts)
    auditRow(row.uuid, row.siteId, "create", diff(null, row), "Recorded by Trialdesk from the visit windows");
  for (const { existing, next, reason } of updates) {
    const before = Object.fromEntries(
      Object.keys(next).map((k) => [k, existing[k as keyof StoredDeviation]]),
    );
    auditRow(existing.uuid, existing.siteId, "update", diff(before, next), reason);
  }
  const writes: Write[] = [];
  if (inserts.length > 0)
    writes.push({
      key: "insert protocol_deviations",
      build: (
        value,
      ) => sql`insert into protocol_deviations (uuid, site_id, patient_id, study_id, study_patient_id,
          visit_id, patient_visit_id, kind, source, detected_on, days_outside, description, severity, status)
        select r.uuid, r."siteId", r."patientId", r."studyId", r."studyPatientId", r."visitId", r."patientVisitId",
          r.kind, r.source, r."detectedOn", r."daysOutside", r.description, r.severity, r.status
        from json_to_recordset(${value("rows")}::json) as r(uuid varchar, "siteId" int, "patientId" int,
          "studyId" int, "studyPatientId" int, "visitId" int, "patientVisitId" int, kind varchar, source varchar,
          "detectedOn" date, "daysOutside" int, description varchar, severity varchar, status varchar)`,
      values: { rows: JSON.stringify(inserts) },
    });
  if (updates.length > 0)
    writes.push({
      key: "update protocol_deviations",
      build: (value) => sql`update protocol_deviations d set
          status = coalesce(r.status, d.status),
          no_longer_applies = coalesce(r."noLongerApplies", d.no_longer_applies),
          days_outside = case when r."setDays" then r."daysOutside" else d.days_outside end,
          patient_visit_id = case when r."setVisit" then r."patientVisitId" else d.patient_visit_id end,
          description = coalesce(r.description, d.description),
          version = d.version + 1, updated_at = now()
        from json_to_recordset(${value("rows")}::json) as r(id int, status varchar, "noLongerApplies" boolean,
          "setDays" boolean, "daysOutside" int, "setVisit" boolean, "patientVisitId" int, description varchar)
        where d.id = r.id`,
      values: {
        rows: JSON.stringify(
          updates.map(({ existing, next }) => ({
            id: existing.id,
            status: next.status ?? null,
            noLongerApplies: next.noLongerApplies ?? null,
            setDays: "daysOutside" in next,
            daysOutside: next.daysOutside ?? null,
            setVisit: "patientVisitId" in next,
            patientVisitId: next.patientVisitId ?? null,
            description: next.description ?? null,
          })),
        ),
      },
    });
  if (audit.length > 0)
    writes.push({
      key: "audit protocol_deviations",
      build: (value) => sql`insert into audit_events (user_id, user_name, request_id, resource, uuid, action,
          changes, reason, site_id)
        select ${value("userId")}::int, ${value("userName")}::varchar, ${value("requestId")}::varchar,
          'protocol-deviations', r.uuid, r.action, r.changes::jsonb, r.reason, r."siteId"
        from json_to_recordset(${value("rows")}::json) as r(uuid varchar, action varchar, changes text,
          reason varchar, "siteId" int)`,
      values: {
        userId: change.userId,
        userName: byTrialdesk(change),
        requestId: change.requestId,
        rows: JSON.stringify(audit),
      },
    });
  return { writes, open };
}

type AuditRow = {
  uuid: string;
  siteId: number;
  action: "create" | "update";
  changes: string;
  reason: string;
};
