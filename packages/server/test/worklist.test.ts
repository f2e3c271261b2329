import {
  addDays,
  isWordOf,
  type PatientSchedule,
  type Plan,
  type RecordedVisit,
  scheduleVisits,
  stateAsOf,
  type VisitStatus,
  visitStateValues,
  type WorklistData,
  type WorklistRow,
} from "@trialdesk/domain";
import { sql } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../src/db/client";
import {
  rebuildVisitSchedules,
  statePredicates,
  visitStateSql,
} from "../src/resources/visit-schedule/visit-schedule";
import {
  createMonitor,
  createPatient,
  createPatientVisit,
  createSite,
  createStudy,
  createStudyPatient,
  createStudyplan,
  createVisit,
  defaultPassword,
  patientInput,
  patientVisitInput,
  studyPatientInput,
  studyplanInput,
} from "../src/seed/factories";
import {
  databaseKinds,
  type Session,
  startApp,
  type TestApp,
  testConfig,
  twoSites,
  withReason,
} from "./helpers";
import { setUpProject } from "./study-setup";

const { exportBatchRows } = testConfig();

describe.each(databaseKinds)("worklist on %s", (kind) => {
  let t: TestApp;
  let admin: Session;
  let staffA: Session;
  let siteA: { id: number };
  let siteB: { id: number };
  let study: { id: number; uuid: string };
  /** Screening, Week 2, Week 6 */
  let v: number[];
  let planUuid: string;
  let patientA: { id: number; uuid: string; barcode: string };
  let assignmentA: { uuid: string; version: number };

  const worklist = (session: Session, query: string) =>
    t.request<WorklistData>({ method: "GET", url: `/api/worklist?${query}`, session });
  const rowsOf = (data: WorklistData) =>
    data.items.map((r) => [r.visitName, r.state, r.windowStart, r.windowEnd]);

  /** A study of its own project with Screening, Week 2 (day 14 ± 2) and Week 6 (day 42 ± 3) planned. */
  async function plannedStudy(protocolNr: string) {
    const db = t.database.db;
    const project = await setUpProject(t, protocolNr);
    const planned = await createStudy(db, project, { variant: "NORMAL" });
    const visitIds: number[] = [];
    for (const name of ["Screening", "Week 2", "Week 6"])
      visitIds.push((await createVisit(db, planned.id, { name })).id);
    // Through the API, so that the plan's own write keeps the windows in step.
    const plan = await t.request<{ uuid: string }>({
      method: "POST",
      url: "/api/studyplans",
      session: admin,
      payload: studyplanInput(planned, visitIds, [
        [14, 2, 2],
        [42, 3, 3],
      ]),
    });
    expect(plan.status).toBe(201);
    return { study: planned, visitIds, planUuid: plan.body.data.uuid };
  }

  beforeAll(async () => {
    t = await startApp(kind);
    const db = t.database.db;
    ({ siteA, siteB, admin, staffA } = await twoSites(t));
    ({ study, visitIds: v, planUuid } = await plannedStudy("WL-2026-001"));
    patientA = await createPatient(db, siteA.id, {
      patientDetail: { ...patientInput(siteA.id).patientDetail, lastName: "Szigligeti", firstName: "Ede" },
    });
    const created = await t.request<{ uuid: string; version: number }>({
      method: "POST",
      url: "/api/study-patients",
      session: admin,
      payload: studyPatientInput({ patientId: patientA.id, studyId: study.id }, { startDate: "2026-03-01" }),
    });
    expect(created.status).toBe(201);
    assignmentA = created.body.data;
    const patientB = await createPatient(db, siteB.id);
    await createStudyPatient(db, { patientId: patientB.id, studyId: study.id }, { startDate: "2026-03-01" });
  });
  afterAll(() => t.close());

  it("lists what is overdue, due and upcoming within 14 days on a day, by window end, with counts", async () => {
    const res = await worklist(staffA, `siteId=${siteA.id}&asOf=2026-03-14`);
    expect(res.status).toBe(200);
    // Week 6 (window from 9 Apr) opens after the 14-day horizon.
    expect(rowsOf(res.body.data)).toEqual([
      ["Screening", "overdue", "2026-03-01", "2026-03-01"],
      ["Week 2", "due", "2026-03-13", "2026-03-17"],
    ]);
    expect(res.body.data.counts).toEqual({
      overdue: 1,
      due: 1,
      booked: 0,
      upcoming: 0,
      unscheduled: 0,
      missed: 0,
      "deviations-open": 0,
    });
    expect(res.body.data.pagination).toEqual({ page: 1, pageSize: 20, total: 2 });
    // The rows carry only their own fields; a page past the end still tells the counts.
    expect(Object.keys(res.body.data.items[0]).some((key) => key.startsWith("count"))).toBe(false);
    const past = await worklist(staffA, `siteId=${siteA.id}&asOf=2026-03-14&page=2&pagesize=2`);
    expect(past.body.data.items).toEqual([]);
    expect(past.body.data.counts).toEqual(res.body.data.counts);
    expect(past.body.data.pagination.total).toBe(2);
    const row = res.body.data.items[0] as WorklistRow;
    expect(row).toMatchObject({
      patientUuid: patientA.uuid,
      studyUuid: study.uuid,
      visitId: v[0],
      expectedDate: "2026-03-01",
      patientVisitUuid: null,
    });
    // A later `to` shows the third visit as upcoming.
    const further = await worklist(staffA, `siteId=${siteA.id}&asOf=2026-03-14&to=2026-05-01`);
    expect(further.body.data.counts.upcoming).toBe(1);
  });

  it("finds every typed word in the patient, the study or the visit, and nothing for a word that matches none", async () => {
    const search = async (words: string) =>
      (await worklist(staffA, `siteId=${siteA.id}&asOf=2026-03-14&search=${encodeURIComponent(words)}`)).body
        .data;
    const visitsOf = (data: WorklistData) => data.items.map((row) => row.visitName);
    expect(visitsOf(await search("szigl"))).toEqual(["Screening", "Week 2"]);
    expect(visitsOf(await search(patientA.barcode.toLowerCase()))).toEqual(["Screening", "Week 2"]);
    // Words in turn: the patient's name and the visit's.
    expect(visitsOf(await search("Ede week"))).toEqual(["Week 2"]);
    // Without the accents the patient's name has, or with others.
    expect(visitsOf(await search("SZIGLIGETI ÉDE"))).toEqual(["Screening", "Week 2"]);
    expect(visitsOf(await search("Screening Szigligeti"))).toEqual(["Screening"]);
    const none = await search("Szigligeti Nobody");
    expect(none.items).toEqual([]);
    expect(Object.values(none.counts).every((n) => n === 0)).toBe(true);
    // A typed % is a character, not a wildcard.
    expect((await search("%%")).items).toEqual([]);
  });

  it("finds visits by whole words of their names, patients by screen number, and leaves one-letter words out (issue 46, point 8)", async () => {
    const db = t.database.db;
    const site = await createSite(db);
    const planned = await createStudy(db, await setUpProject(t, "WL-2026-WORDS"), { variant: "NORMAL" });
    const names = ["Screening", "Week 2", "Week 12", "Week 120"];
    const ids: number[] = [];
    for (const name of names) ids.push((await createVisit(db, planned.id, { name })).id);
    await createStudyplan(db, planned.id, ids, [
      [14, 2, 2],
      [84, 3, 3],
      [840, 5, 5],
    ]);
    // Every patient's phone (+36 30 123 4567) holds "12": that must not make Week 2 a Week 12.
    const enrol = async (lastName: string, screenNr: string) => {
      const patient = await createPatient(db, site.id, {
        patientDetail: { ...patientInput(site.id).patientDetail, lastName, firstName: "Béla" },
      });
      await createStudyPatient(
        db,
        { patientId: patient.id, studyId: planned.id },
        { screenNr, startDate: "2026-03-01" },
      );
      return patient;
    };
    await enrol("Számozott", "Q-4711");
    await enrol("Másik", "Q-4712");
    const staffOf = await t.signedInUser({ siteIds: [site.id] });
    const search = async (words: string) => {
      const res = await worklist(
        staffOf,
        `siteId=${site.id}&asOf=2026-03-14&to=2029-12-31&search=${encodeURIComponent(words)}`,
      );
      expect(res.status, words).toBe(200);
      return res.body.data.items.map((row) => `${row.patientName.split(" ")[0]} ${row.visitName}`);
    };
    expect(await search("Week 12")).toEqual(["Számozott Week 12", "Másik Week 12"]);
    expect(await search("week 2")).toEqual(["Számozott Week 2", "Másik Week 2"]);
    expect(await search("120")).toEqual(["Számozott Week 120", "Másik Week 120"]);
    // The domain's rule says which names have the word.
    expect(names.filter((name) => isWordOf(name, "12"))).toEqual(["Week 12"]);
    expect(await search("Szamozott Week 12")).toEqual(["Számozott Week 12"]);
    // The screen number, whole or in part, and the column beside the patient.
    expect(await search("q-4711")).toEqual(names.map((name) => `Számozott ${name}`));
    expect(await search("4712 screening")).toEqual(["Másik Screening"]);
    const row = (await worklist(staffOf, `siteId=${site.id}&asOf=2026-03-14&search=Q-4711`)).body.data
      .items[0];
    expect(row?.screenNr).toBe("Q-4711");
    // A word of one character that names no visit is left out, not looked for in every patient.
    expect(await search("Számozott % x")).toEqual(names.map((name) => `Számozott ${name}`));
    expect((await search("x")).length).toBe(8);
  });

  it("takes a recorded visit off the list and moves the windows from it", async () => {
    const done = await t.request<{ uuid: string }>({
      method: "POST",
      url: "/api/patient-visits",
      session: staffA,
      payload: patientVisitInput(
        { patientId: patientA.id, studyId: study.id, visitId: v[0] as number },
        { visitDate: "2026-03-04" },
      ),
    });
    expect(done.status).toBe(201);
    const res = await worklist(staffA, `siteId=${siteA.id}&asOf=2026-03-14&to=2026-05-01`);
    // Day 0 is now the screening's date: Week 2 expected on 18 Mar, not yet open on the 14th.
    expect(rowsOf(res.body.data)).toEqual([
      ["Week 2", "upcoming", "2026-03-16", "2026-03-20"],
      ["Week 6", "upcoming", "2026-04-12", "2026-04-18"],
    ]);
    // Booked outside its window: booked, and flagged.
    const booked = await t.request({
      method: "POST",
      url: "/api/patient-visits",
      session: staffA,
      payload: patientVisitInput(
        { patientId: patientA.id, studyId: study.id, visitId: v[1] as number },
        { visitDate: "2026-03-25", visitStatus: "BOOKED", visitResult: null },
      ),
    });
    expect(booked.status).toBe(201);
    const after = await worklist(staffA, `siteId=${siteA.id}&asOf=2026-03-14&state=booked`);
    expect(
      after.body.data.items.map((r) => [r.visitName, r.state, r.bookedOutsideWindow, r.visitDate]),
    ).toEqual([["Week 2", "booked", true, "2026-03-25"]]);
    // Counts ignore the state filter.
    expect(after.body.data.counts).toMatchObject({ booked: 1, upcoming: 0 });
    const detail = await t.request<{ visits: Record<string, { state: string; windowStart: string }> }>({
      method: "GET",
      url: `/api/patient-visit-detail?patientId=${patientA.id}&studyId=${study.id}`,
      session: staffA,
    });
    // Today (the detail's day) the booked day has long passed without an outcome: not done.
    expect(detail.body.data.visits[String(v[1])]).toMatchObject({
      sequence: 2,
      windowStart: "2026-03-16",
      windowEnd: "2026-03-20",
      state: "overdue",
      bookedOutsideWindow: true,
      bookingPassed: true,
    });
  });

  it("follows the plan's calculation mode when the plan changes", async () => {
    const plan = await t.request<Record<string, unknown>>({
      method: "GET",
      url: `/api/studyplans/${planUuid}`,
      session: admin,
    });
    const saved = await t.request({
      method: "PUT",
      url: `/api/studyplans/${planUuid}`,
      session: admin,
      payload: { ...plan.body.data, calculationMode: "previous", studyName: undefined },
    });
    expect(saved.status).toBe(200);
    const res = await worklist(staffA, `siteId=${siteA.id}&asOf=2026-03-14&to=2026-06-30`);
    // Week 6 now counts 42 days from Week 2's booking-free expected date (18 Mar): 29 Apr.
    expect(res.body.data.items.find((r) => r.visitName === "Week 6")).toMatchObject({
      expectedDate: "2026-04-29",
      windowStart: "2026-04-26",
    });
  });

  it("keeps every window right when visits of one patient's study are saved at the same moment", async () => {
    // Each save rebuilds the assignment's windows from the visits it reads; saves that overlap must
    // take turns and read each other's visits, or the last one would store windows without the others.
    const stored = (assignmentId: number) =>
      queryRows<{
        visitId: number;
        patientVisitId: number | null;
        kind: string;
        expectedDate: string | null;
      }>(
        t.database.db,
        sql`select visit_id as "visitId", patient_visit_id as "patientVisitId", kind,
            expected_date::text as "expectedDate"
          from visit_schedule where study_patient_id = ${assignmentId} order by visit_id`,
      );
    // A study of its own, whose plan no other test changes; every visit is recorded, so none of its
    // windows joins the site's worklist that other tests read.
    const own = await plannedStudy("WL-2026-002");
    for (let round = 0; round < 4; round++) {
      const patient = await createPatient(t.database.db, siteA.id);
      const assignment = await createStudyPatient(
        t.database.db,
        { patientId: patient.id, studyId: own.study.id },
        { startDate: "2026-03-01" },
      );
      const saves = await Promise.all(
        ["2026-03-02", "2026-03-17", "2026-04-14"].map((visitDate, i) =>
          t.request<{ id: number }>({
            method: "POST",
            url: "/api/patient-visits",
            session: staffA,
            payload: patientVisitInput(
              { patientId: patient.id, studyId: own.study.id, visitId: own.visitIds[i] as number },
              { visitDate, visitStatus: "COMPLETED" },
            ),
          }),
        ),
      );
      expect(saves.map((res) => res.status)).toEqual([201, 201, 201]);
      const rows = await stored(assignment.id);
      expect(rows.map((row) => [row.visitId, row.patientVisitId, row.kind])).toEqual(
        saves.map((res, i) => [own.visitIds[i], res.body.data.id, "done"]),
      );
      // Day 0 is the screening's date, whichever save came last.
      expect(rows.map((row) => row.expectedDate)).toEqual(["2026-03-02", "2026-03-16", "2026-04-13"]);
    }
  });

  it("keeps the stored windows equal to a whole rebuild through creates, changes, moves and deletes", async () => {
    // A save computes its patient's windows from the recorded visits before and after it, not from the
    // stored rows (decision 169): a whole rebuild, which compares with the stored rows, finds nothing
    // to change after any of them.
    const db = t.database.db;
    const own = await plannedStudy("WL-2026-003");
    const other = await plannedStudy("WL-2026-004");
    const unplanned = (await createVisit(db, own.study.id, { name: "Unplanned" })).id;
    // "previous": a recorded date moves the later windows too, so one save changes several rows.
    const plan = await t.request<Record<string, unknown>>({
      method: "GET",
      url: `/api/studyplans/${own.planUuid}`,
      session: admin,
    });
    const mode = await t.request({
      method: "PUT",
      url: `/api/studyplans/${own.planUuid}`,
      session: admin,
      payload: { ...plan.body.data, calculationMode: "previous", studyName: undefined },
    });
    expect(mode.status).toBe(200);
    // At a site of its own, so that its open windows stay off the worklists other tests read.
    const site = await createSite(db);
    const first = await createPatient(db, site.id);
    const second = await createPatient(db, site.id);
    const assignments: { id: number }[] = [];
    for (const [patient, planned] of [
      [first, own],
      [first, other],
      [second, own],
    ] as const)
      assignments.push(
        await createStudyPatient(
          db,
          { patientId: patient.id, studyId: planned.study.id },
          { startDate: "2026-03-01" },
        ),
      );

    const snapshot = () =>
      queryRows(
        db,
        sql`select study_patient_id, visit_id, sequence, expected_date::text, window_start::text,
            window_end::text, kind, booked_outside_window, patient_visit_id, visit_date::text, visit_status,
            site_id, active
          from visit_schedule where study_id in (${own.study.id}, ${other.study.id})
          order by study_patient_id, visit_id`,
      );
    /** The stored rows, once a whole rebuild has been checked to leave them as they are. */
    const rebuildChangesNothing = async (step: string) => {
      const stored = await snapshot();
      await rebuildVisitSchedules(db, { all: true });
      expect(await snapshot(), step).toEqual(stored);
      return stored;
    };
    const save = async (
      step: string,
      refs: { patientId: number; studyId: number; visitId: number },
      overrides: Record<string, unknown>,
      saved?: { uuid: string; version: number },
    ) => {
      const res = await t.request<{ uuid: string; version: number }>({
        method: saved ? "PUT" : "POST",
        url: saved ? `/api/patient-visits/${saved.uuid}` : "/api/patient-visits",
        session: admin,
        headers: withReason(),
        payload: { ...patientVisitInput(refs, overrides), ...saved },
      });
      expect(res.status, `${step}: ${JSON.stringify(res.body)}`).toBe(saved ? 200 : 201);
      await rebuildChangesNothing(step);
      return res.body.data;
    };

    const mine = { patientId: first.id, studyId: own.study.id };
    await save(
      "screening done",
      { ...mine, visitId: own.visitIds[0] as number },
      { visitDate: "2026-03-03" },
    );
    let week2 = await save(
      "week 2 done",
      { ...mine, visitId: own.visitIds[1] as number },
      { visitDate: "2026-03-20" },
    );
    week2 = await save(
      "week 2 a day later",
      { ...mine, visitId: own.visitIds[1] as number },
      { visitDate: "2026-03-21" },
      week2,
    );
    week2 = await save(
      "week 2 only booked",
      { ...mine, visitId: own.visitIds[1] as number },
      { visitDate: "2026-03-24", visitStatus: "BOOKED", visitResult: null },
      week2,
    );
    await save(
      "a visit the plan does not hold",
      { ...mine, visitId: unplanned },
      { visitDate: "2026-03-05" },
    );
    week2 = await save(
      "moved to the other study",
      { patientId: first.id, studyId: other.study.id, visitId: other.visitIds[1] as number },
      { visitDate: "2026-03-24" },
      week2,
    );
    week2 = await save(
      "moved to another patient",
      { patientId: second.id, studyId: own.study.id, visitId: own.visitIds[1] as number },
      { visitDate: "2026-03-26" },
      week2,
    );
    const removed = await t.request({
      method: "DELETE",
      url: `/api/patient-visits/${week2.uuid}`,
      session: admin,
      headers: withReason(),
    });
    expect(removed.status).toBe(200);
    const stored = await rebuildChangesNothing("deleted");
    // And they are the plan's: the first patient's Week 2 14 days after the screening's 3 March, and
    // Week 6 42 days after Week 2's expected date, now that no recorded Week 2 anchors it.
    expect(
      stored
        .filter((row) => row.study_patient_id === assignments[0]?.id && row.sequence !== null)
        .map((row) => [row.visit_id, row.expected_date, row.kind]),
    ).toEqual([
      [own.visitIds[0], "2026-03-03", "done"],
      [own.visitIds[1], "2026-03-17", "open"],
      [own.visitIds[2], "2026-04-28", "open"],
    ]);
  });

  it("drops a closed assignment's visits", async () => {
    const closed = await t.request({
      method: "PUT",
      url: `/api/study-patients/${assignmentA.uuid}`,
      session: staffA,
      headers: withReason(),
      payload: {
        ...studyPatientInput({ patientId: patientA.id, studyId: study.id }),
        uuid: assignmentA.uuid,
        version: assignmentA.version,
        startDate: "2026-03-01",
        active: false,
        closeReason: "EOS",
        screenNr: null,
      },
    });
    expect(closed.status).toBe(200);
    const res = await worklist(staffA, `siteId=${siteA.id}&asOf=2026-03-14&to=2026-06-30`);
    expect(res.body.data.items).toEqual([]);
    expect(res.body.data.pagination.total).toBe(0);
  });

  it("keeps each site's worklist to its staff: another site's id answers an empty list", async () => {
    const own = await worklist(staffA, "asOf=2026-03-14");
    expect(own.body.data.items.every((r) => r.patientId === patientA.id)).toBe(true);
    const foreign = await worklist(staffA, `siteId=${siteB.id}&asOf=2026-03-14`);
    expect(foreign.status).toBe(200);
    expect(foreign.body.data.items).toEqual([]);
    expect(Object.values(foreign.body.data.counts).every((n) => n === 0)).toBe(true);
    const all = await worklist(admin, `siteId=${siteB.id}&asOf=2026-03-14`);
    expect(all.body.data.items.length).toBeGreaterThan(0);
    expect((await t.request({ method: "GET", url: "/api/worklist" })).status).toBe(401);
  });

  it("exports dates as ISO dates, the window in columns of its own beside the expected date, a booking's notes apart (issue 46, point 10)", async () => {
    const db = t.database.db;
    const site = await createSite(db);
    const planned = await plannedStudy("WL-2026-CSV");
    const patient = await createPatient(db, site.id, {
      patientDetail: { ...patientInput(site.id).patientDetail, lastName: "Táblázat", firstName: "Ilona" },
    });
    await createStudyPatient(
      db,
      { patientId: patient.id, studyId: planned.study.id },
      { startDate: "2026-03-01" },
    );
    // Week 2's window is 13–17 March: booked for the 25th, outside it.
    const booked = await t.request({
      method: "POST",
      url: "/api/patient-visits",
      session: admin,
      payload: patientVisitInput(
        { patientId: patient.id, studyId: planned.study.id, visitId: planned.visitIds[1] as number },
        { visitDate: "2026-03-25", visitStatus: "BOOKED", visitResult: null },
      ),
    });
    expect(booked.status).toBe(201);
    // The screen's columns, as its Export CSV sends them.
    const screenColumns = [
      ["patientName", "Patient"],
      ["visitName", "Visit"],
      ["windowEnd", "Window"],
      ["expectedDate", "Expected"],
      ["state", "State"],
      ["visitDate", "Booked for"],
    ];
    const exported = async (asOf: string, columns = screenColumns) => {
      const res = await t.app.inject({
        method: "GET",
        url: `/api/worklist/export?${new URLSearchParams({ siteId: String(site.id), asOf, to: "2026-05-01", columns: JSON.stringify(columns) })}`,
        headers: { authorization: `Bearer ${admin.accessToken}` },
      });
      expect(res.statusCode).toBe(200);
      return res.body
        .replace(/^\uFEFF/, "")
        .split("\r\n")
        .filter(Boolean)
        .map((line) => line.split(","));
    };
    const name = `Táblázat Ilona (${patient.barcode})`;
    expect(await exported("2026-03-14")).toEqual([
      [
        "Patient",
        "Visit",
        "Window start",
        "Window end",
        "Expected",
        "State",
        "Booked for",
        "Booked time",
        "Booking note",
      ],
      [name, "Screening", "2026-03-01", "2026-03-01", "2026-03-01", "Overdue", "", "", ""],
      [
        name,
        "Week 2",
        "2026-03-13",
        "2026-03-17",
        "2026-03-15",
        "Booked",
        "2026-03-25",
        "09:30",
        "Outside the planned window",
      ],
      [name, "Week 6", "2026-04-09", "2026-04-15", "2026-04-12", "Upcoming", "", "", ""],
    ]);
    // Its day passed without an outcome: overdue, the booking's date and both notes kept.
    const passed = await exported("2026-03-26");
    expect(passed[2]).toEqual([
      name,
      "Week 2",
      "2026-03-13",
      "2026-03-17",
      "2026-03-15",
      "Overdue",
      "2026-03-25",
      "09:30",
      "Outside the planned window. Booked date passed: record the outcome",
    ]);
    // Asked by their own keys, the window's ends are one column each under the titles given.
    expect(
      await exported("2026-03-14", [
        ["visitName", "Visit"],
        ["windowStart", "From"],
        ["windowEnd", "To"],
        ["visitDate", "Date"],
        ["bookingNote", "Note"],
      ]),
    ).toEqual([
      ["Visit", "From", "To", "Date", "Note"],
      ["Screening", "2026-03-01", "2026-03-01", "", ""],
      ["Week 2", "2026-03-13", "2026-03-17", "2026-03-25", "Outside the planned window"],
      ["Week 6", "2026-04-09", "2026-04-15", "", ""],
    ]);
  });

  it("orders by the booked date and time, shows them, marks inactive patients and exports in that order past a batch (issue 46, point 8)", async () => {
    const db = t.database.db;
    const site = await createSite(db);
    const planned = await plannedStudy("WL-2026-ORDER");
    // More rows than an export reads at a time (three a patient), nearly all without a booked date,
    // so a batch ends among the rows without one, ascending (nulls last) and descending (first).
    const patients: { id: number; barcode: string }[] = [];
    for (let i = 0; i < Math.ceil(exportBatchRows / 3) + 5; i++) {
      const patient = await createPatient(
        db,
        site.id,
        i === 0 ? { status: 2, statusDetails: "Moved away" } : {},
      );
      await createStudyPatient(
        db,
        { patientId: patient.id, studyId: planned.study.id },
        { startDate: "2026-03-01" },
      );
      patients.push(patient as { id: number; barcode: string });
    }
    // Week 2 (13–17 March) booked for four of them, two on one day by the hour, one without an hour.
    const bookings: [number, string, string | null][] = [
      [1, "2026-03-16", "10:30"],
      [2, "2026-03-16", null],
      [3, "2026-03-15", null],
      [4, "2026-03-16", "09:00"],
    ];
    for (const [i, visitDate, visitTime] of bookings) {
      const res = await t.request({
        method: "POST",
        url: "/api/patient-visits",
        session: admin,
        payload: patientVisitInput(
          {
            patientId: patients[i]?.id as number,
            studyId: planned.study.id,
            visitId: planned.visitIds[1] as number,
          },
          { visitDate, visitTime, visitStatus: "BOOKED", visitResult: null },
        ),
      });
      expect(res.status).toBe(201);
    }
    const base = `siteId=${site.id}&asOf=2026-03-14&to=2026-05-01`;
    const booked = async (direction: string) =>
      (
        await worklist(admin, `${base}&state=booked&order=visitDate&direction=${direction}`)
      ).body.data.items.map((row) => [row.barcode, row.visitDate, row.visitTime]);
    const ascending = [
      [patients[3]?.barcode, "2026-03-15", null],
      [patients[4]?.barcode, "2026-03-16", "09:00"],
      [patients[1]?.barcode, "2026-03-16", "10:30"],
      [patients[2]?.barcode, "2026-03-16", null],
    ];
    expect(await booked("asc")).toEqual(ascending);
    expect(await booked("desc")).toEqual([...ascending].reverse());
    // The patient's status rides along: any but 1 is inactive.
    const first = await worklist(admin, `${base}&search=${patients[0]?.barcode}`);
    expect(first.body.data.items.map((row) => row.patientStatus)).toEqual([2, 2, 2]);
    expect(
      (await worklist(admin, `${base}&search=${patients[1]?.barcode}`)).body.data.items[0]?.patientStatus,
    ).toBe(1);

    /** Every page of the list, in turn, as the export's barcode and visit. */
    const listed = async (query: string) => {
      const keys: string[] = [];
      for (let page = 1; ; page++) {
        const res = await worklist(admin, `${base}&${query}&pagesize=200&page=${page}`);
        keys.push(...res.body.data.items.map((row) => `${row.barcode} ${row.visitName}`));
        if (res.body.data.items.length < 200) return keys;
      }
    };
    for (const direction of ["asc", "desc"]) {
      const res = await t.app.inject({
        method: "GET",
        url: `/api/worklist/export?${base}&order=visitDate&direction=${direction}&columns=${encodeURIComponent(
          JSON.stringify([
            ["barcode", "Barcode"],
            ["visitName", "Visit"],
            ["visitDate", "Booked for"],
          ]),
        )}`,
        headers: { authorization: `Bearer ${admin.accessToken}` },
      });
      expect(res.statusCode).toBe(200);
      const lines = res.body
        .replace(/^\uFEFF/, "")
        .split("\r\n")
        .filter(Boolean)
        .map((line) => line.split(","));
      // Booked for is followed by its hour and the booking's notes.
      expect(lines[0]).toEqual(["Barcode", "Visit", "Booked for", "Booked time", "Booking note"]);
      const rows = lines.slice(1);
      expect(rows.length).toBeGreaterThan(exportBatchRows);
      expect(rows.map((row) => `${row[0]} ${row[1]}`)).toEqual(
        await listed(`order=visitDate&direction=${direction}`),
      );
      const bookedRows = rows.filter((row) => row[2]);
      expect(bookedRows.map((row) => [row[0], row[2], row[3] || null])).toEqual(
        direction === "asc" ? ascending : [...ascending].reverse(),
      );
    }
  }, 120_000);

  it("takes a date range: bookings by their booked date, other visits by their window (issue 46, point 8)", async () => {
    const db = t.database.db;
    const site = await createSite(db);
    const planned = await plannedStudy("WL-2026-RANGE");
    const patient = await createPatient(db, site.id);
    await createStudyPatient(
      db,
      { patientId: patient.id, studyId: planned.study.id },
      { startDate: "2026-03-01" },
    );
    // Week 6's window is 9–15 April; it is booked for 20 May, outside it.
    const res = await t.request({
      method: "POST",
      url: "/api/patient-visits",
      session: admin,
      payload: patientVisitInput(
        { patientId: patient.id, studyId: planned.study.id, visitId: planned.visitIds[2] as number },
        { visitDate: "2026-05-20", visitTime: "08:15", visitStatus: "BOOKED", visitResult: null },
      ),
    });
    expect(res.status).toBe(201);
    const visitsOf = async (range: string) =>
      (await worklist(admin, `siteId=${site.id}&asOf=2026-03-14${range}`)).body.data.items.map((row) => [
        row.visitName,
        row.state,
      ]);
    // The 14 days ahead: the booking is further.
    expect(await visitsOf("")).toEqual([
      ["Screening", "overdue"],
      ["Week 2", "due"],
    ]);
    // The week of 18 May: its appointment, nothing else.
    expect(await visitsOf("&from=2026-05-18&to=2026-05-24")).toEqual([["Week 6", "booked"]]);
    // The week of 16 March: Week 2's window reaches into it; the booking is not that week.
    expect(await visitsOf("&from=2026-03-16&to=2026-03-22")).toEqual([["Week 2", "due"]]);
  });

  it("shows a patient's assignments with their visit schedules, scoped as the patients are (issue 46, point 11)", async () => {
    const db = t.database.db;
    const planned = await plannedStudy("WL-2026-SCHED");
    const other = await plannedStudy("WL-2026-SCHED2");
    const patient = await createPatient(db, siteA.id);
    await createStudyPatient(
      db,
      { patientId: patient.id, studyId: planned.study.id },
      { startDate: "2026-03-01", screenNr: "SCH-1" },
    );
    await createStudyPatient(
      db,
      { patientId: patient.id, studyId: other.study.id },
      { startDate: "2026-01-01", active: false, closeReason: "EOS", closeDate: "2026-02-01" },
    );
    await createPatientVisit(
      db,
      { patientId: patient.id, studyId: planned.study.id, visitId: planned.visitIds[0] as number },
      { visitDate: "2026-03-02", visitTime: "11:45" },
    );
    const schedule = (session: Session | undefined, patientId = patient.id) =>
      t.request<PatientSchedule>({
        method: "GET",
        url: `/api/worklist/schedule?patientId=${patientId}&asOf=2026-03-15`,
        session,
      });
    const res = await schedule(staffA);
    expect(res.status).toBe(200);
    const [active, closed] = res.body.data.assignments;
    expect(active).toMatchObject({
      studyName: expect.any(String),
      screenNr: "SCH-1",
      active: true,
      startDate: "2026-03-01",
    });
    // Every state, the visit done too, with its record; day 0 is the screening's date.
    expect(
      active?.rows.map((row) => [
        row.visitName,
        row.windowStart,
        row.windowEnd,
        row.state,
        row.visitDate,
        row.visitTime,
      ]),
    ).toEqual([
      ["Screening", "2026-03-02", "2026-03-02", "done", "2026-03-02", "11:45"],
      ["Week 2", "2026-03-14", "2026-03-18", "due", null, null],
      ["Week 6", "2026-04-10", "2026-04-16", "upcoming", null, null],
    ]);
    expect(active?.rows[0]?.patientVisitUuid).toMatch(/^pv-/);
    // Closed on 1 February: the visits whose windows had passed by then are missed, the later one
    // not applicable.
    expect(closed).toMatchObject({ active: false });
    expect(closed?.rows.map((row) => row.state)).toEqual(["missed", "missed", "not-applicable"]);

    expect((await schedule(admin)).body.data).toEqual(res.body.data);
    // Another site's staff: not found, as the patient itself is.
    const staffB = await t.signedInUser({ siteIds: [siteB.id] });
    expect((await schedule(staffB)).status).toBe(404);
    expect((await schedule(staffA, 2_000_000)).status).toBe(404);
    // A monitor never sees a patient's identity here, as on the whole worklist.
    const m = await createMonitor(db, { password: defaultPassword, password2: defaultPassword });
    const monitor = await t.signIn(m.email, defaultPassword);
    expect((await schedule(monitor)).status).toBe(403);
    expect(
      (await t.request({ method: "GET", url: `/api/worklist?siteId=${siteA.id}`, session: monitor })).status,
    ).toBe(403);
    expect((await schedule(undefined)).status).toBe(401);
    expect(
      (await t.request({ method: "GET", url: "/api/worklist/schedule?patientId=abc", session: admin }))
        .status,
    ).toBe(400);
  });

  it("refuses bad days, states and parameters with field errors", async () => {
    for (const [query, field] of [
      ["asOf=2026-02-30", "asOf"],
      ["asOf=yesterday", "asOf"],
      ["state=due,late", "state"],
      ["to=2026-13-01", "to"],
      ["pagesize=0", "pagesize"],
      ["siteId=abc", "siteId"],
      ["color=red", "color"],
    ]) {
      const res = await worklist(admin, query);
      expect(res.status, query).toBe(400);
      expect(res.body.header.fieldErrors.map((e) => e.field)).toContain(field);
    }
  });

  it("property: the SQL state of every stored row equals the domain engine's on any day", async () => {
    const db = t.database.db;
    const site = await createSite(db);
    const statuses: VisitStatus[] = ["BOOKED", "CANCELLED", "NO_SHOW", "ARRIVED", "COMPLETED"];
    let run = 0;
    let visitIds: number[] = [];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom<Plan["calculationMode"]>("default", "previous"),
        fc.array(fc.tuple(fc.nat(90), fc.nat(9), fc.nat(9)), { minLength: 1, maxLength: 4 }),
        fc.option(fc.integer({ min: 0, max: 60 }), { nil: null }),
        fc.boolean(),
        // Several records of a visit too (issue 43); none before the start, which a save refuses.
        fc.array(fc.tuple(fc.nat(4), fc.integer({ min: 0, max: 200 }), fc.constantFrom(...statuses))),
        fc.array(fc.integer({ min: -20, max: 260 }), { minLength: 1, maxLength: 4 }),
        async (mode, steps, startOffset, active, recordedRaw, asOfOffsets) => {
          // A study of its own per run, with five visits and the run's plan over the first ones.
          const s = await createStudy(db, await setUpProject(t, `WL-P-${run}`), { variant: "NORMAL" });
          run++;
          visitIds = [];
          for (let i = 0; i < 5; i++) visitIds.push((await createVisit(db, s.id, { name: `V${i}` })).id);
          const planVisits = visitIds.slice(0, steps.length + 1);
          await createStudyplan(db, s.id, planVisits, steps, mode);
          const patient = await createPatient(db, site.id);
          const start = startOffset === null ? null : addDays("2026-01-01", startOffset);
          const assignment = await createStudyPatient(
            db,
            { patientId: patient.id, studyId: s.id },
            active ? { startDate: start } : { startDate: start, active: false, closeReason: "EOS" },
          );
          const recorded: RecordedVisit[] = [];
          for (const [index, offset, status] of recordedRaw) {
            const visitId = visitIds[index] as number;
            const visitDate = addDays(start ?? "2026-01-01", offset);
            const saved = await createPatientVisit(
              db,
              { patientId: patient.id, studyId: s.id, visitId },
              { visitDate, visitStatus: status, visitResult: status === "COMPLETED" ? "OK" : null },
            );
            recorded.push({ id: saved.id as number, visitId, visitDate, visitStatus: status });
          }
          const plan: Plan = {
            calculationMode: mode,
            schedule: studyplanInput({ id: s.id }, planVisits, steps).schedule,
          };
          const closeDate = (assignment.closeDate as string | null) ?? null;
          const expected = scheduleVisits(plan, { startDate: start, active, closeDate }, recorded);
          // Random days, and each window's edges and the days just outside them.
          const edges = expected.flatMap((row) =>
            row.windowStart && row.windowEnd
              ? [row.windowStart, row.windowEnd, addDays(row.windowStart, -1), addDays(row.windowEnd, 1)]
              : [],
          );
          for (const asOf of [...asOfOffsets.map((o) => addDays("2026-01-01", o)), ...edges]) {
            // The state, and every state whose condition holds (exactly the one state).
            const is = statePredicates(asOf);
            const holding = sql.join(
              visitStateValues.map((state) => sql`case when ${is[state]} then ${state} end`),
              sql`, `,
            );
            const stored = await queryRows<{
              visitId: number;
              state: string;
              holding: string[];
              windowStart: string | null;
            }>(
              db,
              sql`select vs.visit_id as "visitId", ${visitStateSql(asOf)} as state,
                  array_remove(array[${holding}]::text[], null) as holding, vs.window_start::text as "windowStart"
                from visit_schedule vs where vs.study_patient_id = ${assignment.id} order by vs.visit_id`,
            );
            const engine = expected
              .map((row) => ({
                visitId: row.visitId,
                state: stateAsOf(row, asOf),
                holding: [stateAsOf(row, asOf)],
                windowStart: row.windowStart,
              }))
              .sort((a, b) => a.visitId - b.visitId);
            expect(stored).toEqual(engine);
          }
        },
      ),
      { numRuns: 15 },
    );
  }, 120_000);
});
