import { type AuditEvent, newUuid } from "@trialdesk/domain";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resources } from "../src/app";
import { queryRows } from "../src/db/client";
import {
  createMonitor,
  createPartner,
  createPatient,
  createSite,
  createStudy,
  createStudyPatient,
  createStudyplan,
  createStudy as createStudyRow,
  createTherapyArea,
  createTherapyCategory,
  createVisit,
  defaultPassword,
  monitorAssignmentInput,
  monitorInput,
  partnerInput,
  patientInput,
  patientVisitInput,
  projectInput,
  protocolDeviationInput,
  siteInput,
  studyInput,
  studyPatientInput,
  studyplanInput,
  therapyAreaInput,
  therapyCategoryInput,
  userInput,
  visitInput,
} from "../src/seed/factories";
import { databaseKinds, type Session, startApp, type TestApp, withReason } from "./helpers";
import { setUpProject } from "./study-setup";

/** monitor: assigned to the study of the patient data today, at every site (issue 44). */
type Role = "admin" | "staffA" | "staffB" | "monitor";
/** What a role gets for a record's history: the events, none (out of its sites), or 403. */
type Outcome = "events" | "none" | 403;

describe.each(databaseKinds)("record history behind the record's access on %s", (kind) => {
  let t: TestApp;
  let sessions: Record<Role, Session>;
  let siteA: { id: number };
  const records: Record<string, string> = {};

  const post = async (resource: string, payload: object) => {
    const res = await t.request<{ uuid: string }>({
      method: "POST",
      url: `/api/${resource}`,
      session: sessions.admin,
      payload,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data.uuid;
  };
  const remove = async (resource: string, uuid: string) =>
    expect(
      (
        await t.request({
          method: "DELETE",
          url: `/api/${resource}/${uuid}`,
          session: sessions.admin,
          headers: withReason(),
        })
      ).status,
    ).toBe(200);
  const history = (role: Role, resource: string, uuid: string) =>
    t.request<{ items: AuditEvent[] }>({
      method: "GET",
      url: `/api/audit?resource=${resource}&uuid=${uuid}`,
      session: sessions[role],
    });
  const outcome = async (role: Role, resource: string, uuid: string): Promise<Outcome> => {
    const res = await history(role, resource, uuid);
    if (res.status === 403) return 403;
    expect(res.status).toBe(200);
    return res.body.data.items.length > 0 ? "events" : "none";
  };

  beforeAll(async () => {
    t = await startApp(kind);
    siteA = await createSite(t.database.db);
    const siteB = await createSite(t.database.db);
    sessions = {
      admin: await t.signedInUser({ isAdmin: true }),
      staffA: await t.signedInUser({ siteIds: [siteA.id] }),
      staffB: await t.signedInUser({ siteIds: [siteB.id] }),
    } as Record<Role, Session>;
    const project = await setUpProject(t, "AUD-TEST-001");
    const study = await createStudy(t.database.db, project as never);
    const visit = await createVisit(t.database.db, study.id);
    // A plan of one paid visit: a completed record of it earns (issue 45). Recorded for a patient of its
    // own, whose earning stays (the deletion test below deletes another patient).
    const paid = await createVisit(t.database.db, study.id);
    await createStudyplan(t.database.db, study.id, [paid.id]);
    const monitor = await createMonitor(t.database.db, {
      password: defaultPassword,
      password2: defaultPassword,
    });
    sessions.monitor = await t.signIn(monitor.email, defaultPassword);
    const today = new Date().toISOString().slice(0, 10);
    // The patients' site is one of the project's, which the assignment covers.
    await t.database.db.execute(
      sql`insert into project_sites (project_id, site_id) values (${(project as { id: number }).id}, ${siteA.id})`,
    );
    records["monitor-assignments"] = await post(
      "monitor-assignments",
      monitorAssignmentInput(
        { monitorId: monitor.id, studyId: study.id },
        { accessFrom: today, accessTo: today },
      ),
    );

    records.patients = await post("patients", patientInput(siteA.id));
    const [patient] = await queryRows<{ id: number }>(
      t.database.db,
      sql`select id from patients where uuid = ${records.patients}`,
    );
    records["study-patients"] = await post(
      "study-patients",
      studyPatientInput({ patientId: patient.id, studyId: study.id }),
    );
    records["patient-visits"] = await post(
      "patient-visits",
      patientVisitInput({ patientId: patient.id, studyId: study.id, visitId: visit.id }),
    );
    // On a visit of its own: a visit with queries is not deleted (the deletion test below deletes one).
    const queried = await createPatient(t.database.db, siteA.id);
    await createStudyPatient(t.database.db, { patientId: queried.id, studyId: study.id });
    const queriedVisit = await post(
      "patient-visits",
      patientVisitInput({ patientId: queried.id, studyId: study.id, visitId: paid.id }),
    );
    const [patientVisit] = await queryRows<{ id: number }>(
      t.database.db,
      sql`select id from patient_visits where uuid = ${queriedVisit}`,
    );
    // The earning of the visit, verified by the monitor (before its query), goes on a statement; a payment.
    const verified = await t.request({
      method: "POST",
      url: `/api/patient-visits/${queriedVisit}/verification`,
      session: sessions.monitor,
    });
    expect(verified.status, JSON.stringify(verified.body)).toBe(200);
    const [earning] = await queryRows<{ uuid: string }>(
      t.database.db,
      sql`select e.uuid from earnings e join patient_visits pv on pv.id = e.patient_visit_id
        where pv.uuid = ${queriedVisit}`,
    );
    records.earnings = earning?.uuid as string;
    const projectId = (project as { id: number }).id;
    records.statements = await post("statements", {
      uuid: newUuid("statements"),
      projectId,
      siteId: siteA.id,
      periodTo: today,
      statementDate: today,
    });
    records.payments = await post("payments", {
      uuid: newUuid("payments"),
      projectId,
      siteId: siteA.id,
      receivedDate: today,
      amount: "100.00",
      reference: "Transfer",
      allocations: [],
    });
    const query = await t.request<{ uuid: string }>({
      method: "POST",
      url: "/api/queries",
      session: sessions.monitor,
      payload: { uuid: newUuid("queries"), patientVisitId: patientVisit.id, text: "Please check the time" },
    });
    expect(query.status, JSON.stringify(query.body)).toBe(201);
    records.queries = query.body.data.uuid;
    // Of a patient of its own: a deviation keeps its patient (nothing that happened is deleted).
    const deviating = await createPatient(t.database.db, siteA.id);
    await createStudyPatient(t.database.db, { patientId: deviating.id, studyId: study.id });
    records["protocol-deviations"] = await post(
      "protocol-deviations",
      protocolDeviationInput({ patientId: deviating.id, studyId: study.id, visitId: visit.id }),
    );
    records.users = await post(
      "users",
      userInput({ password: "Tidy-Heron-417", password2: "Tidy-Heron-417" }),
    );
    records.monitors = await post("monitors", monitorInput());
    records.sites = await post("sites", siteInput());
    records["therapy-categories"] = await post("therapy-categories", therapyCategoryInput());
    const category = await createTherapyCategory(t.database.db);
    records["therapy-areas"] = await post("therapy-areas", therapyAreaInput(category.id));
    records.partners = await post("partners", partnerInput());
    const area = await createTherapyArea(t.database.db, category.id);
    const [cro, sponsor] = [
      await createPartner(t.database.db, { cro: true }),
      await createPartner(t.database.db, { sponsor: true }),
    ];
    const refs = { croId: cro.id, sponsorId: sponsor.id, therapyAreaId: area.id, siteIds: [siteA.id] };
    records.projects = await post("projects", projectInput(refs));
    const planned = await createStudyRow(t.database.db, project as never, { variant: "SUB-STUDY" });
    records.studies = await post("studies", studyInput(project as never, { variant: "SECONDARY" }));
    records.visits = await post("visits", visitInput(planned.id));
    const planVisits = [
      await createVisit(t.database.db, planned.id),
      await createVisit(t.database.db, planned.id),
    ];
    records.studyplans = await post(
      "studyplans",
      studyplanInput(
        planned,
        planVisits.map((v) => v.id),
        [[7, 1, 1]],
      ),
    );
  });
  afterAll(() => t.close());

  // A monitor reads the history of what their assignment lets them read (the study's patient data),
  // nothing of another study ("none"), and of no resource without a monitor view (403).
  const expected: Record<string, Record<Role, Outcome>> = {
    patients: { admin: "events", staffA: "events", staffB: "none", monitor: 403 },
    "study-patients": { admin: "events", staffA: "events", staffB: "none", monitor: "events" },
    "patient-visits": { admin: "events", staffA: "events", staffB: "none", monitor: "events" },
    "protocol-deviations": { admin: "events", staffA: "events", staffB: "none", monitor: "events" },
    queries: { admin: "events", staffA: "events", staffB: "none", monitor: "events" },
    users: { admin: "events", staffA: 403, staffB: 403, monitor: 403 },
    monitors: { admin: "events", staffA: 403, staffB: 403, monitor: 403 },
    "monitor-assignments": { admin: "events", staffA: 403, staffB: 403, monitor: 403 },
    // Earnings are Trialdesk's own, written with the visit saves: no history of their own.
    earnings: { admin: "none", staffA: "none", staffB: "none", monitor: 403 },
    statements: { admin: "events", staffA: "events", staffB: "none", monitor: 403 },
    payments: { admin: "events", staffA: "events", staffB: "none", monitor: 403 },
    sites: { admin: "events", staffA: "events", staffB: "events", monitor: 403 },
    "therapy-categories": { admin: "events", staffA: "events", staffB: "events", monitor: 403 },
    "therapy-areas": { admin: "events", staffA: "events", staffB: "events", monitor: 403 },
    partners: { admin: "events", staffA: "events", staffB: "events", monitor: 403 },
    projects: { admin: "events", staffA: "events", staffB: "events", monitor: 403 },
    studies: { admin: "events", staffA: "events", staffB: "events", monitor: "none" },
    visits: { admin: "events", staffA: "events", staffB: "events", monitor: "none" },
    studyplans: { admin: "events", staffA: "events", staffB: "events", monitor: "none" },
  };

  it("covers every resource", () => {
    expect(Object.keys(expected).sort()).toEqual(resources.map((r) => r.name).sort());
  });

  it("answers each resource's history only to the roles and sites that may read the record", async () => {
    const seen: Record<string, Record<Role, Outcome>> = {};
    for (const resource of Object.keys(expected)) {
      seen[resource] = {} as Record<Role, Outcome>;
      for (const role of ["admin", "staffA", "staffB", "monitor"] as Role[])
        seen[resource][role] = await outcome(role, resource, records[resource]);
    }
    expect(seen).toEqual(expected);
  });

  it("never shows another site's patient values (SSN, notes …) in any answer", async () => {
    const res = await history("staffB", "patients", records.patients);
    expect(JSON.stringify(res.body)).not.toMatch(/patientDetail|ssn/i);
  });

  it("keeps a deleted patient's history behind its site: the visit, the assignment and the patient", async () => {
    await remove("patient-visits", records["patient-visits"]);
    await remove("study-patients", records["study-patients"]);
    await remove("patients", records.patients);
    for (const resource of ["patient-visits", "study-patients", "patients"]) {
      const rows = await queryRows<{ site_id: number | null; action: string }>(
        t.database.db,
        sql`select site_id, action from audit_events where resource = ${resource} and uuid = ${records[resource]}`,
      );
      expect(rows.map((r) => r.action).sort()).toEqual(["create", "delete"]);
      expect(rows.every((r) => r.site_id === siteA.id)).toBe(true);
      expect(await outcome("admin", resource, records[resource])).toBe("events");
      expect(await outcome("staffA", resource, records[resource])).toBe("events");
      expect(await outcome("staffB", resource, records[resource])).toBe("none");
    }
  });

  it("refuses a create with a deleted record's uuid, so its history never opens to another site (issue 46)", async () => {
    // A deleted patient of site A, whose history holds its values.
    const uuid = await post("patients", patientInput(siteA.id));
    await remove("patients", uuid);
    const [b] = await queryRows<{ id: number }>(
      t.database.db,
      sql`select site_id as id from user_sites where user_id = ${sessions.staffB.userId}`,
    );
    const again = await t.request({
      method: "POST",
      url: "/api/patients",
      session: sessions.staffB,
      payload: { ...patientInput(b?.id as number), uuid },
    });
    expect(again.status).toBe(400);
    expect(again.body.header.fieldErrors).toEqual([
      { field: "uuid", message: "This uuid belonged to another record: a new record needs a new uuid" },
    ]);
    expect(await outcome("staffB", "patients", uuid)).toBe("none");
    // Nothing of the refused create was kept; a fresh uuid works.
    const [kept] = await queryRows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from patients where uuid = ${uuid}`,
    );
    expect(kept?.n).toBe(0);
    const fresh = await t.request({
      method: "POST",
      url: "/api/patients",
      session: sessions.staffB,
      payload: patientInput(b?.id as number),
    });
    expect(fresh.status).toBe(201);
  });

  it("keeps the site of a patient written outside the API (no earlier history) when it is deleted", async () => {
    const patient = await createPatient(t.database.db, siteA.id);
    await remove("patients", patient.uuid);
    expect(await outcome("staffA", "patients", patient.uuid)).toBe("events");
    expect(await outcome("staffB", "patients", patient.uuid)).toBe("none");
  });

  it("answers an unknown resource or record with no history", async () => {
    expect(await outcome("admin", "nonsense", records.sites)).toBe("none");
    expect(await outcome("staffA", "patients", "pat-00000000-0000-4000-8000-000000000000")).toBe("none");
  });
});
