import type { ListData, PatientVisit, PatientVisitDetail, PatientVisitListRow } from "@trialdesk/domain";
import { addDays, newUuid, shortDate, toIsoDate } from "@trialdesk/domain";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../src/db/client";
import { patientVisits } from "../src/resources/patient-visits/patient-visits.table";
import { studies } from "../src/resources/studies/studies.table";
import { studyPatients } from "../src/resources/study-patients/study-patients.table";
import {
  createPatient,
  createPatientVisit,
  createSite,
  createStudy,
  createVisit,
  demoStudyUuid,
  patientVisitInput,
} from "../src/seed/factories";
import {
  databaseKinds,
  expectCreated,
  resourceClient,
  type Session,
  seededApp,
  startApp,
  type TestApp,
  twoSites,
  withReason,
} from "./helpers";
import { setUpProject } from "./study-setup";

type View = PatientVisit & {
  patientName: string;
  studyName: string;
  visitName: string;
  screenNumber: string | null;
};

describe.each(databaseKinds)("patient visits on %s", (kind) => {
  let t: TestApp;
  let admin: Session;
  /** Staff of site A only. */
  let staffA: Session;
  let siteA: { id: number };
  let siteB: { id: number };
  let study: { id: number; uuid: string; workingName: string };
  let otherStudy: { id: number; uuid: string };
  let visitIds: number[];
  let otherStudyVisitId: number;
  let project: { internalCode: string; workingName: string };

  /** A patient of `siteId` assigned to the demo study (and only that one). */
  const assignedPatient = async (siteId: number, screenNr = "S-001", lastName = "Kovács") => {
    const patient = await createPatient(t.database.db, siteId, {
      patientDetail: {
        firstName: "Anna",
        lastName,
        ssn: null,
        birthName: null,
        birthDate: "1980-05-17",
        birthCountryCode: "HU",
        birthCity: null,
        motherName: null,
        sex: "FEMALE",
        notes: null,
      },
    });
    await t.database.db.insert(studyPatients).values({
      uuid: newUuid("study-patients"),
      studyId: study.id,
      patientId: patient.id,
      screenNr,
      startDate: "2025-03-10",
    });
    return patient;
  };

  beforeAll(async () => {
    t = await startApp(kind);
    ({ siteA, siteB, admin, staffA } = await twoSites(t));
    project = await setUpProject(t, "PV-TEST-001");
    study = await createStudy(t.database.db, project as never);
    otherStudy = await createStudy(t.database.db, project as never, { variant: "SUB-STUDY" });
    visitIds = [];
    for (const [name, visitTypeId, mandatory] of [
      ["Screening", 20, 1],
      ["Randomisation", 50, 1],
      ["Week 4 phone call", 110, 0],
    ] as const) {
      visitIds.push((await createVisit(t.database.db, study.id, { name, visitTypeId, mandatory })).id);
    }
    otherStudyVisitId = (await createVisit(t.database.db, otherStudy.id, { name: "Other screening" })).id;
  });
  afterAll(() => t.close());

  const url = "/api/patient-visits";
  const { create, update, get, list } = resourceClient<View, PatientVisitListRow>(
    () => t,
    "patient-visits",
    () => staffA,
    { reason: "Late entry" },
  );
  const detail = (query: string, session = staffA) =>
    t.request<PatientVisitDetail>({ method: "GET", url: `/api/patient-visit-detail?${query}`, session });

  it("records a visit and reads it back with the patient, study, visit and screen number", async () => {
    const patient = await assignedPatient(siteA.id, "S-101", "Varga");
    const input = patientVisitInput(
      { patientId: patient.id, studyId: study.id, visitId: visitIds[0] },
      { visitTime: "14:05", notes: "Fasting blood sample" },
    );
    const res = await create(input);
    expectCreated(res, input.uuid, {
      patientId: patient.id,
      studyId: study.id,
      visitId: visitIds[0],
      visitDate: "2025-04-14",
      visitTime: "14:05",
      visitStatus: "COMPLETED",
      visitResult: "OK",
      notes: "Fasting blood sample",
      patientName: "Varga Anna",
      barcode: patient.barcode,
      studyName: study.workingName,
      visitName: "Screening",
      screenNumber: "S-101",
      // Written directly, the assignment is in no verification sample (issue 44).
      sdvStatus: "NOT_REQUIRED",
      sdvVerifiedAt: null,
      sdvVerifiedByName: null,
      openQueries: 0,
    });
    expect((await get(input.uuid as string)).body.data).toEqual(res.body.data);
    const rows = (await list(`patientId=${patient.id}`)).body.data.items;
    expect(rows).toEqual([
      {
        patientVisitId: res.body.data.id,
        patientVisitUuid: input.uuid,
        screenNumber: "S-101",
        barcode: patient.barcode,
        patientName: "Varga Anna",
        studyName: study.workingName,
        visitName: "Screening",
        visitDate: "2025-04-14",
        visitStatus: "COMPLETED",
        sdvStatus: "NOT_REQUIRED",
      },
    ]);
  });

  it("keeps every record of a visit: a no-show, then the visit itself, each a record of its own (issue 43)", async () => {
    const patient = await assignedPatient(siteA.id);
    const refs = { patientId: patient.id, studyId: study.id, visitId: visitIds[1] };
    const noShow = await create(
      patientVisitInput(refs, {
        visitDate: "2025-04-10",
        visitStatus: "NO_SHOW",
        visitResult: null,
        notes: "Ill",
      }),
    );
    expect(noShow.status).toBe(201);
    const done = await create(patientVisitInput(refs, { visitDate: "2025-04-14", notes: "" }));
    expect(done.status).toBe(201);
    expect(done.body.data.uuid).not.toBe(noShow.body.data.uuid);
    const detailOf = await detail(`patientId=${patient.id}&studyId=${study.id}`);
    const option = detailOf.body.data.visits[String(visitIds[1])];
    // The completed record counts; the no-show stays as it was, with its notes.
    expect(option).toMatchObject({ patientVisitUuid: done.body.data.uuid, visitStatus: "COMPLETED" });
    expect(option.records).toMatchObject([
      {
        patientVisitUuid: done.body.data.uuid,
        visitStatus: "COMPLETED",
        visitDate: "2025-04-14",
        notes: null,
      },
      {
        patientVisitUuid: noShow.body.data.uuid,
        visitStatus: "NO_SHOW",
        visitDate: "2025-04-10",
        notes: "Ill",
      },
    ]);
    // An Unscheduled-like visit recorded twice keeps both.
    const again = await create(patientVisitInput(refs, { visitDate: "2025-04-20" }));
    expect(again.status).toBe(201);
    const all = await list(`patientId=${patient.id}`);
    expect(all.body.data.items).toHaveLength(3);
  });

  it("needs a date, not after today, for a visit that took place, and none before the start or after LPLV", async () => {
    const patient = await assignedPatient(siteA.id, "S-011");
    const refs = { patientId: patient.id, studyId: study.id, visitId: visitIds[1] };
    const errorsOf = async (overrides: Parameters<typeof patientVisitInput>[1]) =>
      (await create(patientVisitInput(refs, overrides))).body.header?.fieldErrors;
    expect(await errorsOf({ visitDate: "" })).toEqual([
      { field: "visitDate", message: "A completed or arrived visit needs its date" },
    ]);
    expect(await errorsOf({ visitDate: null, visitStatus: "ARRIVED", visitResult: null })).toEqual([
      { field: "visitDate", message: "A completed or arrived visit needs its date" },
    ]);
    const tomorrow = addDays(toIsoDate(new Date()), 1);
    expect(await errorsOf({ visitDate: tomorrow })).toEqual([
      { field: "visitDate", message: "A completed or arrived visit cannot be dated after today" },
    ]);
    // A booking may lie ahead, but not before the assignment's start.
    const [start] = await t.database.db
      .select({ startDate: studyPatients.startDate })
      .from(studyPatients)
      .where(eq(studyPatients.patientId, patient.id));
    expect(await errorsOf({ visitDate: "2019-04-01", visitStatus: "BOOKED", visitResult: null })).toEqual([
      {
        field: "visitDate",
        message: `The visit date cannot be before the patient's start in the study (${shortDate(start?.startDate as string)})`,
      },
    ]);
    const [{ lplv }] = await t.database.db
      .select({ lplv: studies.lplv })
      .from(studies)
      .where(eq(studies.id, study.id));
    expect(await errorsOf({ visitDate: addDays(lplv, 1), visitStatus: "BOOKED", visitResult: null })).toEqual(
      [
        {
          field: "visitDate",
          message: `The visit date cannot be after the study's LPLV (${shortDate(lplv)})`,
        },
      ],
    );
    const booked = await create(
      patientVisitInput(refs, { visitDate: tomorrow, visitStatus: "BOOKED", visitResult: null }),
    );
    expect(booked.status).toBe(201);
  });

  it("needs the patient assigned to the study (a closed assignment counts) and a visit of that study", async () => {
    const unassigned = await createPatient(t.database.db, siteA.id);
    const res = await create(
      patientVisitInput({ patientId: unassigned.id, studyId: study.id, visitId: visitIds[0] }),
    );
    expect(res.status).toBe(400);
    expect(res.body.header.fieldErrors).toEqual([
      { field: "studyId", message: "The patient is not assigned to this study" },
    ]);
    const patient = await assignedPatient(siteA.id);
    const foreignVisit = await create(
      patientVisitInput({ patientId: patient.id, studyId: study.id, visitId: otherStudyVisitId }),
    );
    expect(foreignVisit.body.header.fieldErrors).toEqual([
      { field: "visitId", message: "This visit does not belong to the study" },
    ]);
    const missingVisit = await create(
      patientVisitInput({ patientId: patient.id, studyId: study.id, visitId: 999_999 }),
    );
    expect(missingVisit.body.header.fieldErrors).toEqual([
      { field: "visitId", message: "This visit does not belong to the study" },
    ]);
    await t.database.db.insert(studyPatients).values({
      uuid: newUuid("study-patients"),
      studyId: otherStudy.id,
      patientId: unassigned.id,
      active: false,
      closeReason: "EOS",
    });
    const closed = await create(
      patientVisitInput({ patientId: unassigned.id, studyId: otherStudy.id, visitId: otherStudyVisitId }),
    );
    expect(closed.status).toBe(201);
  });

  it("names the missing patient, study and visit; keeps a result only for COMPLETED; books by default", async () => {
    const missing = await create({ uuid: newUuid("patient-visits") });
    expect(missing.status).toBe(400);
    expect(missing.body.header.fieldErrors).toEqual([
      { field: "patientId", message: "Patient is required" },
      { field: "studyId", message: "Study is required" },
      { field: "visitId", message: "Visit is required" },
    ]);
    const patient = await assignedPatient(siteA.id);
    const refs = { patientId: patient.id, studyId: study.id, visitId: visitIds[0] };
    const arrived = await create(patientVisitInput(refs, { visitStatus: "ARRIVED", visitResult: "FAILED" }));
    expect(arrived.body.data).toMatchObject({ visitStatus: "ARRIVED", visitResult: null });
    const completed = await update(arrived.body.data.uuid, {
      ...arrived.body.data,
      visitStatus: "COMPLETED",
      visitResult: "FAILED",
    });
    expect(completed.body.data).toMatchObject({
      version: 2,
      visitStatus: "COMPLETED",
      visitResult: "FAILED",
    });
    const cancelled = await update(arrived.body.data.uuid, {
      ...completed.body.data,
      visitStatus: "CANCELLED",
    });
    expect(cancelled.body.data).toMatchObject({ visitStatus: "CANCELLED", visitResult: null });
    const stale = await update(arrived.body.data.uuid, { ...completed.body.data, notes: "late" });
    expect(stale.status).toBe(409);
    const bare = await create({
      ...refs,
      visitId: visitIds[1],
      visitStatus: null,
      visitDate: "",
      visitTime: "",
    });
    expect(bare.body.data).toMatchObject({ visitStatus: "BOOKED", visitDate: null, visitTime: null });
    const badTime = await create(
      patientVisitInput({ ...refs, visitId: visitIds[2] }, { visitTime: "25:00" }),
    );
    expect(badTime.body.header.fieldErrors).toEqual([
      { field: "visitTime", message: "Must be a time as HH:mm" },
    ]);
  });

  it("lists the newest visits first and searches patient name, barcode, study and visit name", async () => {
    const site = await createSite(t.database.db);
    const staff = await t.signedInUser({ siteIds: [site.id] });
    const zoe = await assignedPatient(site.id, "S-201", "Zielińska");
    const bob = await assignedPatient(site.id, "S-202", "Braun");
    const make = (patientId: number, visitId: number, visitDate: string) =>
      create(patientVisitInput({ patientId, studyId: study.id, visitId }, { visitDate }), staff);
    const early = (await make(zoe.id, visitIds[0], "2025-04-01")).body.data;
    const late = (await make(zoe.id, visitIds[1], "2025-05-20")).body.data;
    const middle = (await make(bob.id, visitIds[0], "2025-04-02")).body.data;
    const uuids = async (query: string) =>
      (await list(`siteId=${site.id}&${query}`, staff)).body.data.items.map((r) => r.patientVisitUuid);
    expect(await uuids("")).toEqual([late.uuid, middle.uuid, early.uuid]);
    expect(await uuids("order=visitDate")).toEqual([early.uuid, middle.uuid, late.uuid]);
    expect(await uuids("order=patientName&direction=asc")).toEqual([middle.uuid, early.uuid, late.uuid]);
    expect(await uuids("searchTerm=zieli")).toEqual([late.uuid, early.uuid]);
    // The patient's name without its accents, and as "last first".
    expect(await uuids("searchTerm=zielinska")).toEqual([late.uuid, early.uuid]);
    expect(await uuids(`searchTerm=${encodeURIComponent("BRAUN anna")}`)).toEqual([middle.uuid]);
    expect(await uuids(`searchTerm=${bob.barcode}`)).toEqual([middle.uuid]);
    expect(await uuids("searchTerm=randomis")).toEqual([late.uuid]);
    expect((await uuids(`searchTerm=${encodeURIComponent(study.workingName)}`)).length).toBe(3);
    expect(await uuids("searchTerm=nothing-like-this")).toEqual([]);
    expect((await list("order=notes", staff)).status).toBe(400);
    expect((await list("siteId=x", staff)).status).toBe(400);
  });

  it("answers patient-visit-detail with the patient, the study and every visit, filled where recorded", async () => {
    const patient = await assignedPatient(siteA.id, "S-301", "Detail");
    const recorded = (
      await create(
        patientVisitInput(
          { patientId: patient.id, studyId: study.id, visitId: visitIds[1] },
          { visitTime: "08:15", notes: "Randomised", visitResult: "PENDING" },
        ),
      )
    ).body.data;
    const noWindow = {
      sequence: null,
      expectedDate: null,
      windowStart: null,
      windowEnd: null,
      bookedOutsideWindow: false,
      bookingPassed: false,
    };
    const expected: PatientVisitDetail = {
      patient: { patientId: patient.id, barcode: patient.barcode, firstName: "Anna", lastName: "Detail" },
      study: {
        studyId: study.id,
        studyUuid: study.uuid,
        internalCode: project.internalCode,
        projectWorkingName: project.workingName,
      },
      visits: {
        [visitIds[0]]: {
          visitName: "Screening",
          visitUuid: expect.any(String),
          visitId: visitIds[0],
          visitType: 20,
          mandatory: 1,
          visitStatus: null,
          visitResult: null,
          visitDate: null,
          visitTime: null,
          notes: null,
          patientVisitId: null,
          patientVisitUuid: null,
          patientVisitVersion: null,
          // The study has no plan: no window, and nothing recorded to judge.
          ...noWindow,
          state: null,
          records: [],
          deviations: [],
        },
        [visitIds[1]]: {
          visitName: "Randomisation",
          visitUuid: expect.any(String),
          visitId: visitIds[1],
          visitType: 50,
          mandatory: 1,
          visitStatus: "COMPLETED",
          visitResult: "PENDING",
          visitDate: "2025-04-14",
          visitTime: "08:15",
          notes: "Randomised",
          patientVisitId: recorded.id,
          patientVisitUuid: recorded.uuid,
          patientVisitVersion: 1,
          ...noWindow,
          state: "done",
          records: [
            {
              patientVisitId: recorded.id,
              patientVisitUuid: recorded.uuid,
              visitDate: "2025-04-14",
              visitTime: "08:15",
              visitStatus: "COMPLETED",
              visitResult: "PENDING",
              notes: "Randomised",
            },
          ],
          deviations: [],
        },
        [visitIds[2]]: expect.objectContaining({
          visitName: "Week 4 phone call",
          mandatory: 0,
          patientVisitId: null,
        }),
      },
    };
    const byUuid = await detail(`patientVisitUuid=${recorded.uuid}`);
    expect(byUuid.status).toBe(200);
    expect(byUuid.body.data).toEqual(expected);
    expect((await detail(`patientId=${patient.id}&studyId=${study.id}`)).body.data).toEqual(expected);
    // Without a study: the patient's current assignment's.
    expect((await detail(`patientId=${patient.id}`)).body.data).toEqual(expected);
    // Another study's visits carry none of this patient's data.
    const other = (await detail(`patientId=${patient.id}&studyId=${otherStudy.id}`)).body.data;
    expect(Object.values(other.visits).map((v) => [v.visitName, v.patientVisitId])).toEqual([
      ["Other screening", null],
    ]);
    const unassigned = await createPatient(t.database.db, siteA.id);
    expect((await detail(`patientId=${unassigned.id}`)).body.data).toMatchObject({ study: null, visits: {} });
    expect((await detail("")).status).toBe(400);
    expect((await detail("patientId=abc")).status).toBe(400);
    expect((await detail("patientVisitUuid=pv-00000000-0000-4000-8000-000000000000")).status).toBe(404);
    expect((await detail(`patientId=${patient.id}&studyId=999999`)).status).toBe(404);
  });

  it("keeps site B's visits away from staff of site A: 404, never listed, no detail, no recording", async () => {
    const patientB = await assignedPatient(siteB.id, "S-901", "Elsewhere");
    const visitB = (
      await create(
        patientVisitInput({ patientId: patientB.id, studyId: study.id, visitId: visitIds[0] }),
        admin,
      )
    ).body.data;
    const missing = await get("pv-00000000-0000-4000-8000-000000000000");
    expect(missing.status).toBe(404);
    for (const res of await Promise.all([
      get(visitB.uuid),
      get(String(visitB.id)),
      update(visitB.uuid, { ...visitB, notes: "changed" }),
      t.request({ method: "DELETE", url: `${url}/${visitB.uuid}`, session: staffA, headers: withReason() }),
      detail(`patientVisitUuid=${visitB.uuid}`),
      detail(`patientId=${patientB.id}`),
      detail(`patientId=${patientB.id}&studyId=${study.id}`),
    ])) {
      expect(res.status).toBe(404);
    }
    const seen = [
      ...(await list("pagesize=1000")).body.data.items,
      ...(await list(`siteId=${siteB.id}`)).body.data.items,
      ...(await list("searchTerm=Elsewhere")).body.data.items,
      ...(await list(`patientId=${patientB.id}`)).body.data.items,
      ...(await list(`studyId=${study.id}&pagesize=1000`)).body.data.items,
    ];
    expect(seen.map((r) => r.patientVisitUuid)).not.toContain(visitB.uuid);
    // Recording a visit for B's patient reads as no patient; moving A's visit to B's patient too.
    const refused = await create(
      patientVisitInput({ patientId: patientB.id, studyId: study.id, visitId: visitIds[1] }),
    );
    expect(refused.status).toBe(400);
    expect(refused.body.header.fieldErrors).toEqual([{ field: "patientId", message: "Patient is required" }]);
    const patientA = await assignedPatient(siteA.id);
    const visitA = (
      await create(patientVisitInput({ patientId: patientA.id, studyId: study.id, visitId: visitIds[1] }))
    ).body.data;
    const moved = await update(visitA.uuid, { ...visitA, patientId: patientB.id });
    expect(moved.body.header.fieldErrors).toEqual([{ field: "patientId", message: "Patient is required" }]);
    // The administrator sees every site's visits; B's visit is unchanged.
    const asAdmin = await get(visitB.uuid, admin);
    expect(asAdmin.status).toBe(200);
    expect(asAdmin.body.data.notes).toBeNull();
    expect((await detail(`patientVisitUuid=${visitB.uuid}`, admin)).body.data.patient.lastName).toBe(
      "Elsewhere",
    );
    // A user without sites sees no visits.
    const nobody = await t.signedInUser({ siteIds: [] });
    expect((await list("", nobody)).body.data.items).toEqual([]);
  });

  it.skipIf(kind !== "postgres")(
    "records no visit for an assignment removed at the same moment: the save waits and finds the patient not assigned",
    async () => {
      const db = t.database.db;
      const patient = await assignedPatient(siteA.id, "S-RACE");
      const assignment = sql`patient_id = ${patient.id} and study_id = ${study.id}`;
      let saving: ReturnType<typeof create> | undefined;
      await db.transaction(async (tx) => {
        // The assignment's removal as the API makes it (locked, no visit found, deleted), not yet committed.
        await tx.execute(sql`select id from study_patients where ${assignment} for update`);
        await tx.execute(sql`delete from study_patients where ${assignment}`);
        saving = create(
          patientVisitInput({ patientId: patient.id, studyId: study.id, visitId: visitIds[0] }),
        );
        // Committed only once the save waits for a lock this removal holds.
        for (let tries = 0; ; tries++) {
          const [{ waiting }] = await queryRows<{ waiting: number }>(
            db,
            sql`select count(*)::int as waiting from pg_stat_activity
              where datname = current_database() and wait_event_type = 'Lock'`,
          );
          if (waiting > 0) break;
          if (tries > 200) throw new Error("the save never waited for the assignment's removal");
          await new Promise((resolve) => setTimeout(resolve, 25));
        }
      });
      const res = await (saving as ReturnType<typeof create>);
      expect(res.status).toBe(400);
      expect(res.body.header.fieldErrors).toEqual([
        { field: "studyId", message: "The patient is not assigned to this study" },
      ]);
      expect(await db.select().from(patientVisits).where(eq(patientVisits.patientId, patient.id))).toEqual(
        [],
      );
    },
  );

  it("deletes a visit and keeps its audit trail", async () => {
    const patient = await assignedPatient(siteA.id);
    const visit = await createPatientVisit(t.database.db, {
      patientId: patient.id,
      studyId: study.id,
      visitId: visitIds[2],
    });
    const removed = await t.request({
      method: "DELETE",
      url: `${url}/${visit.uuid}`,
      session: staffA,
      headers: withReason(),
    });
    expect(removed.body.data).toEqual({ deleted: true });
    expect((await get(visit.uuid)).status).toBe(404);
    const audit = await t.request<{ items: { action: string }[] }>({
      method: "GET",
      url: `/api/audit?resource=patient-visits&uuid=${visit.uuid}`,
      session: staffA,
    });
    // The visit was saved through the write path (a create event) and then removed.
    expect(audit.body.data.items.map((e) => e.action)).toEqual(["delete", "create"]);
  });
});

