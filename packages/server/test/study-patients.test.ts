import type {
  AuditEvent,
  ListData,
  StudyPatient,
  StudyPatientListRow,
  StudyPatientLookupItem,
} from "@trialdesk/domain";
import { newUuid } from "@trialdesk/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { patientVisits } from "../src/resources/patient-visits/patient-visits.table";
import { studyPatients } from "../src/resources/study-patients/study-patients.table";
import {
  createPatient,
  createSite,
  createStudy,
  createVisit,
  studyPatientInput,
} from "../src/seed/factories";
import {
  databaseKinds,
  resourceClient,
  type Session,
  seededApp,
  startApp,
  type TestApp,
  twoSites,
  withReason,
} from "./helpers";
import { setUpProject } from "./study-setup";

describe.each(databaseKinds)("study-patients on %s", (kind) => {
  let t: TestApp;
  let admin: Session;
  /** Staff of site A only. */
  let staffA: Session;
  let siteA: { id: number };
  let siteB: { id: number };
  let project: Awaited<ReturnType<typeof setUpProject>>;
  let study: { id: number; uuid: string; workingName: string };
  let otherStudy: { id: number; uuid: string };
  beforeAll(async () => {
    t = await startApp(kind);
    ({ siteA, siteB, admin, staffA } = await twoSites(t, { firstName: "Sara", lastName: "Starter" }));
    project = await setUpProject(t, "SP-TEST-001");
    study = await createStudy(t.database.db, project);
    otherStudy = await createStudy(t.database.db, project, { variant: "SUB-STUDY" });
  });
  afterAll(() => t.close());

  const url = "/api/study-patients";
  const { create, update, get, list } = resourceClient<StudyPatient, StudyPatientListRow>(
    () => t,
    "study-patients",
    () => staffA,
    { reason: "Source corrected" },
  );
  const patientOf = (siteId: number, lastName = "Kovács", firstName = "Anna") =>
    createPatient(t.database.db, siteId, {
      patientDetail: {
        firstName,
        lastName,
        ssn: null,
        birthName: null,
        birthDate: "1980-05-17",
        birthCountryCode: "HU",
        birthCity: "Szeged",
        motherName: null,
        sex: "FEMALE",
        notes: null,
      },
    });

  it("assigns a patient to a study: started by the signed-in user, read back with the list's fields", async () => {
    const patient = await patientOf(siteA.id, "Tóth", "Béla");
    const input = studyPatientInput(
      { patientId: patient.id, studyId: study.id },
      { screenNr: "S-101", randomNr: "R-2001", notes: "Referred by Dr. Kis", startedBy: 999_999 },
    );
    const res = await create(input);
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      uuid: input.uuid,
      version: 1,
      patientId: patient.id,
      studyId: study.id,
      screenNr: "S-101",
      randomNr: "R-2001",
      active: true,
      startDate: "2025-04-01",
      startedBy: staffA.userId,
      startedByName: "Sara Starter",
      closeDate: null,
      closeReason: null,
      closedBy: null,
      notes: "Referred by Dr. Kis",
      barcode: patient.barcode,
      firstName: "Béla",
      lastName: "Tóth",
      projectInternalCode: project.internalCode,
      studyWorkingName: study.workingName,
      studyUuid: study.uuid,
    });
    expect((await get(String(res.body.data.id))).body.data).toEqual(res.body.data);
  });

  it("gives the spec's messages: Patient is required, Study is required, Close reason is required", async () => {
    const empty = await create({ uuid: studyPatientInput({ patientId: 1, studyId: 1 }).uuid });
    expect(empty.status).toBe(400);
    expect(empty.body.header.fieldErrors).toEqual([
      { field: "patientId", message: "Patient is required" },
      { field: "studyId", message: "Study is required" },
    ]);
    const patient = await patientOf(siteA.id);
    const closedWithout = await create(
      studyPatientInput({ patientId: patient.id, studyId: study.id }, { active: false }),
    );
    expect(closedWithout.body.header.fieldErrors).toEqual([
      { field: "closeReason", message: "Close reason is required" },
    ]);
    const wrongReason = await create({
      ...studyPatientInput({ patientId: patient.id, studyId: study.id }),
      active: false,
      closeReason: "LOST",
    });
    expect(wrongReason.status).toBe(400);
    expect(wrongReason.body.header.fieldErrors.map((e) => e.field)).toEqual(["closeReason"]);
    const noStudy = await create(studyPatientInput({ patientId: patient.id, studyId: 999_999 }));
    expect(noStudy.body.header.fieldErrors).toEqual([{ field: "studyId", message: "Study does not exist" }]);
  });

  it("refuses a second active assignment to the same study on studyId; a closed one does not block", async () => {
    const patient = await patientOf(siteA.id);
    const first = (await create(studyPatientInput({ patientId: patient.id, studyId: study.id }))).body.data;
    const twice = await create(studyPatientInput({ patientId: patient.id, studyId: study.id }));
    expect(twice.status).toBe(400);
    expect(twice.body.header.fieldErrors).toEqual([
      { field: "studyId", message: "The patient is already assigned to this study" },
    ]);
    // Another study is fine.
    expect((await create(studyPatientInput({ patientId: patient.id, studyId: otherStudy.id }))).status).toBe(
      201,
    );
    // Closed, the patient may be assigned to the study again (a rescreen) …
    const closed = await update(first.uuid, { ...first, active: false, closeReason: "CANCELLED" });
    expect(closed.status).toBe(200);
    const again = await create(studyPatientInput({ patientId: patient.id, studyId: study.id }));
    expect(again.status).toBe(201);
    // … but the closed one cannot be reopened while the new one is active.
    const reopened = await update(first.uuid, { ...closed.body.data, active: true });
    expect(reopened.status).toBe(400);
    expect(reopened.body.header.fieldErrors).toEqual([
      { field: "studyId", message: "The patient is already assigned to this study" },
    ]);
    const rows = (await list(`pid=${patient.id}&studyId=${study.id}`)).body.data.items;
    expect(rows.map((r) => r.active).sort()).toEqual([false, true]);
  });

  it("records who closed it and when; reopening clears the reason, date and closer; audited", async () => {
    const patient = await patientOf(siteA.id);
    const created = (await create(studyPatientInput({ patientId: patient.id, studyId: study.id }))).body.data;
    const closed = await update(created.uuid, {
      ...created,
      active: false,
      closeReason: "EOS",
      // The client cannot name someone else as the closer.
      closedBy: admin.userId,
    });
    expect(closed.status).toBe(200);
    const today = new Date().toISOString().slice(0, 10);
    expect(closed.body.data).toMatchObject({
      version: 2,
      active: false,
      closeReason: "EOS",
      closedBy: staffA.userId,
      closedByName: "Sara Starter",
      startedBy: staffA.userId,
    });
    expect([today, new Date(Date.now() - 86_400_000).toISOString().slice(0, 10)]).toContain(
      closed.body.data.closeDate,
    );
    // Saved again while closed (by someone else), who closed it and when stay.
    const edited = await update(created.uuid, { ...closed.body.data, notes: "Completed all visits" }, admin);
    expect(edited.body.data).toMatchObject({
      closedBy: staffA.userId,
      closeDate: closed.body.data.closeDate,
      notes: "Completed all visits",
    });
    const reopened = await update(created.uuid, { ...edited.body.data, active: true }, admin);
    expect(reopened.body.data).toMatchObject({
      active: true,
      closeReason: null,
      closeDate: null,
      closedBy: null,
      closedByName: null,
      startedBy: staffA.userId,
    });
    const audit = await t.request<{ items: AuditEvent[] }>({
      method: "GET",
      url: `/api/audit?resource=study-patients&uuid=${created.uuid}`,
      session: staffA,
    });
    expect(audit.body.data.items.map((e) => e.action)).toEqual(["update", "update", "update", "create"]);
    expect(audit.body.data.items[2].changes.map((c) => c.field)).toEqual(
      expect.arrayContaining(["active", "closeReason", "closedBy"]),
    );
    // A stale version is refused.
    const stale = await update(created.uuid, { ...created, notes: "late" });
    expect(stale.status).toBe(409);
  });

  it("answers the pid lookup with the patient's studies, and filters by study and active", async () => {
    const patient = await patientOf(siteA.id);
    await create(
      studyPatientInput({ patientId: patient.id, studyId: study.id }, { screenNr: "S-7", randomNr: "R-7" }),
    );
    await create(
      studyPatientInput(
        { patientId: patient.id, studyId: otherStudy.id },
        { screenNr: "S-8", active: false, closeReason: "DIED" },
      ),
    );
    const lookup = await list<StudyPatientLookupItem>(`pid=${patient.id}&page=1&pagesize=100`);
    expect(lookup.status).toBe(200);
    expect(lookup.body.data.items).toEqual([
      expect.objectContaining({
        active: true,
        screenNr: "S-7",
        randomNr: "R-7",
        studyId: study.id,
        studyUuid: study.uuid,
        studyWorkingName: study.workingName,
        projectInternalCode: project.internalCode,
      }),
      expect.objectContaining({ active: false, screenNr: "S-8", studyId: otherStudy.id }),
    ]);
    const active = await list(`pid=${patient.id}&active=true`);
    expect(active.body.data.items.map((r) => r.screenNr)).toEqual(["S-7"]);
    const byStudy = await list(`pid=${patient.id}&studyId=${otherStudy.id}`);
    expect(byStudy.body.data.items.map((r) => r.screenNr)).toEqual(["S-8"]);
    expect((await list("pid=abc")).status).toBe(400);
    expect((await list("active=maybe")).status).toBe(400);
    expect((await list("order=notes")).status).toBe(400);
  });

  it("searches barcode, patient names, screen and random numbers, and sorts by patient name", async () => {
    const site = await createSite(t.database.db);
    const staff = await t.signedInUser({ siteIds: [site.id] });
    const zoe = await patientOf(site.id, "Wiśniewska", "Zoé");
    const adam = await patientOf(site.id, "Wiśniewski", "Ádám");
    await create(
      studyPatientInput({ patientId: zoe.id, studyId: study.id }, { screenNr: "SCR-551", randomNr: null }),
      staff,
    );
    await create(
      studyPatientInput(
        { patientId: adam.id, studyId: study.id },
        { screenNr: "SCR-552", randomNr: "RND-77" },
      ),
      staff,
    );
    const search = async (term: string) =>
      (await list(`siteId=${site.id}&searchTerm=${encodeURIComponent(term)}`, staff)).body.data.items.map(
        (r) => r.firstName,
      );
    expect(await search("wiśniewsk")).toEqual(["Zoé", "Ádám"]);
    expect(await search("Wiśniewski Ádám")).toEqual(["Ádám"]);
    // Accents folded on both sides.
    expect(await search("wisniewski adam")).toEqual(["Ádám"]);
    expect(await search(zoe.barcode)).toEqual(["Zoé"]);
    expect(await search("SCR-55")).toEqual(["Zoé", "Ádám"]);
    expect(await search("rnd-77")).toEqual(["Ádám"]);
    expect(await search("50%_")).toEqual([]);
    const byName = await list(`siteId=${site.id}&order=patientName&direction=asc`, staff);
    expect(byName.body.data.items.map((r) => r.firstName)).toEqual(["Zoé", "Ádám"]);
    const desc = await list(`siteId=${site.id}&order=patientName&direction=desc`, staff);
    expect(desc.body.data.items.map((r) => r.firstName)).toEqual(["Ádám", "Zoé"]);
  });

  it("keeps site B's assignments away from staff of site A: 404, never listed, not assignable", async () => {
    const patientB = await patientOf(siteB.id, "Elsewhere", "Bea");
    const ofB = (
      await create(
        studyPatientInput({ patientId: patientB.id, studyId: study.id }, { screenNr: "S-B01" }),
        admin,
      )
    ).body.data;
    const missing = await get("sp-00000000-0000-4000-8000-000000000000");
    expect(missing.status).toBe(404);
    const attempts = [
      get(ofB.uuid),
      get(String(ofB.id)),
      update(ofB.uuid, { ...ofB, notes: "Changed" }),
      update(ofB.uuid, { ...ofB, active: false, closeReason: "EOS" }),
      t.request({ method: "DELETE", url: `${url}/${ofB.uuid}`, session: staffA, headers: withReason() }),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.status).toBe(404);
      expect(res.body.header.errorMessage).toBe(missing.body.header.errorMessage);
    }
    const seen = [
      ...(await list("pagesize=1000")).body.data.items,
      ...(await list(`siteId=${siteB.id}`)).body.data.items,
      ...(await list("searchTerm=Elsewhere")).body.data.items,
      ...(await list("searchTerm=S-B01")).body.data.items,
      ...(await list(`pid=${patientB.id}&page=1&pagesize=100`)).body.data.items,
      ...(await list(`studyId=${study.id}&pagesize=1000`)).body.data.items,
    ];
    expect(seen.map((r) => r.uuid)).not.toContain(ofB.uuid);
    // Nor can they assign B's patient, nor move their own assignment to B's patient: the same
    // answer as for a patient that does not exist.
    const nonexistent = await create(studyPatientInput({ patientId: 999_999, studyId: otherStudy.id }));
    const foreign = await create(studyPatientInput({ patientId: patientB.id, studyId: otherStudy.id }));
    for (const res of [nonexistent, foreign]) {
      expect(res.status).toBe(400);
      expect(res.body.header.fieldErrors).toEqual([
        { field: "patientId", message: "Patient does not exist" },
      ]);
    }
    const own = (
      await create(studyPatientInput({ patientId: (await patientOf(siteA.id)).id, studyId: otherStudy.id }))
    ).body.data;
    const moved = await update(own.uuid, { ...own, patientId: patientB.id });
    expect(moved.body.header.fieldErrors).toEqual([
      { field: "patientId", message: "Patient does not exist" },
    ]);
    // A user without sites sees none; the administrator sees and changes every site's.
    const nobody = await t.signedInUser({ siteIds: [] });
    expect((await list("pagesize=1000", nobody)).body.data.items).toEqual([]);
    const unchanged = await get(ofB.uuid, admin);
    expect(unchanged.status).toBe(200);
    expect(unchanged.body.data.notes).toBeNull();
    expect(unchanged.body.data.active).toBe(true);
    expect((await list(`siteId=${siteB.id}`, admin)).body.data.items.map((r) => r.uuid)).toContain(ofB.uuid);
  });

  const screenNrUsed = { field: "screenNr", message: "Screen number is already used in this study" };
  const randomNrUsed = { field: "randomNr", message: "Random number is already used in this study" };

  it("refuses another patient's screen or random number in the study, trimmed and in any case, on the field (issue 46)", async () => {
    const anna = await patientOf(siteA.id, "Egyedi", "Anna");
    const bea = await patientOf(siteA.id, "Egyedi", "Bea");
    const first = await create(
      studyPatientInput(
        { patientId: anna.id, studyId: study.id },
        { screenNr: "UQ-100", randomNr: "UR-100" },
      ),
    );
    expect(first.status).toBe(201);
    const sameScreen = await create(
      studyPatientInput(
        { patientId: bea.id, studyId: study.id },
        { screenNr: " uq-100 ", randomNr: "UR-101" },
      ),
    );
    expect(sameScreen.status).toBe(400);
    expect(sameScreen.body.header.fieldErrors).toEqual([screenNrUsed]);
    const sameRandom = await create(
      studyPatientInput({ patientId: bea.id, studyId: study.id }, { screenNr: "UQ-101", randomNr: "ur-100" }),
    );
    expect(sameRandom.status).toBe(400);
    expect(sameRandom.body.header.fieldErrors).toEqual([randomNrUsed]);
    // No random number clashes with none; another study has its own numbers.
    const bez = (
      await create(
        studyPatientInput({ patientId: bea.id, studyId: study.id }, { screenNr: "UQ-101", randomNr: null }),
      )
    ).body.data;
    expect(bez.randomNr).toBeNull();
    const cleo = await patientOf(siteA.id, "Egyedi", "Cleo");
    const blank = await create(
      studyPatientInput({ patientId: cleo.id, studyId: study.id }, { screenNr: "UQ-102", randomNr: " " }),
    );
    expect(blank.status).toBe(201);
    expect(blank.body.data.randomNr).toBeNull();
    const elsewhere = await create(
      studyPatientInput(
        { patientId: bea.id, studyId: otherStudy.id },
        { screenNr: "UQ-100", randomNr: "UR-100" },
      ),
    );
    expect(elsewhere.status).toBe(201);
    // On update: taking another patient's number, or moving to a study where another patient has it.
    const taken = await update(bez.uuid, { ...bez, screenNr: "UQ-100" });
    expect(taken.body.header.fieldErrors).toEqual([screenNrUsed]);
    const takenRandom = await update(bez.uuid, { ...bez, randomNr: "UR-100" });
    expect(takenRandom.body.header.fieldErrors).toEqual([randomNrUsed]);
    const other = (
      await create(
        studyPatientInput(
          { patientId: (await patientOf(siteA.id)).id, studyId: otherStudy.id },
          { screenNr: "UQ-101" },
        ),
      )
    ).body.data;
    const moved = await update(other.uuid, { ...other, studyId: study.id });
    expect(moved.body.header.fieldErrors).toEqual([screenNrUsed]);
    // Saved with its own numbers, in another case, an assignment is not refused.
    const resaved = await update(bez.uuid, { ...bez, screenNr: "uq-101", notes: "Own number" });
    expect(resaved.status).toBe(200);
  });

  it("lets the same patient, closed and assigned again, keep their screen number; another patient still may not", async () => {
    const patient = await patientOf(siteA.id, "Visszatérő");
    const first = (
      await create(
        studyPatientInput(
          { patientId: patient.id, studyId: study.id },
          { screenNr: "RE-200", randomNr: "RR-200" },
        ),
      )
    ).body.data;
    const closed = await update(first.uuid, { ...first, active: false, closeReason: "CANCELLED" });
    expect(closed.status).toBe(200);
    const again = await create(
      studyPatientInput(
        { patientId: patient.id, studyId: study.id },
        { screenNr: "RE-200", randomNr: "RR-200" },
      ),
    );
    expect(again.status).toBe(201);
    expect(again.body.data).toMatchObject({ screenNr: "RE-200", randomNr: "RR-200", active: true });
    // The closed one saves again with its number too.
    expect((await update(first.uuid, { ...closed.body.data, notes: "Screen failure" })).status).toBe(200);
    const stranger = await create(
      studyPatientInput(
        { patientId: (await patientOf(siteA.id, "Idegen")).id, studyId: study.id },
        { screenNr: "RE-200" },
      ),
    );
    expect(stranger.body.header.fieldErrors).toEqual([screenNrUsed]);
    // A duplicate from before the rule (written past the resource) does not block the other changes of
    // an assignment that keeps its number; taking the number anew is refused.
    const earlier = await patientOf(siteA.id, "Régi");
    await t.database.db.insert(studyPatients).values({
      uuid: newUuid("study-patients"),
      studyId: study.id,
      patientId: earlier.id,
      screenNr: "RE-200",
    });
    const latest = (await get(again.body.data.uuid)).body.data;
    expect((await update(latest.uuid, { ...latest, notes: "Rescreened" })).status).toBe(200);
  });

  it("lets one of two simultaneous assignments of different patients with one screen number in, the other refused on the field", async () => {
    const [one, two] = [await patientOf(siteA.id, "Egyszerre"), await patientOf(siteA.id, "Egyidőben")];
    const answers = await Promise.all(
      [one, two].map((p) =>
        create(studyPatientInput({ patientId: p.id, studyId: study.id }, { screenNr: "RACE-300" })),
      ),
    );
    expect(answers.map((res) => res.status).sort()).toEqual([201, 400]);
    expect(answers.find((res) => res.status === 400)?.body.header.fieldErrors).toEqual([screenNrUsed]);
    const rows = (await list(`studyId=${study.id}&searchTerm=RACE-300&pagesize=100`)).body.data.items;
    expect(rows.map((r) => r.screenNr)).toEqual(["RACE-300"]);
  });

  /** A visit of the study recorded for the patient (written directly: only its existence matters). */
  const recordVisitOf = async (patientId: number) => {
    const visit = await createVisit(t.database.db, study.id);
    await t.database.db
      .insert(patientVisits)
      .values({ uuid: newUuid("patient-visits"), patientId, studyId: study.id, visitId: visit.id });
  };

  it("deletes an assignment; one whose patient has visits in the study is refused with 409", async () => {
    const patient = await patientOf(siteA.id);
    const free = (await create(studyPatientInput({ patientId: patient.id, studyId: study.id }))).body.data;
    const removed = await t.request({
      method: "DELETE",
      url: `${url}/${free.uuid}`,
      session: staffA,
      headers: withReason(),
    });
    expect(removed.body.data).toEqual({ deleted: true });
    expect((await get(free.uuid)).status).toBe(404);
    const used = (await create(studyPatientInput({ patientId: patient.id, studyId: study.id }))).body.data;
    await recordVisitOf(patient.id);
    const refused = await t.request({
      method: "DELETE",
      url: `${url}/${used.uuid}`,
      session: staffA,
      headers: withReason(),
    });
    expect(refused.status).toBe(409);
    expect(refused.body.header.errorMessage).toBe("Study patient is still used by patient visits");
    expect((await get(used.uuid)).status).toBe(200);
  });

  it("keeps an assignment whose patient has visits in the study on that patient and study; others may move", async () => {
    const message = "The patient has visits recorded in this study: they keep this assignment to it";
    const patient = await patientOf(siteA.id, "Mozgó");
    const other = await patientOf(siteA.id, "Másik");
    const used = (await create(studyPatientInput({ patientId: patient.id, studyId: study.id }))).body.data;
    // The record says so, for the form to show patient and study as fixed before a save is refused.
    expect(used.hasVisits).toBe(false);
    await recordVisitOf(patient.id);
    expect((await get(used.uuid)).body.data.hasVisits).toBe(true);
    const toStudy = await update(used.uuid, { ...used, studyId: otherStudy.id });
    expect(toStudy.status).toBe(400);
    expect(toStudy.body.header.fieldErrors).toEqual([{ field: "studyId", message }]);
    const toPatient = await update(used.uuid, { ...used, patientId: other.id });
    expect(toPatient.status).toBe(400);
    expect(toPatient.body.header.fieldErrors).toEqual([{ field: "patientId", message }]);
    expect((await get(used.uuid)).body.data).toMatchObject({ patientId: patient.id, studyId: study.id });
    // Its other fields still change.
    expect((await update(used.uuid, { ...used, screenNr: "S-777" })).status).toBe(200);

    const free = (await create(studyPatientInput({ patientId: other.id, studyId: study.id }))).body.data;
    const moved = await update(free.uuid, { ...free, studyId: otherStudy.id });
    expect(moved.status).toBe(200);
    expect(moved.body.data).toMatchObject({ patientId: other.id, studyId: otherStudy.id });
  });
});

