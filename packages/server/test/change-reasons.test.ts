import type { AuditEvent, ResourceName } from "@trialdesk/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createPatient,
  createPatientVisit,
  createStudy,
  createStudyPatient,
  createTherapyCategory,
  createVisit,
  patientInput,
  patientVisitInput,
  studyPatientInput,
} from "../src/seed/factories";
import { databaseKinds, type Session, startApp, type TestApp, twoSites, withReason } from "./helpers";
import { setUpProject } from "./study-setup";

type Stored = Record<string, unknown> & { uuid: string; version: number };

/**
 * A reason for every change of recorded clinical data (issue 46, point 1): an edit or deletion of a
 * patient, a study assignment or a recorded patient visit without one is refused; creating one, and
 * changing anything else, needs none; the history keeps it.
 */
describe.each(databaseKinds)("reasons for changes of recorded clinical data on %s", (kind) => {
  let t: TestApp;
  let admin: Session;
  let staffA: Session;
  let siteA: { id: number };
  let study: { id: number };
  let visitIds: number[];

  beforeAll(async () => {
    t = await startApp(kind);
    ({ siteA, admin, staffA } = await twoSites(t));
    const project = await setUpProject(t, "REASON-001");
    study = await createStudy(t.database.db, project as never);
    visitIds = [
      (await createVisit(t.database.db, study.id, { name: "Screening" })).id,
      (await createVisit(t.database.db, study.id, { name: "Week 4" })).id,
    ];
  });
  afterAll(() => t.close());

  const read = async (resource: ResourceName, uuid: string) =>
    (await t.request<Stored>({ method: "GET", url: `/api/${resource}/${uuid}`, session: staffA })).body.data;
  const put = (resource: ResourceName, record: Stored, headers: Record<string, string> = {}) =>
    t.request<Stored>({
      method: "PUT",
      url: `/api/${resource}/${record.uuid}`,
      session: staffA,
      payload: record,
      headers,
    });
  const remove = (resource: ResourceName, uuid: string, headers: Record<string, string> = {}) =>
    t.request({ method: "DELETE", url: `/api/${resource}/${uuid}`, session: staffA, headers });
  const history = async (resource: ResourceName, uuid: string) =>
    (
      await t.request<{ items: AuditEvent[] }>({
        method: "GET",
        url: `/api/audit?resource=${resource}&uuid=${uuid}`,
        session: staffA,
      })
    ).body.data.items;

  /** A patient of site A assigned to the study, with a completed Screening: one record of each. */
  const recorded = async () => {
    const patient = await createPatient(t.database.db, siteA.id);
    const assignment = await createStudyPatient(t.database.db, { patientId: patient.id, studyId: study.id });
    const visit = await createPatientVisit(t.database.db, {
      patientId: patient.id,
      studyId: study.id,
      visitId: visitIds[0],
    });
    return { patient, assignment, visit };
  };
  /** Each resource's record, read, with one of its recorded values changed. */
  const edited = async (resource: ResourceName, uuid: string): Promise<Stored> => {
    const record = await read(resource, uuid);
    if (resource === "patients") {
      const detail = record.patientDetail as Record<string, unknown>;
      return { ...record, patientDetail: { ...detail, birthCity: "Debrecen" } };
    }
    return { ...record, notes: "Corrected from the source" };
  };

  it.each(["patients", "study-patients", "patient-visits"] as const)(
    "%s: an edit or deletion without a reason is refused with 400 and changes nothing",
    async (resource) => {
      const records = await recorded();
      const { uuid } = {
        patients: records.patient,
        "study-patients": records.assignment,
        "patient-visits": records.visit,
      }[resource];
      const before = await read(resource, uuid);
      const events = (await history(resource, uuid)).length;
      const changed = await edited(resource, uuid);
      for (const res of [
        await put(resource, changed),
        await put(resource, changed, withReason("   ")),
        await remove(resource, uuid),
      ]) {
        expect(res.status).toBe(400);
        expect(res.body.header).toMatchObject({
          errorCode: "VALIDATION_ERROR",
          errorMessage: "A reason for the change is required",
        });
      }
      expect(await read(resource, uuid)).toEqual(before);
      expect(await history(resource, uuid)).toHaveLength(events);

      // With a reason, the same edit is saved, and the history shows the reason beside old → new.
      const saved = await put(resource, changed, withReason("Transcription error"));
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
      const [update] = await history(resource, uuid);
      expect(update).toMatchObject({ action: "update", reason: "Transcription error" });
      expect(update.changes.length).toBeGreaterThan(0);
    },
  );

  it("keeps a reason's deletion in the history, and a reason typed in any language as typed", async () => {
    const { visit } = await recorded();
    const reason = "Hibás átírás – a forrás szerint ő";
    const res = await remove("patient-visits", visit.uuid, withReason(encodeURIComponent(reason)));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [deleted, created] = await history("patient-visits", visit.uuid);
    expect(deleted).toMatchObject({ action: "delete", reason });
    expect(created).toMatchObject({ action: "create", reason: null });
  });

  it("creates a patient, an assignment and a visit without a reason", async () => {
    const created = await t.request<Stored>({
      method: "POST",
      url: "/api/patients",
      session: staffA,
      payload: patientInput(siteA.id),
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const assigned = await t.request<Stored>({
      method: "POST",
      url: "/api/study-patients",
      session: staffA,
      payload: studyPatientInput({ patientId: created.body.data.id as number, studyId: study.id }),
    });
    expect(assigned.status, JSON.stringify(assigned.body)).toBe(201);
    const visit = await t.request<Stored>({
      method: "POST",
      url: "/api/patient-visits",
      session: staffA,
      payload: patientVisitInput({
        patientId: created.body.data.id as number,
        studyId: study.id,
        visitId: visitIds[0],
      }),
    });
    expect(visit.status, JSON.stringify(visit.body)).toBe(201);
  });

  it("records a booked visit for the first time, reschedules or cancels a booking without a reason (decision 229)", async () => {
    const { patient } = await recorded();
    const refs = { patientId: patient.id, studyId: study.id, visitId: visitIds[1] };
    const booking = { visitStatus: "BOOKED", visitResult: null, visitDate: "2025-05-12" } as const;
    const booked = await createPatientVisit(t.database.db, refs, booking);
    // Rescheduled, then recorded: nothing was recorded before either save.
    const moved = await put("patient-visits", {
      ...(await read("patient-visits", booked.uuid)),
      visitDate: "2025-05-13",
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const done = await put("patient-visits", {
      ...moved.body.data,
      visitStatus: "COMPLETED",
      visitResult: "OK",
    });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    // Recorded now: a correction says why.
    const corrected = await put("patient-visits", { ...done.body.data, visitDate: "2025-05-14" });
    expect(corrected.status).toBe(400);
    expect(corrected.body.header.errorMessage).toBe("A reason for the change is required");
    // Another booking is cancelled (removed) without one.
    const other = await createPatientVisit(t.database.db, refs, booking);
    expect((await remove("patient-visits", other.uuid)).status).toBe(200);
  });

  it("refuses a reason over 500 characters, never cutting it, on any resource", async () => {
    const { patient } = await recorded();
    const long = "x".repeat(501);
    const changed = await edited("patients", patient.uuid);
    const refused = await put("patients", changed, withReason(long));
    expect(refused.status).toBe(400);
    expect(refused.body.header).toMatchObject({
      errorCode: "VALIDATION_ERROR",
      errorMessage: "A reason for the change must be at most 500 characters",
    });
    expect((await read("patients", patient.uuid)).version).toBe(changed.version);
    // Reference data needs no reason, but one given too long is refused all the same.
    const category = await createTherapyCategory(t.database.db);
    const categoryUrl = `/api/therapy-categories/${category.uuid}`;
    const stored = (await t.request<Stored>({ method: "GET", url: categoryUrl, session: admin })).body.data;
    const tooLong = await t.request({
      method: "PUT",
      url: categoryUrl,
      session: admin,
      payload: { ...stored, name: `${stored.name} (renamed)` },
      headers: withReason(long),
    });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.header.errorMessage).toBe("A reason for the change must be at most 500 characters");
    // 500 characters are kept whole.
    const whole = "y".repeat(500);
    expect((await put("patients", changed, withReason(whole))).status).toBe(200);
    const [update] = await history("patients", patient.uuid);
    expect(update.reason).toBe(whole);
  });

  it("lets other records be changed and deleted without a reason (therapy categories)", async () => {
    const category = await createTherapyCategory(t.database.db);
    const url = `/api/therapy-categories/${category.uuid}`;
    const stored = (await t.request<Stored>({ method: "GET", url, session: admin })).body.data;
    const saved = await t.request({
      method: "PUT",
      url,
      session: admin,
      payload: { ...stored, name: `${stored.name} (renamed)` },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect((await t.request({ method: "DELETE", url, session: admin })).status).toBe(200);
  });
});
