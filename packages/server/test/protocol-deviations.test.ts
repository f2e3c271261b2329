import type {
  HistoryEvent,
  ListData,
  ProtocolDeviation,
  ProtocolDeviationListRow,
  WorklistData,
} from "@trialdesk/domain";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../src/db/client";
import {
  createPatient,
  createStudy,
  createVisit,
  patientVisitInput,
  protocolDeviationInput,
  studyPatientInput,
  studyplanInput,
} from "../src/seed/factories";
import {
  databaseKinds,
  resourceClient,
  type Session,
  startApp,
  type TestApp,
  twoSites,
  withReason,
} from "./helpers";
import { setUpProject } from "./study-setup";

/**
 * Protocol deviations (issue 43): written by Trialdesk in the transaction of the write that causes
 * them, withdrawn (or marked) when the cause goes away, entered by hand for the other kinds, and
 * site-scoped through their patient like patient visits.
 */
describe.each(databaseKinds)("protocol deviations on %s", (kind) => {
  let t: TestApp;
  let admin: Session;
  let staffA: Session;
  let staffB: Session;
  let siteA: { id: number };
  let siteB: { id: number };
  let study: { id: number; uuid: string };
  let otherStudyVisit: number;
  /** Screening, Week 2 (day 14 ± 2), Week 6 (day 42 ± 3) */
  let v: number[];
  let planUuid: string;
  let run = 0;

  const deviations = resourceClient<ProtocolDeviation, ProtocolDeviationListRow>(
    () => t,
    "protocol-deviations",
    () => staffA,
  );
  const visitsApi = resourceClient<{ uuid: string; version: number }>(
    () => t,
    "patient-visits",
    () => staffA,
    { reason: "Source corrected" },
  );
  const ofPatient = async (patientId: number, as = staffA) =>
    (await deviations.list(`patientId=${patientId}`, as)).body.data.items;
  const history = async (uuid: string, as = staffA) =>
    (
      await t.request<{ items: HistoryEvent[] }>({
        method: "GET",
        url: `/api/audit?resource=protocol-deviations&uuid=${uuid}`,
        session: as,
      })
    ).body.data.items;

  /** A patient of site A (or B) assigned to the study from 1 Mar 2026, with the screening done that day. */
  async function startedPatient(siteId = siteA.id, as = staffA) {
    const patient = await createPatient(t.database.db, siteId);
    const assignment = await t.request<{ uuid: string; version: number; id: number }>({
      method: "POST",
      url: "/api/study-patients",
      session: as,
      payload: studyPatientInput(
        { patientId: patient.id, studyId: study.id },
        { startDate: "2026-03-01", screenNr: `DEV-${run++}` },
      ),
    });
    expect(assignment.status).toBe(201);
    await record(patient.id, v[0] as number, "2026-03-01", "COMPLETED", as);
    return { patient, assignment: assignment.body.data };
  }

  async function record(
    patientId: number,
    visitId: number,
    visitDate: string,
    status = "COMPLETED",
    as = staffA,
  ) {
    const res = await visitsApi.create(
      patientVisitInput(
        { patientId, studyId: study.id, visitId },
        { visitDate, visitStatus: status as never, visitResult: status === "COMPLETED" ? "OK" : null },
      ),
      as,
    );
    expect(res.status, JSON.stringify(res.body.header)).toBe(201);
    return res.body.data;
  }

  beforeAll(async () => {
    t = await startApp(kind);
    ({ siteA, siteB, admin, staffA } = await twoSites(t));
    staffB = await t.signedInUser({ siteIds: [siteB.id] });
    const db = t.database.db;
    const project = await setUpProject(t, "DEV-2026-001");
    study = await createStudy(db, project, { variant: "NORMAL" });
    v = [];
    for (const name of ["Screening", "Week 2", "Week 6"])
      v.push((await createVisit(db, study.id, { name })).id);
    const other = await createStudy(db, project, { variant: "SUB-STUDY" });
    otherStudyVisit = (await createVisit(db, other.id, { name: "Elsewhere" })).id;
    const plan = await t.request<{ uuid: string }>({
      method: "POST",
      url: "/api/studyplans",
      session: admin,
      payload: studyplanInput(study, v, [
        [14, 2, 2],
        [42, 3, 3],
      ]),
    });
    expect(plan.status).toBe(201);
    planUuid = plan.body.data.uuid;
  });
  afterAll(() => t.close());

  it("records an out-of-window visit's deviation with its days, withdraws it when the date is corrected, and reopens the same one", async () => {
    const { patient } = await startedPatient();
    expect(await ofPatient(patient.id)).toEqual([]);
    // Week 2's window is 13–17 Mar: the 19th is two days after it.
    const late = await record(patient.id, v[1] as number, "2026-03-19");
    const [deviation] = await ofPatient(patient.id);
    expect(deviation).toMatchObject({
      kind: "OUT_OF_WINDOW",
      source: "AUTOMATIC",
      daysOutside: 2,
      status: "OPEN",
      severity: "MINOR",
      visitName: "Week 2",
      noLongerApplies: false,
    });
    const full = (await deviations.get(deviation?.uuid as string)).body.data;
    expect(full.description).toBe("Visit completed 2 days after its window closed (13 Mar – 17 Mar 2026).");
    expect(full.patientVisitId).toBe((late as unknown as { id: number }).id);
    // Corrected into the window: withdrawn, with the reason in its history, never deleted.
    const corrected = await visitsApi.update(late.uuid, { ...late, visitDate: "2026-03-16" });
    expect(corrected.status).toBe(200);
    expect(await ofPatient(patient.id)).toMatchObject([{ uuid: deviation?.uuid, status: "WITHDRAWN" }]);
    const [withdrawal] = await history(deviation?.uuid as string);
    expect(withdrawal?.reason).toMatch(/^Withdrawn by Trialdesk: its cause went away/);
    expect(withdrawal?.changes).toContainEqual({ field: "status", old: "OPEN", new: "WITHDRAWN" });
    // Outside again, a day earlier than before the window: the same deviation, open again.
    const early = await visitsApi.update(late.uuid, { ...corrected.body.data, visitDate: "2026-03-12" });
    expect(early.status).toBe(200);
    expect(await ofPatient(patient.id)).toMatchObject([
      { uuid: deviation?.uuid, status: "OPEN", daysOutside: -1 },
    ]);
    // Staff see it in a patient visit's detail too.
    const detail = await t.request<{ visits: Record<string, { deviations: { kind: string }[] }> }>({
      method: "GET",
      url: `/api/patient-visit-detail?patientId=${patient.id}&studyId=${study.id}`,
      session: staffA,
    });
    expect(detail.body.data.visits[String(v[1])]?.deviations).toMatchObject([
      { kind: "OUT_OF_WINDOW", daysOutside: -1, status: "OPEN" },
    ]);
  });

  it("keeps a reported deviation whose cause goes away, marked as no longer applying", async () => {
    const { patient } = await startedPatient();
    const late = await record(patient.id, v[1] as number, "2026-03-20");
    const [open] = await ofPatient(patient.id);
    const full = (await deviations.get(open?.uuid as string)).body.data;
    // Staff edit what is theirs; what Trialdesk derived stays as it is whatever is sent.
    const reported = await deviations.update(full.uuid, {
      ...full,
      status: "REPORTED",
      reportedOn: "2026-03-22",
      severity: "MAJOR",
      kind: "OTHER",
      daysOutside: 40,
      visitId: v[2],
    });
    expect(reported.status).toBe(200);
    expect(reported.body.data).toMatchObject({
      status: "REPORTED",
      severity: "MAJOR",
      kind: "OUT_OF_WINDOW",
      daysOutside: 3,
      visitId: v[1],
    });
    await visitsApi.update(late.uuid, { ...late, visitDate: "2026-03-15" });
    expect(await ofPatient(patient.id)).toMatchObject([
      { uuid: full.uuid, status: "REPORTED", noLongerApplies: true },
    ]);
  });

  it("lists on the worklist's Deviations open only the visits whose automatic deviation is still open", async () => {
    const { patient } = await startedPatient();
    await record(patient.id, v[1] as number, "2026-03-21");
    const open = async () =>
      (
        await t.request<WorklistData>({
          method: "GET",
          url: `/api/worklist?siteId=${siteA.id}&asOf=2026-03-22&search=${patient.barcode}&state=deviations-open`,
          session: staffA,
        })
      ).body.data;
    const before = await open();
    expect(before.items.map((r) => [r.visitName, r.state, r.daysOutside, r.deviationStatus])).toEqual([
      ["Week 2", "out-of-window", 4, "OPEN"],
    ]);
    expect(before.counts["deviations-open"]).toBe(1);
    const [deviation] = await ofPatient(patient.id);
    const full = (await deviations.get(deviation?.uuid as string)).body.data;
    const reported = await deviations.update(full.uuid, {
      ...full,
      status: "REPORTED",
      reportedOn: "2026-03-22",
    });
    expect(reported.status).toBe(200);
    const after = await open();
    expect(after.items).toEqual([]);
    expect(after.counts["deviations-open"]).toBe(0);
    // Open again by hand: back on the list.
    await deviations.update(full.uuid, { ...reported.body.data, status: "OPEN", reportedOn: null });
    expect((await open()).items).toHaveLength(1);
  });

  it("marks a visit missed when a later visit took place after its window, with its deviation, and takes it off the default worklist", async () => {
    const { patient } = await startedPatient();
    await record(patient.id, v[1] as number, "2026-03-15", "NO_SHOW");
    const worklist = async (query: string) =>
      (
        await t.request<WorklistData>({
          method: "GET",
          url: `/api/worklist?siteId=${siteA.id}&asOf=2026-04-13&search=${patient.barcode}&${query}`,
          session: staffA,
        })
      ).body.data;
    // Until then the no-show is overdue, and no deviation exists yet.
    expect((await worklist("")).items.map((r) => [r.visitName, r.state])).toEqual([
      ["Week 2", "overdue"],
      ["Week 6", "due"],
    ]);
    expect(await ofPatient(patient.id)).toEqual([]);
    const week6 = await record(patient.id, v[2] as number, "2026-04-12");
    expect(await ofPatient(patient.id)).toMatchObject([
      { kind: "MISSED_VISIT", visitName: "Week 2", daysOutside: null, status: "OPEN" },
    ]);
    const byDefault = await worklist("");
    expect(byDefault.items).toEqual([]);
    expect(byDefault.counts).toMatchObject({ overdue: 0, missed: 1, "deviations-open": 1 });
    expect((await worklist("state=missed")).items.map((r) => [r.visitName, r.state])).toEqual([
      ["Week 2", "missed"],
    ]);
    const open = await worklist("state=deviations-open,missed");
    // One row, though it is under both chips.
    expect(open.items.map((r) => [r.visitName, r.state, r.deviationStatus])).toEqual([
      ["Week 2", "missed", "OPEN"],
    ]);
    // The later visit deleted: not missed any more, the deviation withdrawn.
    const removed = await visitsApi.remove(week6.uuid);
    expect(removed.status).toBe(200);
    expect(await ofPatient(patient.id)).toMatchObject([{ kind: "MISSED_VISIT", status: "WITHDRAWN" }]);
    expect((await worklist("")).items.map((r) => [r.visitName, r.state])).toEqual([
      ["Week 2", "overdue"],
      ["Week 6", "due"],
    ]);
  });

  it("misses the visits whose window ended before the assignment was closed", async () => {
    const { patient, assignment } = await startedPatient();
    const closed = await t.request({
      method: "PUT",
      url: `/api/study-patients/${assignment.uuid}`,
      session: staffA,
      headers: withReason(),
      payload: {
        ...studyPatientInput({ patientId: patient.id, studyId: study.id }, { startDate: "2026-03-01" }),
        uuid: assignment.uuid,
        version: assignment.version,
        screenNr: null,
        active: false,
        closeReason: "CANCELLED",
        closeDate: "2026-03-25",
      },
    });
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);
    // Week 2 (to 17 Mar) was missed; Week 6 (from 9 Apr) is owed no more.
    expect((await ofPatient(patient.id)).map((d) => [d.visitName, d.kind])).toEqual([
      ["Week 2", "MISSED_VISIT"],
    ]);
  });

  it("withdraws an out-of-window deviation when the studyplan widens the window", async () => {
    const { patient } = await startedPatient();
    await record(patient.id, v[1] as number, "2026-03-19");
    expect(await ofPatient(patient.id)).toMatchObject([{ status: "OPEN", daysOutside: 2 }]);
    const plan = (
      await t.request<{ version: number }>({
        method: "GET",
        url: `/api/studyplans/${planUuid}`,
        session: admin,
      })
    ).body.data;
    const widen = (after: number) =>
      t.request({
        method: "PUT",
        url: `/api/studyplans/${planUuid}`,
        session: admin,
        payload: {
          ...studyplanInput(study, v, [
            [14, 2, after],
            [42, 3, 3],
          ]),
          uuid: planUuid,
          version: plan.version,
          // It changes a recorded visit's state: confirmed, as the editor's Save anyway does (issue 46).
          confirmWindowChanges: true,
        },
      });
    const wider = await widen(5);
    expect(wider.status, JSON.stringify(wider.body.header)).toBe(200);
    expect(await ofPatient(patient.id)).toMatchObject([{ status: "WITHDRAWN" }]);
    // Back as it was, for the other tests.
    plan.version += 1;
    expect((await widen(2)).status).toBe(200);
  });

  it("writes one automatic deviation per visit and kind, whatever saves run at once", async () => {
    const { patient } = await startedPatient();
    const saves = await Promise.all(
      [19, 20, 21, 22].map((day) =>
        visitsApi.create(
          patientVisitInput(
            { patientId: patient.id, studyId: study.id, visitId: v[1] as number },
            {
              visitDate: `2026-03-${day}`,
            },
          ),
        ),
      ),
    );
    expect(saves.map((s) => s.status)).toEqual([201, 201, 201, 201]);
    const [row] = await queryRows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from protocol_deviations where patient_id = ${patient.id}`,
    );
    expect(row?.n).toBe(1);
    // The latest record counts: 22 Mar, five days late.
    expect(await ofPatient(patient.id)).toMatchObject([{ kind: "OUT_OF_WINDOW", daysOutside: 5 }]);
  });

  it("takes deviations entered by hand, with field errors in the envelope for what does not hold", async () => {
    const { patient } = await startedPatient();
    const refs = { patientId: patient.id, studyId: study.id, visitId: v[1] };
    const created = await deviations.create(protocolDeviationInput(refs, { kind: "INFORMED_CONSENT" }));
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({
      source: "MANUAL",
      kind: "INFORMED_CONSENT",
      siteId: siteA.id,
      status: "OPEN",
      visitName: "Week 2",
    });
    const fieldsOf = async (input: object) => {
      const res = await deviations.create(input);
      expect(res.status).toBe(400);
      return res.body.header.fieldErrors;
    };
    expect(await fieldsOf(protocolDeviationInput(refs, { status: "REPORTED" }))).toEqual([
      { field: "reportedOn", message: "Reported on is required once the deviation is reported" },
    ]);
    expect(await fieldsOf(protocolDeviationInput(refs, { status: "CLOSED" }))).toEqual([
      { field: "closedOn", message: "Closed on is required once the deviation is closed" },
    ]);
    expect((await fieldsOf(protocolDeviationInput(refs, { kind: "LATE_LUNCH" as never })))[0]?.field).toBe(
      "kind",
    );
    expect(await fieldsOf(protocolDeviationInput(refs, { kind: "OUT_OF_WINDOW" }))).toEqual([
      { field: "kind", message: "Trialdesk records this kind by itself; choose another kind" },
    ]);
    expect(await fieldsOf(protocolDeviationInput({ ...refs, visitId: otherStudyVisit }))).toEqual([
      { field: "visitId", message: "This visit does not belong to the study" },
    ]);
    expect(await fieldsOf(protocolDeviationInput(refs, { status: "WITHDRAWN" }))).toEqual([
      { field: "status", message: "Only Trialdesk withdraws a deviation, when its cause goes away" },
    ]);
    // Nothing that happened is deleted.
    const removed = await deviations.remove(created.body.data.uuid, admin);
    expect(removed.status).toBe(409);
    expect(removed.body.header.errorMessage).toBe("A protocol deviation is never deleted: close it instead");
    expect((await deviations.get(created.body.data.uuid)).status).toBe(200);
  });

  it("shows each site's deviations to its staff only, and every one to administrators", async () => {
    const { patient: own } = await startedPatient();
    const mine = (await deviations.create(protocolDeviationInput({ patientId: own.id, studyId: study.id })))
      .body.data;
    const { patient: theirs } = await startedPatient(siteB.id, admin);
    const foreign = await deviations.create(
      protocolDeviationInput({ patientId: theirs.id, studyId: study.id }, { description: "Their secret" }),
      staffB,
    );
    expect(foreign.status).toBe(201);
    const theirUuid = foreign.body.data.uuid;
    // Staff of A: no row, no record, no change, no history, no export line of B's patient.
    const listed = (await deviations.list("pagesize=500")).body.data as ListData<ProtocolDeviationListRow>;
    expect(listed.items.map((d) => d.uuid)).toContain(mine.uuid);
    expect(listed.items.map((d) => d.uuid)).not.toContain(theirUuid);
    expect((await deviations.list(`siteId=${siteB.id}`)).body.data.items).toEqual([]);
    expect((await deviations.list(`patientId=${theirs.id}`)).body.data.items).toEqual([]);
    expect((await deviations.get(theirUuid)).status).toBe(404);
    expect((await deviations.update(theirUuid, { ...foreign.body.data, description: "x" })).status).toBe(404);
    expect((await deviations.remove(theirUuid)).status).toBe(404);
    expect(await history(theirUuid)).toEqual([]);
    const created = await deviations.create(
      protocolDeviationInput({ patientId: theirs.id, studyId: study.id }),
    );
    expect(created.status).toBe(400);
    expect(created.body.header.fieldErrors).toEqual([{ field: "patientId", message: "Patient is required" }]);
    const csv = await t.app.inject({
      method: "GET",
      url: `/api/protocol-deviations/export?${new URLSearchParams({
        columns: JSON.stringify([
          ["patientName", "Patient"],
          ["kind", "Kind"],
          ["status", "Status"],
        ]),
      })}`,
      headers: { authorization: `Bearer ${staffA.accessToken}` },
    });
    expect(csv.statusCode).toBe(200);
    expect(csv.body).not.toContain(theirs.barcode);
    expect(csv.body).toContain(own.barcode);
    // Staff of B see theirs; administrators see both.
    expect((await deviations.get(theirUuid, staffB)).status).toBe(200);
    expect((await deviations.get(mine.uuid, staffB)).status).toBe(404);
    const all = (await deviations.list("pagesize=500", admin)).body.data.items.map((d) => d.uuid);
    expect(all).toEqual(expect.arrayContaining([mine.uuid, theirUuid]));
    // Filters by status and kind; an unknown one is a 400 on the parameter.
    const open = (await deviations.list(`status=OPEN&kind=PROCEDURE&patientId=${own.id}`)).body.data.items;
    expect(open.map((d) => d.uuid)).toEqual([mine.uuid]);
    const bad = await deviations.list("status=LOST");
    expect(bad.status).toBe(400);
    // Nobody signed in: nothing.
    expect((await t.request({ method: "GET", url: "/api/protocol-deviations" })).status).toBe(401);
  });

  it("counts a booking whose day has passed as due or overdue on the worklist, and says so", async () => {
    const { patient } = await startedPatient();
    await record(patient.id, v[1] as number, "2026-03-14", "BOOKED");
    const on = async (asOf: string) =>
      (
        await t.request<WorklistData>({
          method: "GET",
          url: `/api/worklist?siteId=${siteA.id}&asOf=${asOf}&search=${patient.barcode}`,
          session: staffA,
        })
      ).body.data.items.map((r) => [r.visitName, r.state, r.bookingPassed]);
    expect(await on("2026-03-14")).toEqual([["Week 2", "booked", false]]);
    expect(await on("2026-03-15")).toEqual([["Week 2", "due", true]]);
    expect(await on("2026-03-18")).toEqual([["Week 2", "overdue", true]]);
  });
});
