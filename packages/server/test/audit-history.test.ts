import { type HistoryEvent, rebuildSchedule, type ScheduleEntry } from "@trialdesk/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createPartner,
  createPatient,
  createStudy,
  createVisit,
  patientInput,
  studyPatientInput,
  studyplanInput,
} from "../src/seed/factories";
import { databaseKinds, type Session, startApp, type TestApp, twoSites } from "./helpers";
import { setUpProject } from "./study-setup";

describe.each(databaseKinds)("record history in words on %s", (kind) => {
  let t: TestApp;
  let admin: Session;
  let staffA: Session;
  let staffB: Session;
  let siteA: { id: number; code: string; shortName: string };
  let siteB: { id: number; code: string; shortName: string };
  let project: Awaited<ReturnType<typeof setUpProject>>;

  const write = async (method: "POST" | "PUT" | "DELETE", url: string, payload?: object, reason?: string) => {
    const res = await t.request<{ uuid: string; version: number }>({
      method,
      url: `/api/${url}`,
      session: admin,
      payload,
      headers: reason ? { "x-change-reason": reason } : {},
    });
    expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
    return res.body.data;
  };
  /** A record as the administrator reads it, to send back changed. */
  const read = async (url: string) =>
    (await t.request<Record<string, unknown>>({ method: "GET", url: `/api/${url}`, session: admin })).body
      .data;
  const history = async (session: Session, resource: string, uuid: string) => {
    const res = await t.request<{ items: HistoryEvent[] }>({
      method: "GET",
      url: `/api/audit?resource=${resource}&uuid=${uuid}`,
      session,
    });
    expect(res.status).toBe(200);
    return res.body.data.items;
  };
  const change = (event: HistoryEvent | undefined, field: string) =>
    event?.changes.find((c) => c.field === field);

  beforeAll(async () => {
    t = await startApp(kind);
    ({ siteA, siteB, admin, staffA } = await twoSites(t));
    staffB = await t.signedInUser({ siteIds: [siteB.id] });
    project = await setUpProject(t, "HIST-001");
  });
  afterAll(() => t.close());

  it("names the study and the closer instead of their ids, keeps the reason, and says (deleted) with the name it had", async () => {
    const patient = await createPatient(t.database.db, siteA.id);
    const first = await createStudy(t.database.db, project as never, { variant: "VARIANT-1" });
    const second = await createStudy(t.database.db, project as never, { variant: "VARIANT-2" });
    const assignment = await write(
      "POST",
      "study-patients",
      studyPatientInput({ patientId: patient.id, studyId: first.id }),
    );
    const record = await read(`study-patients/${assignment.uuid}`);
    await write(
      "PUT",
      `study-patients/${assignment.uuid}`,
      { ...record, studyId: second.id, active: false, closeReason: "DIED" },
      "Wrong study picked",
    );
    await write("DELETE", `studies/${first.uuid}`);

    const [update, create] = await history(staffA, "study-patients", assignment.uuid);
    expect(update.reason).toBe("Wrong study picked");
    expect(change(update, "studyId")).toMatchObject({
      oldText: `${first.workingName} (deleted)`,
      newText: second.workingName,
    });
    expect(change(update, "closedBy")).toMatchObject({
      oldText: null,
      newText: expect.stringMatching(/\S+ \S+/),
    });
    expect(change(update, "closeReason")).toMatchObject({ old: null, new: "DIED" });
    // The view fields that only repeat the references are left out.
    for (const repeat of ["studyWorkingName", "projectInternalCode", "studyUuid", "closedByName"])
      expect(change(update, repeat)).toBeUndefined();
    expect(change(create, "patientId")?.newText).toBe(
      `${patient.lastName} ${patient.firstName} (${patient.barcode})`,
    );
    for (const repeat of ["lastName", "firstName", "barcode"]) expect(change(create, repeat)).toBeUndefined();
  });

  it("names another site's patient to nobody outside that site, not even in the stored view fields", async () => {
    const own = await createPatient(t.database.db, siteB.id);
    const other = await createPatient(t.database.db, siteA.id, {
      patientDetail: { ...patientInput(siteA.id).patientDetail, lastName: "Elsewhere" },
    });
    const study = await createStudy(t.database.db, project as never, { variant: "SECONDARY" });
    // An administrator moves an assignment from site A's patient to site B's.
    const assignment = await write(
      "POST",
      "study-patients",
      studyPatientInput({ patientId: other.id, studyId: study.id }),
    );
    const record = await read(`study-patients/${assignment.uuid}`);
    await write(
      "PUT",
      `study-patients/${assignment.uuid}`,
      { ...record, patientId: own.id },
      "Wrong patient picked",
    );

    const [update, create] = await history(staffB, "study-patients", assignment.uuid);
    expect(change(update, "patientId")).toMatchObject({
      oldText: "(not visible)",
      newText: `${own.lastName} ${own.firstName} (${own.barcode})`,
    });
    expect(change(create, "patientId")?.newText).toBe("(not visible)");
    expect(JSON.stringify([update, create])).not.toContain("Elsewhere");
    expect(JSON.stringify([update, create])).not.toContain(other.barcode);

    const [adminUpdate] = await history(admin, "study-patients", assignment.uuid);
    expect(change(adminUpdate, "patientId")?.oldText).toBe(`Elsewhere ${other.firstName} (${other.barcode})`);
  });

  it("names a project's CRO and sites as the project form offers them", async () => {
    const cro = await createPartner(t.database.db, { cro: true, name: "Nordic Trials" });
    const record = (
      await t.request<Record<string, unknown> & { uuid: string; details: object }>({
        method: "GET",
        url: `/api/projects/${project.uuid}`,
        session: admin,
      })
    ).body.data;
    await write("PUT", `projects/${project.uuid}`, {
      ...record,
      details: { ...record.details, croId: cro.id },
      siteIds: [siteA.id, siteB.id],
    });
    const [update] = await history(admin, "projects", project.uuid);
    expect(change(update, "details.croId")?.newText).toBe("Nordic Trials");
    expect(change(update, "details.croId")?.oldText).toEqual(expect.any(String));
    expect(change(update, "siteIds")?.newText).toBe(
      `${siteA.code} - ${siteA.shortName}, ${siteB.code} - ${siteB.shortName}`,
    );
    expect(change(update, "croName")).toBeUndefined();
  });

  it("tells a schedule change visit by visit, each named by the visit its row's days place (issue 46)", async () => {
    const study = await createStudy(t.database.db, project as never, { variant: "NORMAL" });
    const visits = [
      await createVisit(t.database.db, study.id, { name: "Screening" }),
      await createVisit(t.database.db, study.id, { name: "Randomisation" }),
      await createVisit(t.database.db, study.id, { name: "Week 4" }),
    ];
    const input = studyplanInput(
      study,
      visits.map((v) => v.id),
      [
        [14, 2, 2],
        [28, 3, 3],
      ],
    );
    const plan = await write("POST", "studyplans", input);
    const stored = (
      await t.request<{ schedule: ScheduleEntry[]; version: number }>({
        method: "GET",
        url: `/api/studyplans/${plan.uuid}`,
        session: admin,
      })
    ).body.data;
    // The editor's save: Week 4 leaves the plan, Randomisation is placed a week later.
    const schedule = rebuildSchedule([visits[0].id, visits[1].id], stored.schedule).map((row) =>
      row.fromVisitId === visits[0].id ? { ...row, daysFromStart: 21 } : row,
    );
    await write("PUT", `studyplans/${plan.uuid}`, { ...input, version: stored.version, schedule });
    const [update, create] = await history(admin, "studyplans", plan.uuid);
    expect(change(create, "schedule")?.lines).toEqual([
      "V1 Screening added: day 0",
      "V2 Randomisation added: day 14, window −2/+2",
      "V3 Week 4 added: day 28, window −3/+3",
    ]);
    expect(change(update, "schedule")?.lines).toEqual([
      "V2 Randomisation: day 14 → 21",
      "V3 Week 4 removed (day 28, window −3/+3)",
    ]);
    expect(change(create, "studyId")?.newText).toBe(study.workingName);
  });
});
