import {
  type HistoryEvent,
  type ListData,
  rebuildSchedule,
  type Studyplan,
  type StudyplanListRow,
  studyplanStatus,
  type VisitStatus,
} from "@trialdesk/domain";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../src/db/client";
import {
  createPatient,
  createPatientVisit,
  createSite,
  createStudy,
  createStudyPatient,
  createStudyplan,
  createVisit,
  studyplanInput,
} from "../src/seed/factories";
import { seed } from "../src/seed/seed";
import { databaseKinds, type Session, startApp, type TestApp } from "./helpers";
import { setUpProject } from "./study-setup";

type PlanRecord = Studyplan & { studyUuid: string; studyName: string };

describe.each(databaseKinds)("studyplans on %s", (kind) => {
  let t: TestApp;
  let admin: Session;
  let staff: Session;
  let study: { id: number; uuid: string };
  let other: { id: number; uuid: string };
  let empty: { id: number; uuid: string };
  // The study's visits: three mandatory, one optional.
  let v: number[];
  let foreignVisit: number;
  beforeAll(async () => {
    t = await startApp(kind);
    // Study setup is written by administrators; staff read it (issue 46, point 3).
    admin = await t.signedInUser({ isAdmin: true });
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
  const create = (payload: object) => t.request<PlanRecord>({ method: "POST", url, session: admin, payload });
  // The GET answer goes back whole, studyName included, as every record's does (issue 46).
  const put = (uuid: string, payload: Partial<PlanRecord>) =>
    t.request<PlanRecord>({ method: "PUT", url: `${url}/${uuid}`, session: admin, payload });
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
        feeShare: null,
      },
      {
        fromVisitId: v[1],
        toVisitId: v[2],
        daysFromStart: 28,
        allowedDaysBefore: 1,
        allowedDaysAfter: 1,
        sequence: 2,
        feeShare: null,
      },
      {
        fromVisitId: v[2],
        toVisitId: null,
        daysFromStart: 0,
        allowedDaysBefore: 0,
        allowedDaysAfter: 0,
        sequence: 3,
        feeShare: null,
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

/**
 * A studyplan save that changes what visits already recorded are asks first (issue 46, point 3): the
 * server answers 409 with how many, and writes nothing, unless the save says confirmWindowChanges.
 */
describe.each(databaseKinds)("studyplan changes to recorded visits on %s (issue 46, point 3)", (kind) => {
  let t: TestApp;
  let admin: Session;
  let study: { id: number; uuid: string };
  /** Screening, Week 2 (day 14 ± 2: 13–17 Mar), Week 6 (day 42 ± 3: 9–15 Apr) */
  let v: number[];
  let plan: PlanRecord;
  const url = "/api/studyplans";
  const question = (text: string) => ({
    result: "error",
    errorCode: "CONFLICT",
    errorMessage: text,
    errorDetail: "Send confirmWindowChanges: true to save the studyplan all the same",
  });

  /** A patient of the study from 1 Mar 2026, screened that day, with these records of Week 2 and Week 6. */
  async function patientWith(siteId: number, studyId: number, visits: [number, string, VisitStatus][]) {
    const db = t.database.db;
    const patient = await createPatient(db, siteId);
    await createStudyPatient(db, { patientId: patient.id, studyId }, { startDate: "2026-03-01" });
    for (const [visitId, visitDate, visitStatus] of visits)
      await createPatientVisit(
        db,
        { patientId: patient.id, studyId, visitId },
        { visitDate, visitStatus, visitResult: visitStatus === "COMPLETED" ? "OK" : null },
      );
    return patient;
  }

  /** What the study's saves keep: its stored windows and its automatic deviations, in a fixed order. */
  const stored = async (studyId: number) => ({
    windows: await queryRows<Record<string, unknown>>(
      t.database.db,
      sql`select patient_id, visit_id, window_start::text, window_end::text, kind, deviation_open
        from visit_schedule where study_id = ${studyId} order by patient_id, visit_id`,
    ),
    deviations: await queryRows<Record<string, unknown>>(
      t.database.db,
      sql`select patient_id, visit_id, kind, status from protocol_deviations
        where study_id = ${studyId} order by patient_id, visit_id, kind`,
    ),
  });
  const history = async (uuid: string) =>
    (
      await t.request<{ items: HistoryEvent[] }>({
        method: "GET",
        url: `/api/audit?resource=studyplans&uuid=${uuid}`,
        session: admin,
      })
    ).body.data.items;
  const put = (payload: object) =>
    t.request<PlanRecord>({ method: "PUT", url: `${url}/${plan.uuid}`, session: admin, payload });
  const deviationOf = async (patientId: number, visitId: number) =>
    (
      await queryRows<{ kind: string; status: string }>(
        t.database.db,
        sql`select kind, status from protocol_deviations where patient_id = ${patientId} and visit_id = ${visitId}`,
      )
    ).map((d) => `${d.kind} ${d.status}`);

  let a: { id: number };
  let b: { id: number };
  let c: { id: number };
  let d: { id: number };
  let site: { id: number };

  beforeAll(async () => {
    t = await startApp(kind);
    admin = await t.signedInUser({ isAdmin: true });
    const db = t.database.db;
    const project = await setUpProject(t, "SPW-2026-001");
    study = await createStudy(db, project, { variant: "NORMAL" });
    v = [];
    for (const name of ["Screening", "Week 2", "Week 6"])
      v.push((await createVisit(db, study.id, { name })).id);
    const created = await t.request<PlanRecord>({
      method: "POST",
      url,
      session: admin,
      payload: studyplanInput(study, v, [
        [14, 2, 2],
        [42, 3, 3],
      ]),
    });
    expect(created.status).toBe(201);
    plan = created.body.data;
    site = await createSite(db);
    const [screening, week2, week6] = v as [number, number, number];
    const screened: [number, string, VisitStatus] = [screening, "2026-03-01", "COMPLETED"];
    // A and B did Week 2 in its window, on day 14 and day 16; C missed it (a no-show, then Week 6 took
    // place); D did it on day 10, before its window.
    a = await patientWith(site.id, study.id, [
      screened,
      [week2, "2026-03-15", "COMPLETED"],
      [week6, "2026-04-12", "COMPLETED"],
    ]);
    b = await patientWith(site.id, study.id, [screened, [week2, "2026-03-17", "COMPLETED"]]);
    c = await patientWith(site.id, study.id, [
      screened,
      [week2, "2026-03-15", "NO_SHOW"],
      [week6, "2026-04-12", "COMPLETED"],
    ]);
    d = await patientWith(site.id, study.id, [screened, [week2, "2026-03-11", "COMPLETED"]]);
  });
  afterAll(() => t.close());

  /** The plan with Week 2 on day 10 ± 2 (9–13 Mar) instead of day 14 ± 2. */
  const earlierWeek2 = () =>
    plan.schedule.map((entry) => (entry.fromVisitId === v[0] ? { ...entry, daysFromStart: 10 } : entry));

  it("asks first, saying how many recorded visits move and what they become, and writes nothing", async () => {
    const before = await stored(study.id);
    expect(await deviationOf(d.id, v[1] as number)).toEqual(["OUT_OF_WINDOW OPEN"]);
    expect(await deviationOf(c.id, v[1] as number)).toEqual(["MISSED_VISIT OPEN"]);
    const res = await put({ ...plan, schedule: earlierWeek2() });
    expect(res.status).toBe(409);
    // A's and B's Week 2 leave their window, D's comes into it; C's stays missed, its window moved.
    expect(res.body.header).toMatchObject(
      question(
        "This change moves the windows of 4 recorded visits (2 become out of window, 1 becomes in window). Save anyway?",
      ),
    );
    const read = await t.request<PlanRecord>({ method: "GET", url: `${url}/${plan.uuid}`, session: admin });
    expect(read.body.data).toEqual(plan);
    expect(await stored(study.id)).toEqual(before);
    expect(await history(plan.uuid)).toHaveLength(1);
    // Sent as it was read, the flag false, the same question.
    const unconfirmed = await put({ ...plan, schedule: earlierWeek2(), confirmWindowChanges: false });
    expect(unconfirmed.status).toBe(409);
    expect((await put({ ...plan, schedule: earlierWeek2(), confirmWindowChanges: "yes" })).status).toBe(400);
  });

  it("counts a visit whose state changes though its window stays, and one that leaves the plan", async () => {
    // Without Week 6 in the plan nothing later took place after C's Week 2: no longer missed. A's and
    // C's Week 6 leave the plan (their window goes).
    const withoutWeek6 = rebuildSchedule([v[0] as number, v[1] as number], plan.schedule);
    const res = await put({ ...plan, schedule: withoutWeek6 });
    expect(res.status).toBe(409);
    expect(res.body.header.errorMessage).toBe(
      "This change affects 3 recorded visits (1 is no longer missed, 2 leave the plan). Save anyway?",
    );
  });

  it("saves without asking when no recorded visit changes its state, even if windows move", async () => {
    // Week 6 ± 4 instead of ± 3: the recorded Week 6 visits (12 Apr) stay in their window.
    const wider = plan.schedule.map((entry) =>
      entry.fromVisitId === v[1] ? { ...entry, allowedDaysBefore: 4, allowedDaysAfter: 4 } : entry,
    );
    const res = await put({ ...plan, schedule: wider });
    expect(res.status, JSON.stringify(res.body.header)).toBe(200);
    expect(res.body.data.version).toBe(2);
    const back = await put({ ...res.body.data, schedule: plan.schedule });
    expect(back.status).toBe(200);
    plan = back.body.data;
  });

  it("saves a confirmed change: the windows and the deviations follow, the flag is kept nowhere", async () => {
    const res = await put({ ...plan, schedule: earlierWeek2(), confirmWindowChanges: true });
    expect(res.status, JSON.stringify(res.body.header)).toBe(200);
    expect(res.body.data.version).toBe(plan.version + 1);
    expect(res.body.data).not.toHaveProperty("confirmWindowChanges");
    const week2 = await queryRows<{
      patientId: number;
      windowStart: string;
      windowEnd: string;
      kind: string;
    }>(
      t.database.db,
      sql`select patient_id as "patientId", window_start::text as "windowStart", window_end::text as "windowEnd",
          kind from visit_schedule where study_id = ${study.id} and visit_id = ${v[1]} order by patient_id`,
    );
    expect(week2.map((row) => [row.patientId, row.windowStart, row.windowEnd, row.kind])).toEqual([
      [a.id, "2026-03-09", "2026-03-13", "out-of-window"],
      [b.id, "2026-03-09", "2026-03-13", "out-of-window"],
      [c.id, "2026-03-09", "2026-03-13", "missed"],
      [d.id, "2026-03-09", "2026-03-13", "done"],
    ]);
    expect(await deviationOf(a.id, v[1] as number)).toEqual(["OUT_OF_WINDOW OPEN"]);
    expect(await deviationOf(b.id, v[1] as number)).toEqual(["OUT_OF_WINDOW OPEN"]);
    expect(await deviationOf(d.id, v[1] as number)).toEqual(["OUT_OF_WINDOW WITHDRAWN"]);
    const [update] = await history(plan.uuid);
    expect(update.action).toBe("update");
    expect(JSON.stringify(update)).not.toContain("confirmWindowChanges");
    // Saved again as it now is, nothing changes and nothing is asked.
    const events = (await history(plan.uuid)).length;
    const again = await put(res.body.data);
    expect(again.status).toBe(200);
    expect(await history(plan.uuid)).toHaveLength(events);
  });

  it("asks before a new plan places visits recorded without one, and creates it once confirmed", async () => {
    const db = t.database.db;
    const project = await setUpProject(t, "SPW-2026-002");
    const unplanned = await createStudy(db, project, { variant: "NORMAL" });
    const visits = [
      (await createVisit(db, unplanned.id, { name: "Screening" })).id,
      (await createVisit(db, unplanned.id, { name: "Week 2" })).id,
    ] as [number, number];
    await patientWith(site.id, unplanned.id, [
      [visits[0], "2026-03-01", "COMPLETED"],
      [visits[1], "2026-03-15", "COMPLETED"],
    ]);
    const input = studyplanInput(unplanned, visits, [[14, 2, 2]]);
    const asked = await t.request({ method: "POST", url, session: admin, payload: input });
    expect(asked.status).toBe(409);
    expect(asked.body.header).toMatchObject(
      question("This change moves the windows of 2 recorded visits (2 become in window). Save anyway?"),
    );
    expect((await t.request({ method: "GET", url: `${url}/${input.uuid}`, session: admin })).status).toBe(
      404,
    );
    const created = await t.request({
      method: "POST",
      url,
      session: admin,
      payload: { ...input, confirmWindowChanges: true },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.data).not.toHaveProperty("confirmWindowChanges");
    expect((await stored(unplanned.id)).windows.map((row) => row.kind)).toEqual(["done", "done"]);
  });
});
