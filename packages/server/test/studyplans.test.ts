import {
  type ListData,
  rebuildSchedule,
  type Studyplan,
  type StudyplanListRow,
  studyplanStatus,
} from "@trialdesk/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createStudy, createStudyplan, createVisit, studyplanInput } from "../src/seed/factories";
import { seed } from "../src/seed/seed";
import { databaseKinds, type Session, startApp, type TestApp } from "./helpers";
import { setUpProject } from "./study-setup";

type PlanRecord = Studyplan & { studyUuid: string; studyName: string };

describe.each(databaseKinds)("studyplans on %s", (kind) => {
  let t: TestApp;
  let staff: Session;
  let study: { id: number; uuid: string };
  let other: { id: number; uuid: string };
  let empty: { id: number; uuid: string };
  // The study's visits: three mandatory, one optional.
  let v: number[];
  let foreignVisit: number;
  beforeAll(async () => {
    t = await startApp(kind);
    staff = await t.signedInUser({ isAdmin: false });
    const db = t.database.db;
    const project = await setUpProject(t, "SP-2025-001");
    study = await createStudy(db, project, { variant: "NORMAL" });
    other = await createStudy(db, project, { variant: "SUB-STUDY" });
    empty = await createStudy(db, project, { variant: "VARIANT-1" });
    v = [];
    for (const [name, mandatory] of [
      ["Screening", 1],
      ["Randomisation", 1],
      ["Week 4", 1],
      ["Phone call", 0],
    ] as const) {
      v.push((await createVisit(db, study.id, { name, mandatory })).id);
    }
    foreignVisit = (await createVisit(db, other.id, { name: "Elsewhere" })).id;
    await createVisit(db, other.id, { name: "Other 2" });
  });
  afterAll(() => t.close());

  const url = "/api/studyplans";
  const create = (payload: object) => t.request<PlanRecord>({ method: "POST", url, session: staff, payload });
  // The GET answer goes back whole, studyName included, as every record's does (issue 46).
  const put = (uuid: string, payload: Partial<PlanRecord>) =>
    t.request<PlanRecord>({ method: "PUT", url: `${url}/${uuid}`, session: staff, payload });
  const get = <T>(path: string) => t.request<T>({ method: "GET", url: path, session: staff });

  let saved: PlanRecord;

  it("creates a plan for a study named by uuid and answers it with its ordered schedule and study", async () => {
    const input = studyplanInput(
      study,
      [v[0], v[1], v[2]],
      [
        [14, 2, 3],
        [28, 1, 1],
      ],
    );
    const { calculationMode: _, ...withoutMode } = input;
    const res = await create(withoutMode);
    expect(res.status).toBe(201);
    saved = res.body.data;
    expect(saved).toMatchObject({
      uuid: input.uuid,
      version: 1,
      studyId: study.id,
      studyUuid: study.uuid,
      studyName: "SP-2025-001_NORMAL",
      calculationMode: "default",
    });
    expect(saved.schedule.map(({ id: _, ...e }) => e)).toEqual([
      {
        fromVisitId: v[0],
        toVisitId: v[1],
        daysFromStart: 14,
        allowedDaysBefore: 2,
        allowedDaysAfter: 3,
        sequence: 1,
      },
      {
        fromVisitId: v[1],
        toVisitId: v[2],
        daysFromStart: 28,
        allowedDaysBefore: 1,
        allowedDaysAfter: 1,
        sequence: 2,
      },
      {
        fromVisitId: v[2],
        toVisitId: null,
        daysFromStart: 0,
        allowedDaysBefore: 0,
        allowedDaysAfter: 0,
        sequence: 3,
      },
    ]);
    const read = await get<PlanRecord>(`${url}/${saved.uuid}`);
    expect(read.body.data).toEqual(saved);
  });

  it("refuses a second plan for the same study on studyId", async () => {
    const res = await create(studyplanInput({ id: study.id }, [v[0]]));
    expect(res.status).toBe(400);
    expect(res.body.header.fieldErrors).toEqual([
      { field: "studyId", message: "The study already has a studyplan" },
    ]);
  });

  it("updates with the version: reordered, a visit added, unchanged pairs keep their settings and ids", async () => {
    // The editor's move: the optional phone call goes between Randomisation and Week 4.
    const schedule = rebuildSchedule([v[0], v[1], v[3], v[2]], saved.schedule);
    schedule[2].daysFromStart = 7;
    const res = await put(saved.uuid, { ...saved, schedule });
    expect(res.status).toBe(200);
    expect(res.body.data.version).toBe(2);
    const after = (await get<PlanRecord>(`${url}/${saved.uuid}`)).body.data;
    expect(after.schedule.map((e) => [e.fromVisitId, e.toVisitId, e.daysFromStart, e.sequence])).toEqual([
      [v[0], v[1], 14, 1],
      [v[1], v[3], 0, 2],
      [v[3], v[2], 7, 3],
      [v[2], null, 0, 4],
    ]);
    // A visit that stays in the plan keeps its entry.
    expect(after.schedule[0].id).toBe(saved.schedule[0].id);
    expect(after.schedule[3].id).toBe(saved.schedule[2].id);

    const stale = await put(saved.uuid, { ...saved, schedule });
    expect(stale.status).toBe(409);

    // Saving it unchanged records no change in the audit trail.
    const again = await put(saved.uuid, after);
    expect(again.status).toBe(200);
    const audit = await get<{ items: { action: string }[] }>(
      `/api/audit?resource=studyplans&uuid=${saved.uuid}`,
    );
    expect(audit.body.data.items.map((e) => e.action)).toEqual(["update", "create"]);
    saved = again.body.data;
  });

  it("refuses a visit of another study, a visit twice and a broken chain, saving nothing", async () => {
    const foreign = rebuildSchedule([v[0], foreignVisit], []);
    const res = await put(saved.uuid, { ...saved, schedule: foreign });
    expect(res.status).toBe(400);
    expect(res.body.header.fieldErrors).toEqual([
      { field: "schedule", message: "Every studyplan visit must be a visit of the plan's study" },
    ]);
    const twice = [...rebuildSchedule([v[0], v[1]], []), ...rebuildSchedule([v[0]], [])];
    expect((await put(saved.uuid, { ...saved, schedule: twice })).body.header.fieldErrors?.[0]).toEqual({
      field: "schedule",
      message: "A visit appears more than once in the studyplan",
    });
    const chain = rebuildSchedule([v[0], v[1]], []).map((e) => ({ ...e, toVisitId: null }));
    expect((await put(saved.uuid, { ...saved, schedule: chain })).status).toBe(400);
    const tooMany = rebuildSchedule([v[0], v[1]], []).map((e) => ({ ...e, daysFromStart: 1000 }));
    expect((await put(saved.uuid, { ...saved, schedule: tooMany })).body.header.fieldErrors?.[0].field).toBe(
      "schedule.0.daysFromStart",
    );
    const moved = await put(saved.uuid, { ...saved, studyId: other.id, studyUuid: other.uuid });
    expect(moved.body.header.fieldErrors).toEqual([
      { field: "studyId", message: "The study of a studyplan cannot be changed" },
    ]);
    const unknownStudy = await create({ ...studyplanInput(empty, []), studyUuid: "std-nope" });
    expect(unknownStudy.body.header.fieldErrors).toEqual([
      { field: "studyUuid", message: "Study does not exist" },
    ]);
    const after = (await get<PlanRecord>(`${url}/${saved.uuid}`)).body.data;
    expect(after).toEqual(saved);
  });

  it("lists one row per study with the plan counts, searchable by study name and protocol", async () => {
    await createStudyplan(t.database.db, other.id, [foreignVisit]);
    const res = await get<ListData<StudyplanListRow>>(`${url}?searchTerm=SP-2025-001&pagesize=10`);
    expect(res.status).toBe(200);
    expect(res.body.data.pagination.total).toBe(3);
    const rows = res.body.data.items;
    expect(rows.map((r) => r.studyUuid)).toEqual([study.uuid, other.uuid, empty.uuid]);
    expect(rows[0]).toEqual({
      studyId: study.id,
      studyUuid: study.uuid,
      studyName: "SP-2025-001_NORMAL",
      protocolNr: "SP-2025-001",
      studyplanId: saved.id,
      studyplanUuid: saved.uuid,
      studyplanVisitCount: 4,
      mandatoryStudyplanVisitCount: 3,
      mandatoryVisitCount: 3,
    });
    expect(rows[1]).toMatchObject({
      studyplanVisitCount: 1,
      mandatoryStudyplanVisitCount: 1,
      mandatoryVisitCount: 2,
    });
    expect(rows[2]).toMatchObject({
      studyplanId: null,
      studyplanUuid: null,
      studyplanVisitCount: 0,
      mandatoryStudyplanVisitCount: null,
      mandatoryVisitCount: 0,
    });
    expect(rows.map(studyplanStatus)).toEqual(["Complete", "Incomplete", "Missing"]);

    const byName = await get<ListData<StudyplanListRow>>(`${url}?searchTerm=sub-study`);
    expect(byName.body.data.items.map((r) => r.studyUuid)).toEqual([other.uuid]);
    const paged = await get<ListData<StudyplanListRow>>(
      `${url}?searchTerm=SP-2025&pagesize=2&page=2&order=studyName&direction=desc`,
    );
    expect(paged.body.data.items.map((r) => r.studyName)).toEqual(["SP-2025-001_NORMAL"]);
    expect((await get(`${url}?order=schedule`)).status).toBe(400);
  });

  it("needs sign-in to read and write", async () => {
    expect((await t.request({ method: "GET", url })).status).toBe(401);
    expect((await t.request({ method: "GET", url: `${url}/${saved.uuid}` })).status).toBe(401);
    expect((await t.request({ method: "POST", url, payload: studyplanInput(empty, []) })).status).toBe(401);
  });
});

describe.each(databaseKinds)("demo studyplans on %s", (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(kind);
  });
  afterAll(() => t.close());

  it("seeds a complete, an incomplete and no plan for the three demo studies, once", async () => {
    await seed(t.database.db, { demoAdmin: false });
    await seed(t.database.db, { demoAdmin: false });
    const session = await t.signedInUser();
    const res = await t.request<ListData<StudyplanListRow>>({
      method: "GET",
      url: "/api/studyplans",
      session,
    });
    const rows = res.body.data.items;
    expect(rows.map((r) => [r.studyName, studyplanStatus(r)])).toEqual([
      ["TD-2025-001_NORMAL", "Complete"],
      ["TD-2025-001_SUB-STUDY", "Incomplete"],
      ["TD-2025-002_NORMAL", "Missing"],
    ]);
    const plan = await t.request<PlanRecord>({
      method: "GET",
      url: `/api/studyplans/${rows[0].studyplanUuid}`,
      session,
    });
    expect(plan.body.data.schedule).toHaveLength(11);
    expect(plan.body.data.schedule[0]).toMatchObject({
      daysFromStart: 14,
      allowedDaysBefore: 2,
      allowedDaysAfter: 2,
    });
  });
});
