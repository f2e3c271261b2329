import type { ListData, Study, StudyOption } from "@trialdesk/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createStudy, createVisit, demoStudyUuid, studyInput } from "../src/seed/factories";
import { databaseKinds, expectCreated, type Session, seededApp, startApp, type TestApp } from "./helpers";
import { setUpProject } from "./study-setup";

describe.each(databaseKinds)("studies on %s", (kind) => {
  let t: TestApp;
  let admin: Session;
  let staff: Session;
  let project: Awaited<ReturnType<typeof setUpProject>>;
  beforeAll(async () => {
    t = await startApp(kind);
    // Study setup is written by administrators and read by staff (issue 46, point 3; the conformance
    // test checks that staff are refused every write).
    admin = await t.signedInUser({ isAdmin: true });
    staff = await t.signedInUser({ isAdmin: false });
    project = await setUpProject(t, "ST-2025-001");
  });
  afterAll(() => t.close());

  const url = "/api/studies";
  const create = (payload: object) => t.request<Study>({ method: "POST", url, session: admin, payload });
  const get = <T>(path: string) => t.request<T>({ method: "GET", url: path, session: staff });

  it("creates a study and answers it, to staff too, with its project's names", async () => {
    const input = studyInput(project, { variant: "SECONDARY" });
    const res = await create(input);
    expectCreated(res, input.uuid, {
      projectId: project.id,
      variant: "SECONDARY",
      workingName: "ST-2025-001_SECONDARY",
      fpfv: "2025-03-03",
      lpfv: "2026-06-30",
      lplv: "2027-03-31",
      variantDescription: "",
      projectStatusId: 30,
      projectWorkingName: "Project ST-2025-001",
      projectInternalCode: project.internalCode,
      protocolNr: "ST-2025-001",
    });
    const byUuid = await get<Study>(`${url}/${input.uuid}`);
    expect(byUuid.body.data).toEqual(res.body.data);
  });

  it("gives every validation message of spec §5", async () => {
    const res = await create({
      projectId: null,
      variant: null,
      workingName: "",
      fpfv: "",
      lpfv: null,
      projectStatusId: null,
    });
    expect(res.status).toBe(400);
    expect(res.body.header.fieldErrors).toEqual(
      expect.arrayContaining([
        { field: "projectId", message: "Project is required" },
        { field: "workingName", message: "Working name is required" },
        { field: "variant", message: "Variant is required" },
        { field: "fpfv", message: "FPFV is required" },
        { field: "lpfv", message: "LPFV is required" },
        { field: "lplv", message: "LPLV is required" },
        { field: "projectStatusId", message: "Status is required" },
      ]),
    );
    expect(res.body.header.fieldErrors).toHaveLength(7);
  });

  it("refuses a date that is not a day, an unknown variant or status, and a missing project", async () => {
    const res = await create(studyInput(project, { fpfv: "2025-02-30", projectStatusId: 35 }));
    expect(res.status).toBe(400);
    expect(res.body.header.fieldErrors).toEqual(
      expect.arrayContaining([
        { field: "fpfv", message: "Must be a real date" },
        { field: "projectStatusId", message: expect.stringContaining("Must be one of") },
      ]),
    );
    const variant = await create({ ...studyInput(project), variant: "VARIANT-3" });
    expect(variant.body.header.fieldErrors?.[0].field).toBe("variant");
    const orphan = await create(studyInput({ id: 987654, protocolNr: "X" }));
    expect(orphan.status).toBe(400);
    expect(orphan.body.header.fieldErrors).toEqual([
      { field: "projectId", message: "Project does not exist" },
    ]);
  });

  it("refuses study dates out of order with a message on the later date's field", async () => {
    const res = await create(
      studyInput(project, { fpfv: "2025-07-01", lpfv: "2025-06-30", lplv: "2025-03-01" }),
    );
    expect(res.status).toBe(400);
    expect(res.body.header.fieldErrors).toEqual([
      { field: "lpfv", message: "LPFV cannot be before FPFV" },
      { field: "lplv", message: "LPLV cannot be before LPFV" },
    ]);
  });

  it("allows one study per project and variant, with a field error on the variant", async () => {
    await create(studyInput(project, { variant: "VARIANT-1" }));
    const again = await create(studyInput(project, { variant: "VARIANT-1" }));
    expect(again.status).toBe(400);
    expect(again.body.header.fieldErrors).toEqual([
      { field: "variant", message: "The project already has a study with this variant" },
    ]);
  });

  it("gives the option view with visit counts and whether a randomisation visit exists", async () => {
    const db = t.database.db;
    const withRandom = await createStudy(db, project, { variant: "SUB-STUDY" });
    await createVisit(db, withRandom.id, { name: "Screening", visitTypeId: 20 });
    await createVisit(db, withRandom.id, { name: "Randomisation", visitTypeId: 50 });
    await createVisit(db, withRandom.id, { name: "Week 4", visitTypeId: 60 });
    const withoutRandom = await createStudy(db, project, { variant: "VARIANT-2" });
    await createVisit(db, withoutRandom.id, { name: "Screening", visitTypeId: 20 });
    const empty = await createStudy(db, project, { variant: "NORMAL" });

    const res = await get<ListData<StudyOption>>(`${url}?format=option-view&page=1&pagesize=250`);
    expect(res.status).toBe(200);
    const byId = new Map(res.body.data.items.map((o) => [o.id, o]));
    expect(byId.get(withRandom.id)).toEqual({
      id: withRandom.id,
      uuid: withRandom.uuid,
      workingName: "ST-2025-001_SUB-STUDY",
      protocolNr: "ST-2025-001",
      visitCount: 3,
      hasRandomVisit: true,
    });
    expect(byId.get(withoutRandom.id)).toMatchObject({ visitCount: 1, hasRandomVisit: false });
    expect(byId.get(empty.id)).toMatchObject({ visitCount: 0, hasRandomVisit: false });
  });

  it("lists page 1 size 100 with a search by the study's or project's name and code", async () => {
    const other = await setUpProject(t, "OT-7777-042");
    await createStudy(t.database.db, other, { variant: "NORMAL" });
    const all = await get<ListData<Study>>(`${url}?page=1&pagesize=100`);
    expect(all.body.data.pagination).toEqual({ page: 1, pageSize: 100, total: all.body.data.items.length });
    const found = await get<ListData<Study>>(`${url}?page=1&pagesize=100&searchTerm=7777`);
    expect(found.body.data.items.map((s) => s.workingName)).toEqual(["OT-7777-042_NORMAL"]);
    expect(found.body.data.items[0]).toMatchObject({
      uuid: expect.stringMatching(/^std-/),
      projectWorkingName: "Project OT-7777-042",
      projectInternalCode: other.internalCode,
      variant: "NORMAL",
    });
    const byCode = await get<ListData<Study>>(`${url}?searchTerm=${encodeURIComponent(other.internalCode)}`);
    expect(byCode.body.data.items).toHaveLength(1);
    const sorted = await get<ListData<Study>>(`${url}?order=lplv&direction=desc`);
    expect(sorted.status).toBe(200);
  });

  it("updates with the version, refuses a stale one, and refuses deleting a study that has visits", async () => {
    const created = (await create(studyInput(project, { variant: "VARIANT-2", uuid: undefined }))).body;
    // VARIANT-2 exists already (option view test): the clash is the variant's.
    expect(created.header.fieldErrors?.[0].field).toBe("variant");
    const other = await setUpProject(t, "UP-2025-003");
    const study = (await create(studyInput(other))).body.data;
    const put = (payload: object) =>
      t.request<Study>({ method: "PUT", url: `${url}/${study.uuid}`, session: admin, payload });
    const updated = await put({ ...study, lplv: "2028-01-31" });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({ version: 2, lplv: "2028-01-31" });
    const stale = await put({ ...study, lplv: "2029-01-31" });
    expect(stale.status).toBe(409);

    await createVisit(t.database.db, study.id, { name: "Screening", visitTypeId: 20 });
    const refused = await t.request({ method: "DELETE", url: `${url}/${study.uuid}`, session: admin });
    expect(refused.status).toBe(409);
    expect(refused.body.header.errorMessage).toBe("Study is still used by visits");

    const spare = (await create(studyInput(other, { variant: "SECONDARY" }))).body.data;
    const removed = await t.request({ method: "DELETE", url: `${url}/${spare.uuid}`, session: admin });
    expect(removed.status).toBe(200);
    expect((await get(`${url}/${spare.uuid}`)).status).toBe(404);
  });

  it("needs a signed-in user", async () => {
    expect((await t.request({ method: "GET", url })).status).toBe(401);
    expect((await t.request({ method: "POST", url, payload: studyInput(project) })).status).toBe(401);
  });
});

describe.each(databaseKinds)("the demo studies on %s", (kind) => {
  const t = seededApp(kind, { demoAdmin: false });

  it("has three studies, the demo study among them, each with 8–12 visits and one randomisation visit", async () => {
    const user = await t.signedInUser();
    const options = await t.request<ListData<StudyOption>>({
      method: "GET",
      url: "/api/studies?format=option-view&page=1&pagesize=250",
      session: user,
    });
    const studies = options.body.data.items;
    expect(studies.map((s) => s.workingName)).toEqual([
      "TD-2025-001_NORMAL",
      "TD-2025-001_SUB-STUDY",
      "TD-2025-002_NORMAL",
    ]);
    expect(studies[0].uuid).toBe(demoStudyUuid);
    for (const study of studies) {
      expect(study.visitCount).toBeGreaterThanOrEqual(8);
      expect(study.visitCount).toBeLessThanOrEqual(12);
      expect(study.hasRandomVisit).toBe(true);
    }
  });
});