describe.each(databaseKinds)("the demo study-patients on %s", (kind) => {
  const t = seededApp(kind);

  it("assigns most demo patients: 20+ on the demo study, some on the others, a few closed with each reason", async () => {
    const admin = await t.signIn("admin@example.com", "admin1234");
    const rows = (
      await t.request<ListData<StudyPatient>>({
        method: "GET",
        url: "/api/study-patients?pagesize=1000",
        session: admin,
      })
    ).body.data.items;
    const patients = (
      await t.request<ListData<{ id: number }>>({
        method: "GET",
        url: "/api/patients?pagesize=1000",
        session: admin,
      })
    ).body.data.items;
    const assigned = new Set(rows.map((r) => r.patientId));
    expect(assigned.size).toBeGreaterThan(patients.length * 0.8);
    expect(assigned.size).toBeLessThan(patients.length);
    const demo = rows.filter((r) => r.studyUuid === "std-00000000-0000-4000-8000-000000000001");
    expect(demo.filter((r) => r.active).length).toBeGreaterThanOrEqual(20);
    expect(new Set(rows.map((r) => r.studyId)).size).toBe(3);
    const closed = rows.filter((r) => !r.active);
    expect(closed.map((r) => r.closeReason).sort()).toEqual(["CANCELLED", "CANCELLED", "DIED", "EOS", "EOS"]);
    expect(closed.every((r) => r.closeDate && r.startDate && r.closeDate > r.startDate)).toBe(true);
    expect(rows.every((r) => /^S-\d{3}$/.test(r.screenNr ?? ""))).toBe(true);
    expect(rows.some((r) => r.randomNr === null)).toBe(true);
    expect(rows.filter((r) => r.randomNr).every((r) => /^R-\d{4}$/.test(r.randomNr ?? ""))).toBe(true);
    // Screen numbers are unique within a study.
    for (const studyId of new Set(rows.map((r) => r.studyId))) {
      const numbers = rows.filter((r) => r.studyId === studyId).map((r) => r.screenNr);
      expect(new Set(numbers).size).toBe(numbers.length);
    }
    // A seeded record saves back unchanged through the resource's own validation.
    const resaved = await t.request<StudyPatient>({
      method: "PUT",
      url: `/api/study-patients/${closed[0].uuid}`,
      session: admin,
      payload: closed[0],
      headers: withReason(),
    });
    expect(resaved.status).toBe(200);
    // The staff user sees only their site's assignments.
    const staff = await t.signIn("staff@example.com", "staff1234");
    const own = (
      await t.request<ListData<StudyPatient>>({
        method: "GET",
        url: "/api/study-patients?pagesize=1000",
        session: staff,
      })
    ).body.data.items;
    expect(own.length).toBeGreaterThan(0);
    expect(own.every((r) => r.barcode?.startsWith("BUD-"))).toBe(true);
  });
});
