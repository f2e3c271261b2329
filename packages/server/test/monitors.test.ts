import {
  type ListData,
  newUuid,
  type PatientVisit,
  type Query,
  type SdvRecord,
  type SdvStatus,
  sdvStatus,
} from "@trialdesk/domain";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../src/db/client";
import { sdvStatusSql } from "../src/resources/patient-visits/sdv-columns";
import {
  createMonitor,
  createMonitorAssignment,
  createPartner,
  createPatient,
  createProject,
  createSite,
  createStudy,
  createTherapyArea,
  createTherapyCategory,
  createVisit,
  defaultPassword,
  patientVisitInput,
  studyPatientInput,
} from "../src/seed/factories";
import { databaseKinds, type Session, startApp, type TestApp, withReason } from "./helpers";

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

/**
 * Monitors at work (issue 44): their own sign-in, read-only access to the studies and sites of their
 * current assignments without anything that identifies a patient, source-data verification of a
 * sample of the patients, and queries the site answers.
 */
describe.each(databaseKinds)("monitors on %s", (kind) => {
  let t: TestApp;
  let admin: Session;
  let staffA: Session;
  let staffB: Session;
  let siteA: { id: number };
  let siteB: { id: number };
  let project: { id: number };
  let study: { id: number; uuid: string };
  let otherStudy: { id: number; uuid: string };
  let visitIds: number[];
  let otherVisitId: number;
  let run = 0;
  /** Monitors: assigned to the study at site A today; the same from tomorrow; assigned to the other study. */
  let monitor: Session;
  let future: Session;
  let elsewhere: Session;
  let monitorId: number;

  beforeAll(async () => {
    t = await startApp(kind);
    const db = t.database.db;
    siteA = await createSite(db);
    siteB = await createSite(db);
    admin = await t.signedInUser({ isAdmin: true });
    staffA = await t.signedInUser({ siteIds: [siteA.id] });
    staffB = await t.signedInUser({ siteIds: [siteB.id] });
    const category = await createTherapyCategory(db);
    const area = await createTherapyArea(db, category.id);
    const cro = await createPartner(db, { cro: true });
    const sponsor = await createPartner(db, { sponsor: true });
    const refs = {
      croId: cro.id,
      sponsorId: sponsor.id,
      therapyAreaId: area.id,
      siteIds: [siteA.id, siteB.id],
    };
    project = await createProject(db, refs);
    const projectRow = project as { id: number; protocolNr: string };
    study = await createStudy(db, projectRow);
    otherStudy = await createStudy(db, projectRow, { variant: "SUB-STUDY" });
    visitIds = [
      (await createVisit(db, study.id, { name: "Screening", visitTypeId: 10 })).id,
      (await createVisit(db, study.id, { name: "Week 2" })).id,
    ];
    otherVisitId = (await createVisit(db, otherStudy.id, { name: "Screening" })).id;
    const account = async (studyId: number, from: string, to: string, siteIds: number[]) => {
      const m = await createMonitor(db, { password: defaultPassword, password2: defaultPassword });
      await createMonitorAssignment(db, {
        monitorId: m.id,
        studyId,
        siteIds,
        accessFrom: from,
        accessTo: to,
      });
      return { id: m.id, session: await t.signIn(m.email, defaultPassword) };
    };
    const current = await account(study.id, day(-7), day(0), [siteA.id]);
    monitor = current.session;
    monitorId = current.id;
    future = (await account(study.id, day(1), day(30), [])).session;
    elsewhere = (await account(otherStudy.id, day(-7), day(7), [])).session;
  });
  afterAll(() => t.close());

  /** A patient of the site assigned to the study from `startDate`, with a completed screening. */
  async function assigned(
    siteId: number,
    startDate: string,
    studyId = study.id,
    as = siteId === siteA.id ? staffA : staffB,
  ) {
    const patient = await createPatient(t.database.db, siteId, {
      patientDetail: {
        firstName: "Zsófia",
        lastName: `Secretname${run}`,
        ssn: `9${String(10_000_000 + run).padStart(8, "0")}`,
        birthName: null,
        birthDate: "1980-05-17",
        birthCountryCode: "HU",
        birthCity: "Hiddenville",
        motherName: "Mothername",
        sex: "FEMALE",
        notes: null,
      },
    });
    const assignment = await t.request<{ uuid: string; id: number; version: number }>({
      method: "POST",
      url: "/api/study-patients",
      session: as,
      payload: studyPatientInput({ patientId: patient.id, studyId }, { startDate, screenNr: `MON-${run++}` }),
    });
    expect(assignment.status).toBe(201);
    const visit = await t.request<PatientVisit>({
      method: "POST",
      url: "/api/patient-visits",
      session: as,
      payload: patientVisitInput(
        {
          patientId: patient.id,
          studyId,
          visitId: studyId === study.id ? (visitIds[0] as number) : otherVisitId,
        },
        { visitDate: startDate, notes: "" },
      ),
    });
    expect(visit.status).toBe(201);
    return { patient, assignment: assignment.body.data, visit: visit.body.data };
  }

  const getVisit = async (uuid: string, as: Session) =>
    t.request<PatientVisit>({ method: "GET", url: `/api/patient-visits/${uuid}`, session: as });
  const verify = (uuid: string, as: Session) =>
    t.request<PatientVisit>({ method: "POST", url: `/api/patient-visits/${uuid}/verification`, session: as });
  const sampled = async (studyId: number, siteId: number) =>
    (
      await queryRows<{ screenNr: string }>(
        t.database.db,
        sql`select sp.screen_nr as "screenNr" from study_patients sp join patients p on p.id = sp.patient_id
          where sp.study_id = ${studyId} and p.recorder_site_id = ${siteId} and sp.sdv_selected order by 1`,
      )
    ).map((row) => row.screenNr);
  const setPercentage = async (monitoredPercentage: number) => {
    const current = await t.request<{ version: number; finance: object } & Record<string, unknown>>({
      method: "GET",
      url: `/api/projects/${project.id}`,
      session: admin,
    });
    const body = current.body.data;
    const res = await t.request({
      method: "PUT",
      url: `/api/projects/${current.body.data.uuid}`,
      session: admin,
      payload: { ...body, finance: { ...current.body.data.finance, monitoredPercentage } },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  };

  it("signs a monitor in on the same sign-in, with kind monitor and the monitor's menu; an inactive one nowhere", async () => {
    const me = await t.request<{ kind: string; isAdmin: boolean; siteIds: number[] }>({
      method: "GET",
      url: "/api/me",
      session: monitor,
    });
    expect(me.body.data).toMatchObject({ kind: "monitor", isAdmin: false, siteIds: [] });
    const menu = await t.request<{ label: string; route: string }[]>({
      method: "GET",
      url: "/api/me/menu",
      session: monitor,
    });
    expect(menu.body.data.map((item) => [item.label, item.route])).toEqual([
      ["Home", "/"],
      ["Studies", "/studies"],
      ["Source verification", "/source-verification"],
      ["Queries", "/queries"],
    ]);
    // The refresh cookie continues a monitor's sign-in too.
    const refreshed = await t.app.inject({
      method: "POST",
      url: "/api/token",
      payload: { type: "refresh_token" },
      cookies: { trialdesk_refresh: monitor.cookie },
    });
    expect(refreshed.statusCode).toBe(200);

    const inactive = await createMonitor(t.database.db, {
      password: defaultPassword,
      password2: defaultPassword,
      isActive: false,
    });
    const refused = await t.app.inject({
      method: "POST",
      url: "/api/auth",
      payload: { username: inactive.email, password: defaultPassword },
    });
    expect(refused.statusCode).toBe(401);
    // Deactivated while signed in: the next call is refused.
    const m = await createMonitor(t.database.db, { password: defaultPassword, password2: defaultPassword });
    const session = await t.signIn(m.email, defaultPassword);
    await t.database.db.execute(sql`update monitors set is_active = false where id = ${m.id}`);
    expect((await t.request({ method: "GET", url: "/api/me", session })).status).toBe(401);
  });

  it("answers a monitor only the routes made for them, every other with 403 in the envelope", async () => {
    const doc = (await t.app.inject({ method: "GET", url: "/api/docs/json" })).json() as {
      paths: Record<string, Record<string, unknown>>;
    };
    const reached: string[] = [];
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const method of Object.keys(methods)) {
        const url = path.replace(/\{[^}]+\}/g, "1");
        const res = await t.request<unknown>({
          method: method.toUpperCase() as "GET",
          url,
          session: monitor,
          ...(method === "get" ? {} : { payload: {} }),
        });
        if (res.status === 403)
          expect(res.body).toMatchObject({ header: { result: "error", errorCode: "FORBIDDEN" }, data: null });
        else reached.push(`${method.toUpperCase()} ${path}`);
      }
    }
    const reads = [
      "studies",
      "visits",
      "studyplans",
      "study-patients",
      "patient-visits",
      "protocol-deviations",
      "queries",
    ];
    const expected = [
      ...reads.flatMap((name) => [`GET /api/${name}`, `GET /api/${name}/export`, `GET /api/${name}/{id}`]),
      "POST /api/queries",
      "PUT /api/queries/{uuid}",
      "DELETE /api/queries/{uuid}",
      "POST /api/queries/{uuid}/messages",
      "POST /api/patient-visits/{uuid}/verification",
      "POST /api/study-patients/{uuid}/sdv-swap",
      "GET /api/source-verification",
      "GET /api/source-verification/export",
      "GET /api/studies/{uuid}/visits",
      "GET /api/patient-visit-summary/{studyUuid}",
      "GET /api/patient-visit-summary/{studyUuid}/export",
      "GET /api/audit",
      "GET /api/me",
      "GET /api/me/menu",
      "GET /api/me/sites",
    ];
    // Public routes answer anyone.
    const publicRoutes = reached.filter((route) => !expected.includes(route));
    for (const route of publicRoutes) {
      const [method, path] = route.split(" ") as [string, string];
      const anonymous = await t.app.inject({
        method: method as "GET",
        url: path.replace(/\{[^}]+\}/g, "1"),
        ...(method === "GET" ? {} : { payload: {} }),
      });
      expect(anonymous.statusCode, route).not.toBe(401);
    }
    expect(expected.filter((route) => !reached.includes(route))).toEqual([]);
    // Every write of the site's records is refused.
    for (const name of [
      "patients",
      "study-patients",
      "patient-visits",
      "protocol-deviations",
      "studies",
      "visits",
    ]) {
      const res = await t.request({ method: "POST", url: `/api/${name}`, session: monitor, payload: {} });
      expect(res.status, name).toBe(403);
    }
  });

  it("reads the assigned study at the assigned sites within the dates, and never who a patient is", async () => {
    const atA = await assigned(siteA.id, day(-20));
    const atB = await assigned(siteB.id, day(-20));
    const ofOther = await assigned(siteA.id, day(-20), otherStudy.id);
    const secrets = (p: typeof atA) => [
      p.patient.firstName as unknown as string,
      (p.patient as unknown as { lastName: string }).lastName,
      (p.patient as unknown as { ssn: string }).ssn,
      "Hiddenville",
      "Mothername",
    ];
    const calls = [
      `/api/studies/${study.uuid}`,
      `/api/studies?pagesize=100`,
      `/api/studies/${study.uuid}/visits`,
      `/api/visits?studyId=${study.id}`,
      `/api/studyplans`,
      `/api/study-patients?studyId=${study.id}`,
      `/api/study-patients/${atA.assignment.uuid}`,
      `/api/study-patients/export?studyId=${study.id}&columns=${encodeURIComponent('[["barcode","Barcode"],["screenNr","Screen Nr"]]')}`,
      `/api/patient-visits?studyId=${study.id}`,
      `/api/patient-visits/${atA.visit.uuid}`,
      `/api/patient-visits/export?studyId=${study.id}&columns=${encodeURIComponent('[["barcode","Barcode"],["visitName","Visit"]]')}`,
      `/api/protocol-deviations`,
      `/api/patient-visit-summary/${study.uuid}?compact=true&dayZero=2025-01-01`,
      `/api/patient-visit-summary/${study.uuid}`,
      `/api/audit?resource=study-patients&uuid=${atA.assignment.uuid}`,
      `/api/audit?resource=patient-visits&uuid=${atA.visit.uuid}`,
      `/api/source-verification`,
    ];
    for (const url of calls) {
      const res = await t.app.inject({
        method: "GET",
        url,
        headers: { authorization: `Bearer ${monitor.accessToken}` },
      });
      expect(res.statusCode, url).toBe(200);
      for (const secret of [...secrets(atA), ...secrets(atB)])
        expect(res.body, `${url} ${secret}`).not.toContain(secret);
    }
    const list = await t.request<ListData<{ barcode: string; screenNr: string }>>({
      method: "GET",
      url: `/api/study-patients?studyId=${study.id}`,
      session: monitor,
    });
    expect(list.body.data.items.map((row) => row.screenNr)).toContain(
      atA.assignment.uuid ? await readScreen(atA.assignment.uuid) : "",
    );
    expect(list.body.data.items.map((row) => row.screenNr)).not.toContain(
      await readScreen(atB.assignment.uuid),
    );
    // Another site of the study, another study: not found, never listed.
    expect((await getVisit(atB.visit.uuid, monitor)).status).toBe(404);
    expect((await getVisit(ofOther.visit.uuid, monitor)).status).toBe(404);
    expect((await getVisit(atA.visit.uuid, elsewhere)).status).toBe(404);
    expect((await getVisit(ofOther.visit.uuid, elsewhere)).status).toBe(200);
    // Searching by a name finds nothing; sorting by it is refused.
    const byName = await t.request<ListData<unknown>>({
      method: "GET",
      url: `/api/study-patients?searchTerm=${encodeURIComponent((atA.patient as unknown as { lastName: string }).lastName)}`,
      session: monitor,
    });
    expect(byName.body.data.items).toEqual([]);
    const sorted = await t.request({
      method: "GET",
      url: "/api/study-patients?order=patientName",
      session: monitor,
    });
    expect(sorted.status).toBe(400);
    // Outside the assignment's dates it gives nothing.
    expect((await getVisit(atA.visit.uuid, future)).status).toBe(404);
    const futureList = await t.request<ListData<unknown>>({
      method: "GET",
      url: "/api/patient-visits",
      session: future,
    });
    expect(futureList.body.data.items).toEqual([]);
    const summary = await t.request({
      method: "GET",
      url: `/api/patient-visit-summary/${study.uuid}`,
      session: future,
    });
    expect(summary.status).toBe(404);
    const history = await t.request<{ items: unknown[] }>({
      method: "GET",
      url: `/api/audit?resource=patient-visits&uuid=${atA.visit.uuid}`,
      session: future,
    });
    expect(history.body.data.items).toEqual([]);
    // What a monitor may not read has no history for them either.
    const patientHistory = await t.request({
      method: "GET",
      url: `/api/audit?resource=patients&uuid=${atA.patient.uuid}`,
      session: monitor,
    });
    expect(patientHistory.status).toBe(403);
  });

  it("gives a monitor outside the assignment's dates, or of another study, nothing of this study on any read", async () => {
    const { assignment, visit } = await assigned(siteA.id, day(-18));
    const [deviation] = await queryRows<{ uuid: string }>(
      t.database.db,
      sql`select uuid from protocol_deviations where study_id = ${study.id} limit 1`,
    );
    const query = await t.request<{ uuid: string }>({
      method: "POST",
      url: "/api/queries",
      session: monitor,
      payload: { uuid: newUuid("queries"), patientVisitId: visit.id, text: "For the matrix" },
    });
    expect(query.status).toBe(201);
    const [visitRow] = await queryRows<{ uuid: string }>(
      t.database.db,
      sql`select uuid from visits where id = ${visitIds[0] as number}`,
    );
    const [plan] = await queryRows<{ uuid: string }>(
      t.database.db,
      sql`select uuid from studyplans where study_id = ${study.id}`,
    );
    // Every read a monitor may make, each naming a record of the assigned study.
    const records: [string, string | undefined][] = [
      ["studies", study.uuid],
      ["visits", visitRow?.uuid],
      ["studyplans", plan?.uuid],
      ["study-patients", assignment.uuid],
      ["patient-visits", visit.uuid],
      ["protocol-deviations", deviation?.uuid],
      ["queries", query.body.data.uuid],
    ];
    const read = (url: string, as: Session) =>
      t.request<ListData<unknown>>({ method: "GET", url, session: as });
    for (const [who, as] of [
      ["in", monitor],
      ["future", future],
      ["elsewhere", elsewhere],
    ] as const) {
      for (const [name, key] of records) {
        if (!key) continue;
        const one = await read(`/api/${name}/${key}`, as);
        const list = await read(`/api/${name}?pagesize=100`, as);
        const history = await t.request<{ items: unknown[] }>({
          method: "GET",
          url: `/api/audit?resource=${name}&uuid=${key}`,
          session: as,
        });
        const listed = JSON.stringify(list.body.data.items).includes(key);
        const seen = [one.status, listed, history.body.data.items.length > 0];
        expect(seen, `${who} ${name}`).toEqual(who === "in" ? [200, true, true] : [404, false, false]);
      }
      const summary = await read(`/api/patient-visit-summary/${study.uuid}`, as);
      expect(summary.status, `${who} summary`).toBe(who === "in" ? 200 : 404);
      const todo = await read(`/api/source-verification?studyId=${study.id}`, as);
      expect(todo.body.data.items.length > 0, `${who} source verification`).toBe(who === "in");
    }
  });

  async function readScreen(uuid: string) {
    const [row] = await queryRows<{ screenNr: string }>(
      t.database.db,
      sql`select screen_nr as "screenNr" from study_patients where uuid = ${uuid}`,
    );
    return row?.screenNr;
  }

  it("samples the earliest started, grows with the assignments, keeps the verified, and lets a monitor swap", async () => {
    const db = t.database.db;
    const site = await createSite(db);
    // A project of its own, so the other tests' patients do not count.
    const category = await createTherapyCategory(db);
    const area = await createTherapyArea(db, category.id);
    const partner = await createPartner(db, { cro: true, sponsor: true });
    const own = await createProject(
      db,
      { croId: partner.id, sponsorId: partner.id, therapyAreaId: area.id, siteIds: [site.id] },
      {},
    );
    const ownStudy = await createStudy(db, own as { id: number; protocolNr: string });
    const screening = (await createVisit(db, ownStudy.id, { name: "Screening", visitTypeId: 10 })).id;
    const staff = await t.signedInUser({ siteIds: [site.id] });
    const m = await createMonitor(db, { password: defaultPassword, password2: defaultPassword });
    await createMonitorAssignment(db, {
      monitorId: m.id,
      studyId: ownStudy.id,
      accessFrom: day(-1),
      accessTo: day(1),
    });
    const mon = await t.signIn(m.email, defaultPassword);
    const percentage = async (value: number) => {
      const current = await t.request<Record<string, unknown> & { uuid: string; finance: object }>({
        method: "GET",
        url: `/api/projects/${own.id}`,
        session: admin,
      });
      const body = current.body.data;
      expect(
        (
          await t.request({
            method: "PUT",
            url: `/api/projects/${current.body.data.uuid}`,
            session: admin,
            payload: { ...body, finance: { ...current.body.data.finance, monitoredPercentage: value } },
          })
        ).status,
      ).toBe(200);
    };
    await percentage(50);
    const enrol = async (screenNr: string, startDate: string) => {
      const patient = await createPatient(db, site.id);
      const res = await t.request<{ uuid: string }>({
        method: "POST",
        url: "/api/study-patients",
        session: staff,
        payload: studyPatientInput({ patientId: patient.id, studyId: ownStudy.id }, { startDate, screenNr }),
      });
      expect(res.status).toBe(201);
      const visit = await t.request<PatientVisit>({
        method: "POST",
        url: "/api/patient-visits",
        session: staff,
        payload: patientVisitInput(
          { patientId: patient.id, studyId: ownStudy.id, visitId: screening },
          { visitDate: startDate },
        ),
      });
      return { uuid: res.body.data.uuid, visit: visit.body.data };
    };
    const p3 = await enrol("P3", day(-10));
    const p1 = await enrol("P1", day(-30));
    const p2 = await enrol("P2", day(-20));
    // ceil(50 % of 3) = 2: the two earliest started.
    expect(await sampled(ownStudy.id, site.id)).toEqual(["P1", "P2"]);
    expect((await getVisit(p1.visit.uuid, staff)).body.data.sdvStatus).toBe("PENDING");
    expect((await getVisit(p3.visit.uuid, staff)).body.data.sdvStatus).toBe("NOT_REQUIRED");
    // 4 assignments: still 2; 5: 3, the earliest not yet sampled.
    await enrol("P4", day(-5));
    expect(await sampled(ownStudy.id, site.id)).toEqual(["P1", "P2"]);
    await enrol("P5", day(-3));
    expect(await sampled(ownStudy.id, site.id)).toEqual(["P1", "P2", "P3"]);
    // P2 verified: it never leaves the sample, even at 0 %.
    expect((await verify(p2.visit.uuid, mon)).status).toBe(200);
    await percentage(0);
    expect(await sampled(ownStudy.id, site.id)).toEqual(["P2"]);
    await percentage(100);
    expect(await sampled(ownStudy.id, site.id)).toEqual(["P1", "P2", "P3", "P4", "P5"]);
    await percentage(40);
    // ceil(40 % of 5) = 2: P2 (verified) and the earliest unverified.
    expect(await sampled(ownStudy.id, site.id)).toEqual(["P1", "P2"]);
    // A monitor swaps P1 (nothing verified) for P4; the next assignment keeps the swap.
    const p4 = await queryRows<{ uuid: string }>(
      db,
      sql`select uuid from study_patients where screen_nr = 'P4' and study_id = ${ownStudy.id}`,
    );
    const swap = await t.request({
      method: "POST",
      url: `/api/study-patients/${p1.uuid}/sdv-swap`,
      session: mon,
      payload: { replacementUuid: p4[0]?.uuid },
    });
    expect(swap.status).toBe(200);
    expect(await sampled(ownStudy.id, site.id)).toEqual(["P2", "P4"]);
    await enrol("P6", day(-1));
    // ceil(40 % of 6) = 3: the earliest started not sampled (P3); P1, swapped out, comes after all.
    expect(await sampled(ownStudy.id, site.id)).toEqual(["P2", "P3", "P4"]);
    // A verified patient cannot be swapped out; staff cannot swap.
    const verifiedOut = await t.request({
      method: "POST",
      url: `/api/study-patients/${p2.uuid}/sdv-swap`,
      session: mon,
      payload: { replacementUuid: p3.uuid },
    });
    expect(verifiedOut.status).toBe(409);
    const byStaff = await t.request({
      method: "POST",
      url: `/api/study-patients/${p1.uuid}/sdv-swap`,
      session: staff,
      payload: { replacementUuid: p3.uuid },
    });
    expect(byStaff.status).toBe(403);
  });

  it("verifies a pending visit once, reopens it when its verified data change, and records who did it", async () => {
    await setPercentage(100);
    const { visit } = await assigned(siteA.id, day(-15));
    const pending = await getVisit(visit.uuid, monitor);
    expect(pending.body.data.sdvStatus).toBe("PENDING");
    // Staff and administrators do not verify; a monitor of another study finds no such visit.
    expect((await verify(visit.uuid, staffA)).status).toBe(403);
    expect((await verify(visit.uuid, admin)).status).toBe(403);
    expect((await verify(visit.uuid, elsewhere)).status).toBe(404);
    expect((await verify(visit.uuid, future)).status).toBe(404);
    const done = await verify(visit.uuid, monitor);
    expect(done.status).toBe(200);
    expect(done.body.data).toMatchObject({
      sdvStatus: "VERIFIED",
      sdvVerifiedByName: expect.stringContaining("Monitor"),
    });
    expect(done.body.data.sdvVerifiedAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect((await verify(visit.uuid, monitor)).status).toBe(409);
    const staffView = await getVisit(visit.uuid, staffA);
    expect(staffView.body.data.sdvStatus).toBe("VERIFIED");
    // Saved again unchanged: still verified.
    const body = {
      ...patientVisitInput({ patientId: 0, studyId: 0, visitId: 0 }),
      ...pickInput(staffView.body.data),
    };
    const same = await t.request<PatientVisit>({
      method: "PUT",
      url: `/api/patient-visits/${visit.uuid}`,
      session: staffA,
      headers: withReason(),
      payload: body,
    });
    expect(same.status).toBe(200);
    expect(same.body.data.sdvStatus).toBe("VERIFIED");
    // Its notes changed: reopened, for the monitor too.
    const changed = await t.request<PatientVisit>({
      method: "PUT",
      url: `/api/patient-visits/${visit.uuid}`,
      session: staffA,
      headers: withReason(),
      payload: { ...body, version: same.body.data.version, notes: "Source corrected: 10:15" },
    });
    expect(changed.body.data.sdvStatus).toBe("REOPENED");
    const todo = await t.request<ListData<{ patientVisitUuid: string; sdvStatus: SdvStatus }>>({
      method: "GET",
      url: "/api/source-verification?sdvStatus=REOPENED",
      session: monitor,
    });
    expect(todo.body.data.items.map((row) => row.patientVisitUuid)).toContain(visit.uuid);
    expect((await verify(visit.uuid, monitor)).body.data.sdvStatus).toBe("VERIFIED");
    // The history says who verified, as the monitor, and the reopening.
    const history = await t.request<{
      items: { userName: string; changes: { field: string; new: unknown }[] }[];
    }>({
      method: "GET",
      url: `/api/audit?resource=patient-visits&uuid=${visit.uuid}`,
      session: staffA,
    });
    const sdvChanges = history.body.data.items.flatMap((e) =>
      e.changes.filter((c) => c.field === "sdvStatus").map((c) => [e.userName, c.new]),
    );
    expect(sdvChanges).toEqual(
      expect.arrayContaining([
        [expect.stringContaining("Monitor"), "VERIFIED"],
        [expect.any(String), "REOPENED"],
      ]),
    );
    const [row] = await queryRows<{ monitorId: number | null; userId: number | null }>(
      t.database.db,
      sql`select monitor_id as "monitorId", user_id as "userId" from audit_events
        where uuid = ${visit.uuid} and changes::text like '%VERIFIED%' order by id limit 1`,
    );
    expect(row).toEqual({ monitorId, userId: null });
  });

  it("verifies a visit once when two monitors press Verify at the same moment", async () => {
    const { visit } = await assigned(siteA.id, day(-12));
    const second = await t.signIn(
      (
        await queryRows<{ email: string }>(
          t.database.db,
          sql`select email from monitors where id = ${monitorId}`,
        )
      )[0]?.email as string,
      defaultPassword,
    );
    const answers = await Promise.all([verify(visit.uuid, monitor), verify(visit.uuid, second)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
  });

  it("runs a query from OPEN to ANSWERED by the site, CLOSED by the monitor and back to OPEN", async () => {
    const { visit } = await assigned(siteA.id, day(-9));
    const queries = (as: Session, payload: object, method: "POST" | "PUT" = "POST", uuid = "") =>
      t.request<Query>({ method, url: `/api/queries${uuid ? `/${uuid}` : ""}`, session: as, payload });
    const opened = await queries(monitor, {
      patientVisitId: visit.id,
      text: "Time differs from the source: 09:00?",
    });
    expect(opened.status).toBe(201);
    expect(opened.body.data).toMatchObject({
      status: "OPEN",
      barcode: expect.any(String),
      visitName: "Screening",
    });
    const uuid = opened.body.data.uuid;
    // Staff do not open or close queries; another study's monitor cannot open one here.
    expect((await queries(staffA, { patientVisitId: visit.id, text: "x" })).status).toBe(403);
    expect((await queries(elsewhere, { patientVisitId: visit.id, text: "x" })).status).toBe(400);
    expect((await queries(monitor, { patientVisitId: visit.id, text: "" })).status).toBe(400);
    // The verified visit with an open query counts as not verified.
    expect((await verify(visit.uuid, monitor)).status).toBe(200);
    expect((await getVisit(visit.uuid, staffA)).body.data.openQueries).toBe(1);
    const message = (as: Session, text: string) =>
      t.request<Query>({
        method: "POST",
        url: `/api/queries/${uuid}/messages`,
        session: as,
        payload: { text },
      });
    // Another site's staff never see it.
    expect((await message(staffB, "not mine")).status).toBe(404);
    expect((await t.request({ method: "GET", url: `/api/queries/${uuid}`, session: staffB })).status).toBe(
      404,
    );
    const answered = await message(staffA, "The source says 09:30; the entry is right.");
    expect(answered.status).toBe(201);
    expect(answered.body.data.status).toBe("ANSWERED");
    expect(answered.body.data.messages).toEqual([
      expect.objectContaining({ authorKind: "site", text: "The source says 09:30; the entry is right." }),
    ]);
    // ANSWERED is never set by hand.
    const byHand = await queries(
      monitor,
      { ...answered.body.data, status: "ANSWERED", messages: undefined },
      "PUT",
      uuid,
    );
    expect(byHand.status).toBe(400);
    const closed = await queries(
      monitor,
      { ...pickQuery(answered.body.data), status: "CLOSED" },
      "PUT",
      uuid,
    );
    expect(closed.status).toBe(200);
    expect(closed.body.data.status).toBe("CLOSED");
    expect((await getVisit(visit.uuid, staffA)).body.data.openQueries).toBe(0);
    expect((await message(staffA, "one more thing")).status).toBe(409);
    expect(
      (await queries(staffA, { ...pickQuery(closed.body.data), status: "OPEN" }, "PUT", uuid)).status,
    ).toBe(403);
    const reopened = await queries(monitor, { ...pickQuery(closed.body.data), status: "OPEN" }, "PUT", uuid);
    expect(reopened.body.data.status).toBe("OPEN");
    expect(reopened.body.data.text).toBe("Time differs from the source: 09:00?");
    // Never deleted: staff may not try; the monitor is told to close it.
    const remove = (as: Session) => t.request({ method: "DELETE", url: `/api/queries/${uuid}`, session: as });
    expect((await remove(staffA)).status).toBe(403);
    expect((await remove(monitor)).status).toBe(409);
    // Site staff list their site's open queries.
    const open = await t.request<ListData<{ uuid: string }>>({
      method: "GET",
      url: `/api/queries?status=OPEN&siteId=${siteA.id}`,
      session: staffA,
    });
    expect(open.body.data.items.map((q) => q.uuid)).toContain(uuid);
  });

  it("states every visit's verification in SQL as the domain's sdvStatus rule does", async () => {
    // One verified visit changed since (the flow is tested above): every state is present.
    await t.database.db.execute(
      sql`update patient_visits set sdv_reopened = true
        where id = (select min(id) from patient_visits where sdv_verified_at is not null)`,
    );
    const rows = await queryRows<SdvRecord & { stated: SdvStatus }>(
      t.database.db,
      sql`select ${sdvStatusSql} as stated, patient_visits.visit_status as "visitStatus",
          patient_visits.sdv_verified_at::text as "verifiedAt", patient_visits.sdv_reopened as reopened,
          exists(select 1 from study_patients sp where sp.patient_id = patient_visits.patient_id
            and sp.study_id = patient_visits.study_id and sp.sdv_selected) as sampled
        from patient_visits`,
    );
    for (const row of rows) expect(row.stated).toBe(sdvStatus(row));
    // The tests above left visits in every state.
    expect(new Set(rows.map((row) => row.stated))).toEqual(
      new Set(["NOT_REQUIRED", "PENDING", "VERIFIED", "REOPENED"]),
    );
  });
});

const inputFields = [
  "uuid",
  "version",
  "patientId",
  "studyId",
  "visitId",
  "visitDate",
  "visitTime",
  "visitStatus",
  "visitResult",
  "notes",
];
const pickInput = (visit: PatientVisit) =>
  Object.fromEntries(Object.entries(visit).filter(([key]) => inputFields.includes(key)));
const pickQuery = (query: Query) => ({
  uuid: query.uuid,
  version: query.version,
  patientVisitId: query.patientVisitId,
  text: query.text,
});