describe.each(databaseKinds)("the demo patient visits on %s", (kind) => {
  const t = seededApp(kind);

  it("spreads visits and statuses over the assigned patients, the demo study's most of all", async () => {
    const admin = await t.signIn("admin@example.com", "admin1234");
    const all = await t.request<ListData<PatientVisitListRow>>({
      method: "GET",
      url: "/api/patient-visits?pagesize=1000",
      session: admin,
    });
    const rows = all.body.data.items;
    expect(all.body.data.pagination.total).toBe(rows.length);
    const today = new Date().toISOString().slice(0, 10);
    const byStatus = (status: string) => rows.filter((r) => r.visitStatus === status);
    expect(byStatus("COMPLETED").length).toBeGreaterThan(rows.length / 2);
    for (const status of ["BOOKED", "CANCELLED", "NO_SHOW"])
      expect(byStatus(status).length).toBeGreaterThan(0);
    expect(byStatus("BOOKED").every((r) => (r.visitDate ?? "") > today)).toBe(true);
    expect(byStatus("COMPLETED").every((r) => (r.visitDate ?? "") <= today)).toBe(true);
    // Newest first.
    const dates = rows.map((r) => r.visitDate ?? "");
    expect(dates).toEqual([...dates].sort().reverse());
    const [demo] = await t.database.db.select().from(studies).where(eq(studies.uuid, demoStudyUuid));
    const demoPatients = new Set(
      (
        await t.database.db
          .select({ patientId: patientVisits.patientId })
          .from(patientVisits)
          .where(eq(patientVisits.studyId, demo.id))
      ).map((r) => r.patientId),
    );
    expect(demoPatients.size).toBeGreaterThanOrEqual(20);
    // Every record passes the resource's rules when saved back unchanged: results only when COMPLETED.
    const results = await t.database.db.select().from(patientVisits);
    expect(results.every((v) => (v.visitStatus === "COMPLETED") === (v.visitResult !== null))).toBe(true);
    const one = await t.request<View>({
      method: "GET",
      url: `/api/patient-visits/${rows[0].patientVisitUuid}`,
      session: admin,
    });
    const saved = await t.request<View>({
      method: "PUT",
      url: `/api/patient-visits/${one.body.data.uuid}`,
      session: admin,
      payload: one.body.data,
      headers: withReason(),
    });
    expect(saved.status).toBe(200);
  });
});
