import type { ListData, Visit, VisitListRow } from "@trialdesk/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createPatient,
  createPatientVisit,
  createSite,
  createStudy,
  createStudyPatient,
  createStudyplan,
  createVisit,
  visitInput,
} from "../src/seed/factories";
import { databaseKinds, expectCreated, type Session, startApp, type TestApp } from "./helpers";
import { setUpProject } from "./study-setup";

const randomisationMessage = "Randomisation visit type 50 is allowed once per study";

describe.each(databaseKinds)("visits on %s", (kind) => {
  let t: TestApp;
  let admin: Session;
  let staff: Session;
  let study: { id: number; uuid: string };
  let otherStudy: { id: number; uuid: string };
  beforeAll(async () => {
    t = await startApp(kind);
    // Study setup is written by administrators and read by staff (issue 46, point 3; the conformance
    // test checks that staff are refused every write).
    admin = await t.signedInUser({ isAdmin: true });
    staff = await t.signedInUser({ isAdmin: false });
    const project = await setUpProject(t, "VS-2025-001");
    study = await createStudy(t.database.db, project, { variant: "NORMAL" });
    otherStudy = await createStudy(t.database.db, project, { variant: "SUB-STUDY" });
  });
  afterAll(() => t.close());

  const url = "/api/visits";
  const create = (payload: object) => t.request<Visit>({ method: "POST", url, session: admin, payload });
  const put = (uuid: string, payload: object) =>
    t.request<Visit>({ method: "PUT", url: `${url}/${uuid}`, session: admin, payload });
  const get = <T>(path: string) => t.request<T>({ method: "GET", url: path, session: staff });

  it("creates a visit and answers it with its type label, study and protocol, mandatory as 0 or 1", async () => {
    const input = visitInput(study.id, { name: "Screening", visitTypeId: 20, mandatory: 1 });
    const res = await create(input);
    expectCreated(res, input.uuid, {
      studyId: study.id,
      name: "Screening",
      visitName: "Screening",
      visitTypeId: 20,
      visitType: "Screening",
      mandatory: 1,
      studyName: "VS-2025-001_NORMAL",
      protocolNr: "VS-2025-001",
      inUse: false,
    });
    const optional = await create(
      visitInput(study.id, { name: "Phone call", visitTypeId: 110, mandatory: 0 }),
    );
    expect(optional.body.data).toMatchObject({ mandatory: 0, visitType: "Phone" });
  });

  it("gives every validation message of spec §5", async () => {
    const res = await create({ studyId: null, visitTypeId: null, name: "" });
    expect(res.status).toBe(400);
    expect(res.body.header.fieldErrors).toEqual([
      { field: "studyId", message: "Study is required" },
      { field: "visitTypeId", message: "Visit type is required" },
      { field: "name", message: "Visit name is required" },
    ]);
    const unknownType = await create(visitInput(study.id, { visitTypeId: 55 as never }));
    expect(unknownType.body.header.fieldErrors?.[0].field).toBe("visitTypeId");
    const orphan = await create(visitInput(987654));
    expect(orphan.body.header.fieldErrors).toEqual([{ field: "studyId", message: "Study does not exist" }]);
  });

  it("allows randomisation (type 50) once per study: a second is refused on the field, the first keeps it", async () => {
    const first = await create(visitInput(study.id, { name: "Randomisation", visitTypeId: 50 }));
    expect(first.status).toBe(201);
    const second = await create(visitInput(study.id, { name: "Randomisation again", visitTypeId: 50 }));
    expect(second.status).toBe(400);
    expect(second.body.header.fieldErrors).toEqual([{ field: "visitTypeId", message: randomisationMessage }]);

    // Editing the randomisation visit itself keeps its type.
    const renamed = await put(first.body.data.uuid, { ...first.body.data, name: "Baseline / Randomisation" });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data).toMatchObject({
      name: "Baseline / Randomisation",
      visitTypeId: 50,
      version: 2,
    });

    // Turning another visit into a second randomisation visit is refused as well.
    const week4 = (await create(visitInput(study.id, { name: "Week 4", visitTypeId: 60 }))).body.data;
    const changed = await put(week4.uuid, { ...week4, visitTypeId: 50 });
    expect(changed.status).toBe(400);
    expect(changed.body.header.fieldErrors).toEqual([
      { field: "visitTypeId", message: randomisationMessage },
    ]);

    // Another study has its own.
    const projectId = (await get<{ projectId: number }>(`/api/studies/${study.uuid}`)).body.data.projectId;
    const other = await createStudy(
      t.database.db,
      { id: projectId, protocolNr: "VS-2025-001" },
      { variant: "SECONDARY" },
    );
    const own = await create(visitInput(other.id, { name: "Randomisation", visitTypeId: 50 }));
    expect(own.status).toBe(201);
  });

  it("refuses a visit name the study has, trimmed and in any case, on the field; other studies may have it (issue 46)", async () => {
    const used = { field: "name", message: "A visit of this name already exists in the study" };
    const first = await create(visitInput(study.id, { name: "Week 12", visitTypeId: 60 }));
    expect(first.status).toBe(201);
    const again = await create(visitInput(study.id, { name: " week 12 ", visitTypeId: 65 }));
    expect(again.status).toBe(400);
    expect(again.body.header.fieldErrors).toEqual([used]);
    expect((await create(visitInput(otherStudy.id, { name: "Week 12", visitTypeId: 60 }))).status).toBe(201);
    // Renamed to it, another visit of the study is refused; the visit itself saves in another case.
    const week13 = (await create(visitInput(study.id, { name: "Week 13", visitTypeId: 60 }))).body.data;
    const renamed = await put(week13.uuid, { ...week13, name: "WEEK 12" });
    expect(renamed.status).toBe(400);
    expect(renamed.body.header.fieldErrors).toEqual([used]);
    const cased = await put(first.body.data.uuid, { ...first.body.data, name: "WEEK 12" });
    expect(cased.status).toBe(200);
    expect((await put(first.body.data.uuid, { ...cased.body.data, name: "Week 12" })).status).toBe(200);
    // Moved into a study that has the name, too.
    const other13 = (await create(visitInput(otherStudy.id, { name: "Week 13", visitTypeId: 60 }))).body.data;
    const moved = await put(other13.uuid, { ...other13, name: "Week 12 ", studyId: study.id });
    expect(moved.status).toBe(400);
    expect(moved.body.header.fieldErrors).toEqual([used]);
  });

  it("lets one of two simultaneous visits of one name in a study in, the other refused on the field", async () => {
    const answers = await Promise.all([
      create(visitInput(study.id, { name: "Week 20", visitTypeId: 60 })),
      create(visitInput(study.id, { name: "Week 20", visitTypeId: 60 })),
    ]);
    expect(answers.map((res) => res.status).sort()).toEqual([201, 400]);
    expect(answers.find((res) => res.status === 400)?.body.header.fieldErrors).toEqual([
      { field: "name", message: "A visit of this name already exists in the study" },
    ]);
  });

  it("GET studies/{uuid}/visits gives the study's visits, page 1 size 100, with an optional search", async () => {
    const project = await setUpProject(t, "SV-2025-009");
    const own = await createStudy(t.database.db, project, { variant: "NORMAL" });
    const names = ["Screening", "Randomisation", "Week 4", "Week 8", "End of study"];
    const types = [20, 50, 60, 60, 80];
    for (const [i, name] of names.entries())
      await createVisit(t.database.db, own.id, { name, visitTypeId: types[i] });

    const res = await get<ListData<Visit>>(`/api/studies/${own.uuid}/visits?page=1&pagesize=100`);
    expect(res.status).toBe(200);
    expect(res.body.data.items.map((v) => v.name)).toEqual(names);
    expect(res.body.data.pagination).toEqual({ page: 1, pageSize: 100, total: 5 });
    expect(res.body.data.items[1]).toMatchObject({
      visitTypeId: 50,
      visitType: "Randomisation",
      mandatory: 1,
    });

    const searched = await get<ListData<Visit>>(
      `/api/studies/${own.uuid}/visits?page=1&pagesize=100&searchTerm=week`,
    );
    expect(searched.body.data.items.map((v) => v.name)).toEqual(["Week 4", "Week 8"]);

    const missing = await get(`/api/studies/std-00000000-0000-4000-8000-00000000dead/visits`);
    expect(missing.status).toBe(404);
    expect((await get(`/api/studies/${own.uuid}/visits?bogus=1`)).status).toBe(400);
  });

  it("lists visits with the study name and sorts and filters them", async () => {
    const res = await get<ListData<VisitListRow>>(
      `${url}?page=1&pagesize=100&studyId=${study.id}&order=visitName`,
    );
    expect(res.status).toBe(200);
    expect(res.body.data.items.every((v) => v.studyName === "VS-2025-001_NORMAL")).toBe(true);
    const names = res.body.data.items.map((v) => v.visitName);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
  });

  it("keeps a visit in its study once it is recorded for a patient or planned; an unused one may move", async () => {
    const db = t.database.db;
    const moveTo = (visit: Visit, studyId: number) => put(visit.uuid, { ...visit, studyId });
    const refused = [
      {
        field: "studyId",
        message:
          "This visit is recorded for patients or planned in a studyplan: it cannot move to another study",
      },
    ];

    const recorded = (await create(visitInput(study.id, { name: "Week 8", visitTypeId: 60 }))).body.data;
    const site = await createSite(db, { shortName: "VSS" });
    const patient = await createPatient(db, site.id);
    await createStudyPatient(db, { patientId: patient.id, studyId: study.id });
    // The record says so, for the form to show the study as fixed before a save is refused.
    expect(recorded.inUse).toBe(false);
    await createPatientVisit(db, { patientId: patient.id, studyId: study.id, visitId: recorded.id });
    expect((await get<Visit>(`${url}/${recorded.uuid}`)).body.data.inUse).toBe(true);
    const moved = await moveTo(recorded, otherStudy.id);
    expect(moved.status).toBe(400);
    expect(moved.body.header.fieldErrors).toEqual(refused);
    // Everything else about it may still change.
    expect((await put(recorded.uuid, { ...recorded, name: "Week 8 visit" })).status).toBe(200);

    const planStudy = await createStudy(db, await setUpProject(t, "VS-2025-002"), { variant: "NORMAL" });
    const first = await createVisit(db, planStudy.id, { name: "Day 1" });
    const planned = (await create(visitInput(planStudy.id, { name: "Day 15", visitTypeId: 60 }))).body.data;
    await createStudyplan(db, planStudy.id, [first.id, planned.id], [[14, 1, 1]]);
    expect((await get<Visit>(`${url}/${planned.uuid}`)).body.data.inUse).toBe(true);
    const plannedMove = await moveTo(planned, otherStudy.id);
    expect(plannedMove.status).toBe(400);
    expect(plannedMove.body.header.fieldErrors).toEqual(refused);

    const unused = (await create(visitInput(study.id, { name: "Extra", visitTypeId: 100 }))).body.data;
    const free = await moveTo(unused, otherStudy.id);
    expect(free.status).toBe(200);
    expect(free.body.data).toMatchObject({ studyId: otherStudy.id, studyName: "VS-2025-001_SUB-STUDY" });
  });

  it("deletes a visit", async () => {
    const visit = (await create(visitInput(study.id, { name: "Unscheduled", visitTypeId: 100 }))).body.data;
    const res = await t.request({ method: "DELETE", url: `${url}/${visit.uuid}`, session: admin });
    expect(res.status).toBe(200);
    expect((await get(`${url}/${visit.uuid}`)).status).toBe(404);
  });
});
