import {
  type CompactVisitSummary,
  decodeVisitSummary,
  newUuid,
  stateAsOf,
  type VisitKind,
  type VisitSummary,
  visitSummaryDayZero,
} from "@trialdesk/domain";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Db, queryRows } from "../src/db/client";
import { patientVisits } from "../src/resources/patient-visits/patient-visits.table";
import { studyPatients } from "../src/resources/study-patients/study-patients.table";
import { rebuildVisitSchedules } from "../src/resources/visit-schedule/visit-schedule";
import { visitSummaryOutdated } from "../src/resources/visit-summary/visit-summary.routes";
import {
  createMonitor,
  createMonitorAssignment,
  createPartner,
  createPatient,
  createPatientVisit,
  createProject,
  createSite,
  createStudy,
  createStudyPatient,
  createStudyplan,
  createTherapyArea,
  createTherapyCategory,
  createVisit,
  defaultPassword,
  patientInput,
} from "../src/seed/factories";
import { bulkLoad, databaseKinds, type Session, startApp, type TestApp } from "./helpers";
import { setUpProject } from "./study-setup";

/** An assignment of a patient to a study, written directly (the study-patients factory may not exist yet). */
async function assign(db: Db, studyId: number, patientId: number, screenNr: string | null, active = true) {
  await db.insert(studyPatients).values({
    uuid: newUuid("study-patients"),
    studyId,
    patientId,
    screenNr,
    active,
    closeReason: active ? null : "CANCELLED",
  });
}

async function visit(db: Db, patientId: number, studyId: number, visitId: number, visitDate: string | null) {
  await db
    .insert(patientVisits)
    .values({ uuid: newUuid("patient-visits"), patientId, studyId, visitId, visitDate });
}

describe.each(databaseKinds)("patient visit summary on %s", (kind) => {
  let t: TestApp;
  let admin: Session;
  let staffA: Session;
  let staffB: Session;
  let nobody: Session;
  let study: { id: number; uuid: string };
  let other: { id: number; uuid: string };
  // The study's visits, created in this order: Screening, Randomisation, Week 4, Phone call.
  let v: number[];
  let patient: Record<"a1" | "a2" | "b1" | "unassigned", { id: number; barcode: string }>;

  beforeAll(async () => {
    t = await startApp(kind);
    const db = t.database.db;
    const siteA = await createSite(db);
    const siteB = await createSite(db);
    admin = await t.signedInUser({ isAdmin: true });
    staffA = await t.signedInUser({ siteIds: [siteA.id] });
    staffB = await t.signedInUser({ siteIds: [siteB.id] });
    nobody = await t.signedInUser({});
    const project = await setUpProject(t, "VS-2025-001");
    study = await createStudy(db, project, { variant: "NORMAL" });
    other = await createStudy(db, project, { variant: "SUB-STUDY" });
    v = [];
    for (const [name, visitTypeId] of [
      ["Screening", 20],
      ["Randomisation", 50],
      ["Week 4", 60],
      ["Phone call", 110],
    ] as const)
      v.push((await createVisit(db, study.id, { name, visitTypeId })).id);
    const otherVisit = await createVisit(db, other.id, { name: "Elsewhere" });
    // The plan uses Week 4, then Screening; Randomisation and Phone call are not in it.
    await createStudyplan(db, study.id, [v[2], v[0]], [[14, 1, 1]]);

    const named = (firstName: string, lastName: string) => ({
      patientDetail: { ...patientInput(null).patientDetail, firstName, lastName },
    });
    patient = {
      a1: await createPatient(db, siteA.id, named("Anna", "Kiss")),
      a2: await createPatient(db, siteA.id, named("Béla", "Nagy")),
      b1: await createPatient(db, siteB.id, named("Csaba", "Tóth")),
      unassigned: await createPatient(db, siteA.id, named("Dóra", "Szabó")),
    };
    await assign(db, study.id, patient.a1.id, "S-002");
    // A closed assignment still has its row.
    await assign(db, study.id, patient.a2.id, "S-001", false);
    // Closed, then assigned again: one row, with the active assignment's screen number.
    await assign(db, study.id, patient.b1.id, "S-000", false);
    await assign(db, study.id, patient.b1.id, "S-003");
    await assign(db, other.id, patient.unassigned.id, "X-001");
    await visit(db, patient.a1.id, study.id, v[0], "2025-03-03");
    await visit(db, patient.a1.id, study.id, v[2], "2025-03-17");
    // Booked without a date yet: the cell still reads "available".
    await visit(db, patient.a2.id, study.id, v[1], null);
    await visit(db, patient.b1.id, study.id, v[3], "2025-04-01");
    await visit(db, patient.unassigned.id, other.id, otherVisit.id, "2025-05-05");
    // Written directly above: place their windows as a write through the API would.
    await rebuildVisitSchedules(db, { all: true });
  });
  afterAll(() => t.close());

  const summary = (session: Session | undefined, uuid = study.uuid) =>
    t.request<VisitSummary>({ method: "GET", url: `/api/patient-visit-summary/${uuid}`, session });

  it("answers the study's visits in studyplan order, then the visits outside the plan by id", async () => {
    const res = await summary(admin);
    expect(res.status).toBe(200);
    const offPlan = {
      sequence: null,
      daysFromStart: null,
      allowedDaysBefore: null,
      allowedDaysAfter: null,
      calculationMode: null,
    };
    expect(res.body.data.studyVisits).toEqual([
      {
        id: v[2],
        visitName: "Week 4",
        visitType: 60,
        ...offPlan,
        sequence: 1,
        calculationMode: "default",
      },
      {
        id: v[0],
        visitName: "Screening",
        visitType: 20,
        sequence: 2,
        daysFromStart: 14,
        allowedDaysBefore: 1,
        allowedDaysAfter: 1,
        calculationMode: "default",
      },
      { id: v[1], visitName: "Randomisation", visitType: 50, ...offPlan },
      { id: v[3], visitName: "Phone call", visitType: 110, ...offPlan },
    ]);
  });

  it("answers every assigned patient, active or closed, by screen number, with this study's visits", async () => {
    const res = await summary(admin);
    // Cells: every plan visit (Week 4, Screening), then the recorded ones off the plan.
    const cells = (profile: VisitSummary["patientStudyProfiles"][number]) =>
      profile.visits.map(({ visitId, visitDate, state }) => ({
        visitId,
        visitDate: visitDate ?? null,
        state,
      }));
    const rows = res.body.data.patientStudyProfiles.map(({ visits: _, ...profile }, i) => ({
      ...profile,
      cells: cells(res.body.data.patientStudyProfiles[i]),
    }));
    expect(rows).toEqual([
      {
        patientUuid: expect.stringMatching(/^pt-/),
        barcode: patient.a2.barcode,
        firstName: "Béla",
        lastName: "Nagy",
        screenNr: "S-001",
        active: false,
        // Closed: nothing more is owed.
        cells: [
          { visitId: v[2], visitDate: null, state: "not-applicable" },
          { visitId: v[0], visitDate: null, state: "not-applicable" },
          { visitId: v[1], visitDate: null, state: "not-applicable" },
        ],
      },
      {
        patientUuid: expect.stringMatching(/^pt-/),
        barcode: patient.a1.barcode,
        firstName: "Anna",
        lastName: "Kiss",
        screenNr: "S-002",
        active: true,
        // Booked dates (the default status), no start date: booked, without a window.
        cells: [
          { visitId: v[2], visitDate: "2025-03-17", state: "booked" },
          { visitId: v[0], visitDate: "2025-03-03", state: "booked" },
        ],
      },
      {
        patientUuid: expect.stringMatching(/^pt-/),
        barcode: patient.b1.barcode,
        firstName: "Csaba",
        lastName: "Tóth",
        screenNr: "S-003",
        active: true,
        cells: [
          { visitId: v[2], visitDate: null, state: "unscheduled" },
          { visitId: v[0], visitDate: null, state: "unscheduled" },
          { visitId: v[3], visitDate: "2025-04-01", state: "booked" },
        ],
      },
    ]);
  });

  it("answers the screen's compact form (?compact=true), which reads back as the plain answer", async () => {
    const url = `/api/patient-visit-summary/${study.uuid}?asOf=2025-03-20`;
    const plain = await t.request<VisitSummary>({ method: "GET", url, session: admin });
    const compact = await t.request<CompactVisitSummary>({
      method: "GET",
      url: `${url}&compact=true&dayZero=${visitSummaryDayZero}`,
      session: admin,
    });
    expect(compact.status).toBe(200);
    expect(compact.body.data.asOf).toBe("2025-03-20");
    expect(compact.body.data.rows.map((row) => row[1])).toEqual([
      patient.a2.barcode,
      patient.a1.barcode,
      patient.b1.barcode,
    ]);
    expect(decodeVisitSummary(compact.body.data)).toEqual(plain.body.data);
    // Staff see their own site's rows in this form too.
    const staff = await t.request<CompactVisitSummary>({
      method: "GET",
      url: `${url}&compact=true&dayZero=${visitSummaryDayZero}`,
      session: staffB,
    });
    expect(staff.body.data.rows.map((row) => row[1])).toEqual([patient.b1.barcode]);
  });

  it("tells a screen that counts the cells' days from another day to reload, instead of answering it", async () => {
    const url = `/api/patient-visit-summary/${study.uuid}?asOf=2025-03-20&compact=true`;
    for (const asked of [url, `${url}&dayZero=2025-03-20`]) {
      const res = await t.request({ method: "GET", url: asked, session: admin });
      expect(res.status).toBe(400);
      expect(res.body.header.errorMessage).toBe(visitSummaryOutdated);
    }
  });

  it("answers each cell's dates, state and flag as the stored visit windows hold them", async () => {
    // A study of its own with dated assignments: visits on, after and outside their windows, open
    // ones, and a visit off the plan.
    const db = t.database.db;
    const project = await setUpProject(t, "VS-2025-002");
    const dated = await createStudy(db, project, { variant: "NORMAL" });
    const w: number[] = [];
    for (const name of ["Day 0", "Week 2", "Week 4", "Week 6", "Extra"])
      w.push((await createVisit(db, dated.id, { name, visitTypeId: 60 })).id);
    await createStudyplan(db, dated.id, w.slice(0, 4), [
      [14, 2, 2],
      [14, 2, 2],
      [14, 2, 2],
    ]);
    const site = await createSite(db);
    const starts = ["2025-03-01", "2025-03-10", null];
    for (const [i, startDate] of starts.entries()) {
      const p = await createPatient(db, site.id);
      await db.insert(studyPatients).values({
        uuid: newUuid("study-patients"),
        studyId: dated.id,
        patientId: p.id,
        screenNr: `D-${i}`,
        startDate,
      });
      if (i > 0) continue;
      for (const [visitId, visitDate, visitStatus] of [
        [w[0], "2025-03-01", "COMPLETED"],
        [w[1], "2025-03-17", "COMPLETED"],
        [w[2], "2025-04-20", "BOOKED"],
        [w[4], "2025-03-20", "COMPLETED"],
      ] as const)
        await db.insert(patientVisits).values({
          uuid: newUuid("patient-visits"),
          patientId: p.id,
          studyId: dated.id,
          visitId,
          visitDate,
          visitStatus,
        });
    }
    await rebuildVisitSchedules(db, { all: true });
    const asOf = "2025-03-24";
    const res = await t.request<VisitSummary>({
      method: "GET",
      url: `/api/patient-visit-summary/${dated.uuid}?asOf=${asOf}`,
      session: admin,
    });
    expect(res.status).toBe(200);
    const stored = await queryRows<{
      screenNr: string;
      visitId: number;
      visitDate: string | null;
      expectedDate: string | null;
      windowStart: string | null;
      windowEnd: string | null;
      kind: VisitKind;
      bookedOutsideWindow: boolean;
    }>(
      db,
      sql`select sp.screen_nr as "screenNr", vs.visit_id as "visitId", vs.visit_date::text as "visitDate",
        vs.expected_date::text as "expectedDate", vs.window_start::text as "windowStart",
        vs.window_end::text as "windowEnd", vs.kind, vs.booked_outside_window as "bookedOutsideWindow"
        from visit_schedule vs join study_patients sp on sp.id = vs.study_patient_id
        where vs.study_id = ${dated.id}`,
    );
    const answered = res.body.data.patientStudyProfiles.flatMap((p) =>
      p.visits.map((cell) => ({ screenNr: p.screenNr, ...cell })),
    );
    const expected = stored.map((row) => ({
      screenNr: row.screenNr,
      visitId: row.visitId,
      ...(row.visitDate ? { visitDate: row.visitDate } : {}),
      ...(row.expectedDate ? { expectedDate: row.expectedDate } : {}),
      state: stateAsOf(row, asOf),
      ...(row.bookedOutsideWindow ? { bookedOutsideWindow: true } : {}),
    }));
    const byCell = (a: { screenNr: string | null; visitId: number }, b: typeof a) =>
      String(a.screenNr).localeCompare(String(b.screenNr)) || a.visitId - b.visitId;
    expect(answered.sort(byCell)).toEqual(expected.sort(byCell));
    // The cases the packing must carry are all there.
    const has = (test: (cell: (typeof answered)[number]) => boolean) =>
      expect(answered.some(test)).toBe(true);
    has((c) => c.visitDate !== undefined && c.visitDate === c.expectedDate);
    has((c) => c.visitDate !== undefined && c.expectedDate !== undefined && c.visitDate !== c.expectedDate);
    has((c) => c.visitDate !== undefined && c.expectedDate === undefined);
    has((c) => c.bookedOutsideWindow === true);
    has((c) => c.state === "overdue");
    has((c) => c.state === "due" || c.state === "upcoming");
    has((c) => c.state === "unscheduled");
  });

  it("shows staff only the patients of their own sites", async () => {
    const a = await summary(staffA);
    expect(a.status).toBe(200);
    expect(a.body.data.patientStudyProfiles.map((p) => p.barcode)).toEqual([
      patient.a2.barcode,
      patient.a1.barcode,
    ]);
    const b = await summary(staffB);
    expect(b.body.data.patientStudyProfiles.map((p) => p.barcode)).toEqual([patient.b1.barcode]);
    // Without a site: the study's columns, no patients.
    const none = await summary(nobody);
    expect(none.status).toBe(200);
    expect(none.body.data.studyVisits).toHaveLength(4);
    expect(none.body.data.patientStudyProfiles).toEqual([]);
  });

  it("answers a study without patients or plan with its visits by id and no rows", async () => {
    const res = await summary(admin, other.uuid);
    expect(res.status).toBe(200);
    expect(res.body.data.studyVisits.map((c) => c.visitName)).toEqual(["Elsewhere"]);
    expect(res.body.data.patientStudyProfiles.map((p) => p.barcode)).toEqual([patient.unassigned.barcode]);
  });

  it("answers 404 for an unknown study and 401 without sign-in", async () => {
    const missing = await summary(admin, newUuid("studies"));
    expect(missing.status).toBe(404);
    expect(missing.body.header).toMatchObject({ errorCode: "NOT_FOUND", errorMessage: "Study not found" });
    const garbage = await summary(admin, "'; drop table patients; --");
    expect([400, 404]).toContain(garbage.status);
    expect((await summary(undefined)).status).toBe(401);
  });

  /** The summary's CSV export (issue 46, point 10), as a signed-in user (or nobody) asks for it. */
  const exportOf = (session: Session | undefined, query = "", uuid = study.uuid) =>
    t.app.inject({
      method: "GET",
      url: `/api/patient-visit-summary/${uuid}/export${query}`,
      headers: session ? { authorization: `Bearer ${session.accessToken}` } : {},
    });
  /** A CSV body's rows of cells (RFC 4180: quoted cells unquoted; no cell holds a line break). */
  const csvRows = (body: string) =>
    body
      .replace(/^\uFEFF/, "")
      .split("\r\n")
      .filter(Boolean)
      .map((line) =>
        [...line.matchAll(/(?:^|,)("(?:[^"]|"")*"|[^,]*)/g)].map(([, cell = ""]) =>
          cell.startsWith('"') ? cell.slice(1, -1).replace(/""/g, '"') : cell,
        ),
      );

  it("exports the grid as CSV: Nr., Screen Nr, Name, then each visit's date or available with its state", async () => {
    const res = await exportOf(admin, "?asOf=2025-03-20");
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(res.headers["content-disposition"]).toMatch(/filename="visit-summary-\d{4}-\d{2}-\d{2}\.csv"/);
    expect(res.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    // The grid's columns and order: the plan's visits, then the others by id; a cell without a record
    // or window reads "available", as the grid's.
    expect(csvRows(res.body)).toEqual([
      ["Nr.", "Screen Nr", "Name", "Week 4", "Screening", "Randomisation", "Phone call"],
      [
        "1",
        "S-001",
        "Nagy Béla",
        "available (Not applicable)",
        "available (Not applicable)",
        "available (Not applicable)",
        "available",
      ],
      ["2", "S-002", "Kiss Anna", "2025-03-17 (Booked)", "2025-03-03 (Booked)", "available", "available"],
      [
        "3",
        "S-003",
        "Tóth Csaba",
        "available (Unscheduled)",
        "available (Unscheduled)",
        "available",
        "2025-04-01 (Booked)",
      ],
    ]);
  });

  it("exports only the patients of the user's sites, never another site's, however the site is asked", async () => {
    const barcodes = async (session: Session, query = "") => {
      const res = await exportOf(session, query);
      expect(res.statusCode).toBe(200);
      return { rows: csvRows(res.body), body: res.body };
    };
    const a = await barcodes(staffA, "?asOf=2025-03-20");
    expect(a.rows.slice(1).map((row) => row[2])).toEqual(["Nagy Béla", "Kiss Anna"]);
    expect(a.body).not.toContain("Tóth");
    expect(a.body).not.toContain("S-003");
    // Asking for the other site's patients gives the header alone.
    const [siteB] = await queryRows<{ id: number }>(
      t.database.db,
      sql`select recorder_site_id as id from patients where id = ${patient.b1.id}`,
    );
    const foreign = await barcodes(staffA, `?siteId=${siteB?.id}`);
    expect(foreign.rows).toEqual([
      ["Nr.", "Screen Nr", "Name", "Week 4", "Screening", "Randomisation", "Phone call"],
    ]);
    const b = await barcodes(staffB);
    expect(b.rows.slice(1).map((row) => row.slice(0, 3))).toEqual([["1", "S-003", "Tóth Csaba"]]);
    expect(b.body).not.toMatch(/Kiss|Nagy/);
    expect((await barcodes(nobody)).rows).toHaveLength(1);
    // An unknown study is not found; without sign-in, nothing.
    expect((await exportOf(admin, "", newUuid("studies"))).statusCode).toBe(404);
    expect((await exportOf(undefined)).statusCode).toBe(401);
    expect((await exportOf(admin, "?compact=true")).statusCode).toBe(400);
  });

  it("exports a monitor the sites of their assignment by barcode, never a name, and only overdue patients when asked", async () => {
    const db = t.database.db;
    const category = await createTherapyCategory(db);
    const area = await createTherapyArea(db, category.id);
    const [siteX, siteY] = [await createSite(db), await createSite(db)];
    const project = await createProject(
      db,
      {
        croId: (await createPartner(db, { cro: true })).id,
        sponsorId: (await createPartner(db, { sponsor: true })).id,
        therapyAreaId: area.id,
        siteIds: [siteX.id, siteY.id],
      },
      { protocolNr: "VS-2025-004" },
    );
    const monitored = await createStudy(db, project, { variant: "NORMAL" });
    const [day0, week2] = [
      await createVisit(db, monitored.id, { name: "Day 0" }),
      await createVisit(db, monitored.id, { name: "Week 2" }),
    ];
    await createStudyplan(db, monitored.id, [day0.id, week2.id], [[14, 2, 2]]);
    const enrol = async (siteId: number, lastName: string, screenNr: string, startDate: string) => {
      const p = await createPatient(db, siteId, {
        patientDetail: { ...patientInput(siteId).patientDetail, firstName: "Zita", lastName },
      });
      await createStudyPatient(db, { patientId: p.id, studyId: monitored.id }, { screenNr, startDate });
      return p;
    };
    // On 20 Mar: M-1's Day 0 and Week 2 are overdue; M-3 had Day 0 and Week 2 is ahead; M-2 is at Y.
    const overdue = await enrol(siteX.id, "Secretname", "M-1", "2025-03-01");
    await enrol(siteY.id, "Elsewhere", "M-2", "2025-03-01");
    const onTime = await enrol(siteX.id, "Hiddenname", "M-3", "2025-03-10");
    await createPatientVisit(
      db,
      { patientId: onTime.id, studyId: monitored.id, visitId: day0.id },
      { visitDate: "2025-03-10" },
    );
    const today = new Date().toISOString().slice(0, 10);
    const m = await createMonitor(db, { password: defaultPassword, password2: defaultPassword });
    await createMonitorAssignment(db, {
      monitorId: m.id,
      studyId: monitored.id,
      siteIds: [siteX.id],
      accessFrom: "2025-01-01",
      accessTo: today,
    });
    const monitor = await t.signIn(m.email, defaultPassword);

    const all = await exportOf(monitor, "?asOf=2025-03-20", monitored.uuid);
    expect(all.statusCode).toBe(200);
    expect(csvRows(all.body)).toEqual([
      ["Nr.", "Screen Nr", "Barcode", "Day 0", "Week 2"],
      ["1", "M-1", overdue.barcode, "available (Overdue)", "available (Overdue)"],
      ["2", "M-3", onTime.barcode, "2025-03-10 (Done)", "available (Upcoming, expected 2025-03-24)"],
    ]);
    expect(all.body).not.toMatch(/Secretname|Hiddenname|Elsewhere|Zita|M-2/);
    // The screen's "Only patients with overdue visits", numbered as the grid numbers its rows.
    const only = await exportOf(monitor, "?asOf=2025-03-20&overdue=true", monitored.uuid);
    expect(csvRows(only.body).slice(1)).toEqual([
      ["1", "M-1", overdue.barcode, "available (Overdue)", "available (Overdue)"],
    ]);
    // Staff and administrators read the names; a monitor of no assignment to the study, nothing.
    const named = csvRows((await exportOf(admin, "?asOf=2025-03-20", monitored.uuid)).body);
    expect(named.map((row) => row[2])).toEqual([
      "Name",
      "Secretname Zita",
      "Elsewhere Zita",
      "Hiddenname Zita",
    ]);
    expect((await exportOf(monitor, "?asOf=2025-03-20")).statusCode).toBe(404);
  });

  // Every row and cell of a large study, its compact form and its export across batches (25 rows in
  // the tests). How fast the 2,000 × 40 study answers is the bench's case "visit summary, 2,000 × 40"
  // (docs/benchmark.md), not a timed test here (decision 257).
  describe("a study with 400 patients and 40 visits", () => {
    const patientCount = 400;
    const visitCount = 40;
    let big: { id: number; uuid: string };

    beforeAll(async () => {
      const db = t.database.db;
      const site = await createSite(db);
      // Its own protocol number: "VS-2025-002" is the dated study's above (issue 46: one project each).
      const project = await setUpProject(t, "VS-2025-003");
      big = await createStudy(db, project, { variant: "NORMAL" });
      // Set-based inserts: 40 visits, a plan over all of them, 400 patients, their assignments and
      // a dated visit for every patient and visit (16,000 rows).
      await bulkLoad(db, async (tx) => {
        await tx.execute(sql`insert into visits (uuid, study_id, name, visit_type_id, mandatory)
          select 'visit-' || gen_random_uuid(), ${big.id}, 'Visit ' || g, 60, true from generate_series(1, ${visitCount}) g`);
        const [plan] = await tx
          .execute(
            sql`insert into studyplans (uuid, study_id) values (${newUuid("studyplans")}, ${big.id}) returning id`,
          )
          .then((r) => (r as unknown as { rows: { id: number }[] }).rows);
        // The plan runs the visits backwards, so column order must come from the plan.
        await tx.execute(sql`insert into studyplan_schedule_entries (studyplan_id, from_visit_id, to_visit_id, sequence)
          select ${plan.id}, v.id, lag(v.id) over (order by v.id desc), row_number() over (order by v.id desc)
          from visits v where v.study_id = ${big.id}`);
        await tx.execute(sql`insert into patients (uuid, barcode, recorder_site_id, first_name, last_name)
          select 'pt-' || gen_random_uuid(), 'PERF-' || lpad(g::text, 6, '0'), ${site.id}, 'First ' || g, 'Last ' || g
          from generate_series(1, ${patientCount}) g`);
        await tx.execute(sql`insert into study_patients (uuid, study_id, patient_id, screen_nr)
          select 'sp-' || gen_random_uuid(), ${big.id}, p.id, 'SCR-' || lpad(p.id::text, 6, '0')
          from patients p where p.barcode like 'PERF-%'`);
        await tx.execute(sql`insert into patient_visits (uuid, patient_id, study_id, visit_id, visit_date)
          select 'pv-' || gen_random_uuid(), p.id, ${big.id}, v.id, date '2025-01-01' + (v.id % 300)
          from patients p cross join visits v
          where p.barcode like 'PERF-%' and v.study_id = ${big.id}`);
        await rebuildVisitSchedules(tx, { studyId: big.id });
      });
    }, 120_000);

    it("answers every row and cell", async () => {
      const res = await summary(admin, big.uuid);
      expect(res.status).toBe(200);
      const { studyVisits, patientStudyProfiles } = res.body.data;
      expect(studyVisits).toHaveLength(visitCount);
      expect(studyVisits[0].visitName).toBe(`Visit ${visitCount}`);
      expect(patientStudyProfiles).toHaveLength(patientCount);
      expect(patientStudyProfiles.every((p) => p.visits.length === visitCount)).toBe(true);
    });

    it("answers the screen's compact form of it in a fraction of the plain answer's size", async () => {
      const url = `/api/patient-visit-summary/${big.uuid}?asOf=2025-06-01`;
      const plain = await t.request<VisitSummary>({ method: "GET", url, session: admin });
      const compact = await t.request<CompactVisitSummary>({
        method: "GET",
        url: `${url}&compact=true&dayZero=${visitSummaryDayZero}`,
        session: admin,
      });
      expect(compact.body.data.rows).toHaveLength(patientCount);
      expect(decodeVisitSummary(compact.body.data)).toEqual(plain.body.data);
      expect(JSON.stringify(compact.body).length).toBeLessThan(JSON.stringify(plain.body).length / 4);
    });

    it("exports every row and cell of it as CSV, numbered on through its batches", async () => {
      const res = await exportOf(admin, "?asOf=2025-06-01", big.uuid);
      expect(res.statusCode).toBe(200);
      const rows = csvRows(res.body);
      expect(rows).toHaveLength(patientCount + 1);
      expect(rows[0]).toHaveLength(3 + visitCount);
      expect(rows[0][3]).toBe(`Visit ${visitCount}`);
      expect(rows.slice(1).map((row) => row[0])).toEqual(
        Array.from({ length: patientCount }, (_, i) => String(i + 1)),
      );
      expect(rows[1].slice(1, 3)).toEqual([
        expect.stringMatching(/^SCR-\d{6}$/),
        expect.stringMatching(/^Last \d+ First \d+$/),
      ]);
      // Every cell has its visit's date.
      expect(
        rows.slice(1).every((row) => row.slice(3).every((cell) => /^\d{4}-\d{2}-\d{2} \(/.test(cell))),
      ).toBe(true);
    });
  });
});
