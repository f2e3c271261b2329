import type { Aging, Earning, ListData, Payment, Statement } from "@trialdesk/domain";
import { newUuid, toIsoDate } from "@trialdesk/domain";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../src/db/client";
import {
  createMonitor,
  createMonitorAssignment,
  createPatient,
  createSite,
  defaultPassword,
  patientVisitInput,
  studyPatientInput,
} from "../src/seed/factories";
import { databaseKinds, type Session, startApp, type TestApp, withReason } from "./helpers";
import { financeStudy } from "./study-setup";

/**
 * What the site is owed (issue 45): earnings written with the visit saves, statements of the billable
 * ones, payments allocated to them and the aging of what is open, with the worked example.
 */
describe.each(databaseKinds)("site finance on %s", (kind) => {
  let t: TestApp;
  let admin: Session;
  let staffA: Session;
  let staffB: Session;
  let siteA: { id: number };
  let siteB: { id: number };
  let run = 0;

  beforeAll(async () => {
    t = await startApp(kind);
    siteA = await createSite(t.database.db);
    siteB = await createSite(t.database.db);
    admin = await t.signedInUser({ isAdmin: true });
    staffA = await t.signedInUser({ siteIds: [siteA.id] });
    staffB = await t.signedInUser({ siteIds: [siteB.id] });
  });
  afterAll(() => t.close());

  /** A project at sites A and B with the worked example's terms, a study and a plan of 5 mandatory visits. */
  const setUp = (monitoredPercentage: number) =>
    financeStudy(t.database.db, [siteA.id, siteB.id], monitoredPercentage, [
      ...[1, 2, 3, 4, 5].map((i) => ({ name: `V${i}` })),
      // One optional visit: it earns nothing.
      { name: "Phone call", mandatory: 0 as const },
    ]);

  type Setup = Awaited<ReturnType<typeof setUp>>;
  /** A patient of the site assigned from 1 Sep 2026, with the given visits completed a week apart. */
  async function patientWith(setup: Setup, visits: number, siteId = siteA.id, as = staffA) {
    const patient = await createPatient(t.database.db, siteId);
    const assignment = await t.request({
      method: "POST",
      url: "/api/study-patients",
      session: as,
      payload: studyPatientInput(
        { patientId: patient.id, studyId: setup.study.id },
        { startDate: "2026-09-01", screenNr: `F-${run++}` },
      ),
    });
    expect(assignment.status, JSON.stringify(assignment.body)).toBe(201);
    const recorded: { uuid: string; version: number }[] = [];
    for (let i = 0; i < visits; i++) {
      const day = String(1 + i * 7).padStart(2, "0");
      const res = await t.request<{ uuid: string; version: number }>({
        method: "POST",
        url: "/api/patient-visits",
        session: as,
        payload: patientVisitInput(
          { patientId: patient.id, studyId: setup.study.id, visitId: setup.visitIds[i] as number },
          { visitDate: `2026-09-${day}` },
        ),
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      recorded.push(res.body.data);
    }
    return { patient, visits: recorded };
  }

  const earningsOf = async (projectId: number, as = staffA, query = "") =>
    (
      await t.request<ListData<Earning>>({
        method: "GET",
        url: `/api/earnings?projectId=${projectId}&pagesize=100${query}`,
        session: as,
      })
    ).body.data.items;
  const summaryOf = async (projectId: number, as = staffA) =>
    (
      await t.request<Record<string, string>>({
        method: "GET",
        url: `/api/finance/summary?projectId=${projectId}&siteId=${siteA.id}`,
        session: as,
      })
    ).body.data;
  const statementFor = (projectId: number, periodTo: string, as = staffA, statementDate = "2026-12-01") =>
    t.request<Statement>({
      method: "POST",
      url: "/api/statements",
      session: as,
      payload: { uuid: newUuid("statements"), projectId, siteId: siteA.id, periodTo, statementDate },
    });

  it("works the issue's example: 370.00 a visit, 2,220.00 earned, a statement of 2,255.52 due 15 Jan, 255.52 open and aged", async () => {
    const setup = await setUp(0);
    const projectId = setup.project.id;
    const first = await patientWith(setup, 5);
    await patientWith(setup, 1);
    const earned = await earningsOf(projectId);
    expect(earned).toHaveLength(6);
    expect(
      earned.every((e) => e.amount === "370.00" && e.heldBack === "74.00" && e.payable === "296.00"),
    ).toBe(true);
    expect(new Set(earned.map((e) => e.state))).toEqual(new Set(["BILLABLE"]));
    expect(await summaryOf(projectId)).toMatchObject({
      currency: "EUR",
      earned: "2220.00",
      heldBack: "444.00",
      unbilled: "1776.00",
      awaitingVerification: "0.00",
    });

    const created = await statementFor(projectId, "2026-11-28");
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.data).toMatchObject({
      status: "DRAFT",
      net: "1776.00",
      vat: "479.52",
      gross: "2255.52",
      dueDate: "2027-01-15",
      currency: "EUR",
      vatPercent: 27,
    });
    expect(created.body.data.lines).toHaveLength(6);
    expect(new Set((await earningsOf(projectId)).map((e) => e.state))).toEqual(new Set(["ON_STATEMENT"]));
    // Nothing is left to bill: a second statement is refused on the field.
    const again = await statementFor(projectId, "2026-11-28");
    expect(again.status).toBe(400);
    expect(again.body.header.fieldErrors).toEqual([
      { field: "periodTo", message: "Nothing is billable at this site up to this date" },
    ]);

    const statement = created.body.data;
    const send = await t.request<Statement>({
      method: "PUT",
      url: `/api/statements/${statement.uuid}`,
      session: staffA,
      payload: { ...statement, status: "SENT" },
    });
    expect(send.status, JSON.stringify(send.body)).toBe(200);
    expect(send.body.data.status).toBe("SENT");
    // A sent statement never changes.
    const line = await t.request({
      method: "POST",
      url: `/api/statements/${statement.uuid}/lines`,
      session: staffA,
      payload: { description: "Screen failure fee", amount: "100.00" },
    });
    expect(line.status).toBe(409);

    const payment = (amount: string, allocated: string, as = staffA) =>
      t.request<Payment>({
        method: "POST",
        url: "/api/payments",
        session: as,
        payload: {
          uuid: newUuid("payments"),
          projectId,
          siteId: siteA.id,
          receivedDate: "2027-01-20",
          amount,
          reference: "Sponsor transfer",
          allocations: [{ statementId: statement.id, amount: allocated }],
        },
      });
    const paid = await payment("2000.00", "2000.00");
    expect(paid.status, JSON.stringify(paid.body)).toBe(201);
    expect(paid.body.data).toMatchObject({ allocated: "2000.00", unapplied: "0.00" });
    const now = await t.request<Statement>({
      method: "GET",
      url: `/api/statements/${statement.uuid}`,
      session: staffA,
    });
    expect(now.body.data).toMatchObject({ status: "PARTIALLY_PAID", paid: "2000.00", open: "255.52" });
    const aging = await t.request<Aging>({
      method: "GET",
      url: `/api/finance/aging?projectId=${projectId}&siteId=${siteA.id}&asOf=2027-01-31`,
      session: staffA,
    });
    expect(aging.body.data).toMatchObject({
      notDue: "0.00",
      days1to30: "255.52",
      days31to60: "0.00",
      over90: "0.00",
      heldBack: "444.00",
      unbilled: "0.00",
      unappliedCredit: "0.00",
    });
    // Beyond the open amount: refused on the allocation's field; nothing changes.
    const beyond = await payment("300.00", "300.00");
    expect(beyond.status).toBe(400);
    expect(beyond.body.header.fieldErrors).toEqual([
      { field: "allocations.0.amount", message: "More than the statement's open amount" },
    ]);
    // The rest pays it.
    expect((await payment("255.52", "255.52")).status).toBe(201);
    const settled = await t.request<Statement>({
      method: "GET",
      url: `/api/statements/${statement.uuid}`,
      session: staffA,
    });
    expect(settled.body.data).toMatchObject({ status: "PAID", open: "0.00" });
    expect(new Set((await earningsOf(projectId)).map((e) => e.state))).toEqual(new Set(["PAID"]));
    // With payments, a statement is not voided.
    const voided = await t.request({
      method: "PUT",
      url: `/api/statements/${statement.uuid}`,
      session: staffA,
      payload: { ...settled.body.data, status: "VOID" },
    });
    expect(voided.status).toBe(409);

    // A billed visit no longer completed: a reversing line waits for the next statement.
    const visit = first.visits[4] as { uuid: string; version: number };
    const read = await t.request<Record<string, unknown>>({
      method: "GET",
      url: `/api/patient-visits/${visit.uuid}`,
      session: staffA,
    });
    const cancel = await t.request({
      method: "PUT",
      url: `/api/patient-visits/${visit.uuid}`,
      session: staffA,
      headers: withReason(),
      payload: {
        ...patientVisitInput({ patientId: 0, studyId: 0, visitId: 0 }),
        uuid: visit.uuid,
        version: read.body.data.version,
        patientId: read.body.data.patientId,
        studyId: read.body.data.studyId,
        visitId: read.body.data.visitId,
        visitDate: read.body.data.visitDate,
        visitStatus: "CANCELLED",
        visitResult: null,
      },
    });
    expect(cancel.status, JSON.stringify(cancel.body)).toBe(200);
    const reversal = (await earningsOf(projectId)).filter((e) => e.reversal);
    expect(reversal).toMatchObject([
      { amount: "-370.00", payable: "-296.00", heldBack: "-74.00", state: "BILLABLE" },
    ]);
    // The reversal is earned the day the visit stopped counting: today.
    const today = toIsoDate(new Date());
    const next = await statementFor(projectId, today, staffA, today);
    expect(next.status, JSON.stringify(next.body)).toBe(201);
    expect(next.body.data).toMatchObject({ net: "-296.00", vat: "-79.92", gross: "-375.92" });
  });

  it("voids an earning un-completed before any statement, and keeps one earning per visit however it is saved", async () => {
    const setup = await setUp(0);
    const { visits } = await patientWith(setup, 2);
    expect(await earningsOf(setup.project.id)).toHaveLength(2);
    const removed = await t.request({
      method: "DELETE",
      url: `/api/patient-visits/${visits[1]?.uuid}`,
      session: staffA,
      headers: withReason(),
    });
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    expect(await earningsOf(setup.project.id)).toHaveLength(1);
    const [voided] = await queryRows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from earnings where project_id = ${setup.project.id} and voided_at is not null`,
    );
    expect(voided?.n).toBe(1);
  });

  it("waits for the monitor's verification of a sampled patient's visit, and again while a query is open", async () => {
    const setup = await setUp(100);
    const m = await createMonitor(t.database.db, { password: defaultPassword, password2: defaultPassword });
    const today = new Date().toISOString().slice(0, 10);
    await createMonitorAssignment(t.database.db, {
      monitorId: m.id,
      studyId: setup.study.id,
      accessFrom: today,
      accessTo: today,
    });
    const monitor = await t.signIn(m.email, defaultPassword);
    const { visits } = await patientWith(setup, 1);
    const state = async () => (await earningsOf(setup.project.id))[0]?.state;
    expect(await state()).toBe("AWAITING_VERIFICATION");
    expect((await summaryOf(setup.project.id)).awaitingVerification).toBe("296.00");
    const uuid = visits[0]?.uuid as string;
    expect(
      (await t.request({ method: "POST", url: `/api/patient-visits/${uuid}/verification`, session: monitor }))
        .status,
    ).toBe(200);
    expect(await state()).toBe("BILLABLE");
    const [row] = await queryRows<{ id: number }>(
      t.database.db,
      sql`select id from patient_visits where uuid = ${uuid}`,
    );
    const query = await t.request({
      method: "POST",
      url: "/api/queries",
      session: monitor,
      payload: { uuid: newUuid("queries"), patientVisitId: row?.id, text: "Which source?" },
    });
    expect(query.status).toBe(201);
    expect(await state()).toBe("AWAITING_VERIFICATION");
    // Not billable, so no statement.
    expect((await statementFor(setup.project.id, today)).status).toBe(400);
    // Monitors never see the ledger.
    expect((await t.request({ method: "GET", url: "/api/earnings", session: monitor })).status).toBe(403);
    expect((await t.request({ method: "GET", url: "/api/statements", session: monitor })).status).toBe(403);
  });

  it("keeps each site's ledger to its staff, and puts no earning on two statements prepared at once", async () => {
    const setup = await setUp(0);
    await patientWith(setup, 3);
    // Site B's staff see none of site A's earnings and cannot prepare its statement.
    expect(await earningsOf(setup.project.id, staffB)).toEqual([]);
    const foreign = await t.request({
      method: "POST",
      url: "/api/statements",
      session: staffB,
      payload: {
        uuid: newUuid("statements"),
        projectId: setup.project.id,
        siteId: siteA.id,
        periodTo: "2026-11-28",
        statementDate: "2026-12-01",
      },
    });
    expect(foreign.status).toBe(400);
    // Nobody writes an earning by hand.
    expect(
      (await t.request({ method: "POST", url: "/api/earnings", session: admin, payload: {} })).status,
    ).toBe(403);
    const both = await Promise.all([
      statementFor(setup.project.id, "2026-11-28"),
      statementFor(setup.project.id, "2026-11-28", admin),
    ]);
    expect(both.map((res) => res.status).sort()).toEqual([201, 400]);
    const [counts] = await queryRows<{ lines: number; earnings: number }>(
      t.database.db,
      sql`select (select count(*)::int from statement_lines l join statements s on s.id = l.statement_id
          where s.project_id = ${setup.project.id}) as lines,
        (select count(*)::int from earnings where project_id = ${setup.project.id} and statement_id is not null) as earnings`,
    );
    expect(counts).toEqual({ lines: 3, earnings: 3 });
  });

  /** A statement read again. */
  const statementNow = async (uuid: string, as = staffA) =>
    (await t.request<Statement>({ method: "GET", url: `/api/statements/${uuid}`, session: as })).body;
  const put = (statement: Statement, status: string, as = staffA) =>
    t.request<Statement>({
      method: "PUT",
      url: `/api/statements/${statement.uuid}`,
      session: as,
      payload: { ...statement, status },
    });

  it("releases the held-back amounts by a close-out statement once every assignment at the site is closed, and again after it is voided", async () => {
    const setup = await setUp(0);
    const projectId = setup.project.id;
    const { patient } = await patientWith(setup, 5);
    const closeOut = (as = staffA) =>
      t.request<Statement>({
        method: "POST",
        url: "/api/statements",
        session: as,
        payload: {
          uuid: newUuid("statements"),
          projectId,
          siteId: siteA.id,
          periodTo: "2026-11-28",
          statementDate: "2026-12-01",
          closeOut: true,
        },
      });
    // The patient's assignment is still open: refused on the field, nothing prepared.
    const early = await closeOut();
    expect(early.status).toBe(400);
    expect(early.body.header.fieldErrors).toEqual([
      {
        field: "closeOut",
        message:
          "A close-out statement needs every assignment of the project at the site closed (1 still open)",
      },
    ]);
    const regular = await statementFor(projectId, "2026-11-28");
    expect(regular.body.data).toMatchObject({ net: "1480.00", closeOut: false });
    expect((await put(regular.body.data, "SENT")).status).toBe(200);

    const [assignment] = await queryRows<{ uuid: string }>(
      t.database.db,
      sql`select uuid from study_patients where patient_id = ${patient.id} and study_id = ${setup.study.id}`,
    );
    const read = await t.request<Record<string, unknown>>({
      method: "GET",
      url: `/api/study-patients/${assignment.uuid}`,
      session: staffA,
    });
    const closed = await t.request({
      method: "PUT",
      url: `/api/study-patients/${assignment.uuid}`,
      session: staffA,
      headers: { "x-change-reason": "End of study" },
      payload: { ...read.body.data, active: false, closeReason: "EOS", closeDate: "2026-11-20" },
    });
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);

    const first = await closeOut();
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    // 5 × 74.00 held back, released on one statement: net 370.00, VAT 27 % 99.90.
    expect(first.body.data).toMatchObject({ closeOut: true, net: "370.00", vat: "99.90", gross: "469.90" });
    expect(first.body.data.lines).toHaveLength(5);
    expect(
      first.body.data.lines?.every(
        (line) => line.heldBack && line.amount === "74.00" && line.description.endsWith("held back released"),
      ),
    ).toBe(true);
    expect(await summaryOf(projectId)).toMatchObject({ heldBack: "0.00", earned: "1850.00" });
    // Released once: nothing is left to close out.
    const again = await closeOut();
    expect(again.status).toBe(400);
    expect(again.body.header.fieldErrors).toEqual([
      { field: "periodTo", message: "Nothing is billable or held back at this site up to this date" },
    ]);
    // Voided, its amounts are held back again, and a new close-out releases them.
    expect((await put(first.body.data, "VOID")).status).toBe(200);
    expect(await summaryOf(projectId)).toMatchObject({ heldBack: "370.00" });
    const second = await closeOut(admin);
    expect(second.status).toBe(201);
    expect(second.body.data).toMatchObject({ net: "370.00", gross: "469.90" });
    // Another site's staff may not prepare it.
    const foreign = await t.request({
      method: "POST",
      url: "/api/statements",
      session: staffB,
      payload: {
        uuid: newUuid("statements"),
        projectId,
        siteId: siteA.id,
        periodTo: "2026-11-28",
        statementDate: "2026-12-01",
        closeOut: true,
      },
    });
    expect(foreign.status).toBe(400);
  });

  it("writes off the open rest of a short payment with a reason: the statement counts as paid, once", async () => {
    const setup = await setUp(0);
    const projectId = setup.project.id;
    await patientWith(setup, 1);
    const draft = (await statementFor(projectId, "2026-11-28")).body.data;
    const writeOff = (uuid: string, reason: unknown, as = staffA) =>
      t.request<Statement>({
        method: "POST",
        url: `/api/statements/${uuid}/write-off`,
        session: as,
        payload: { reason },
      });
    // A draft has nothing open yet.
    expect((await writeOff(draft.uuid, "Sponsor short-paid")).status).toBe(409);
    const sent = (await put(draft, "SENT")).body.data;
    // 296.00 + 27 % = 375.92; the sponsor pays 370.00.
    expect(sent.gross).toBe("375.92");
    const paid = await t.request({
      method: "POST",
      url: "/api/payments",
      session: staffA,
      payload: {
        uuid: newUuid("payments"),
        projectId,
        siteId: siteA.id,
        receivedDate: "2027-01-10",
        amount: "370.00",
        allocations: [{ statementId: sent.id, amount: "370.00" }],
      },
    });
    expect(paid.status, JSON.stringify(paid.body)).toBe(201);
    expect((await statementNow(sent.uuid)).data).toMatchObject({ status: "PARTIALLY_PAID", open: "5.92" });

    const blank = await writeOff(sent.uuid, "  ");
    expect(blank.status).toBe(400);
    expect(blank.body.header.fieldErrors).toEqual([
      { field: "reason", message: "A reason for the write-off is required" },
    ]);
    // Another site's staff do not find it; a monitor may not.
    expect((await writeOff(sent.uuid, "x", staffB)).status).toBe(404);
    const done = await writeOff(sent.uuid, "Bank charges of the sponsor");
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.data).toMatchObject({
      status: "PAID",
      paid: "370.00",
      writtenOff: "5.92",
      writeOffReason: "Bank charges of the sponsor",
      open: "0.00",
    });
    expect(new Set((await earningsOf(projectId)).map((e) => e.state))).toEqual(new Set(["PAID"]));
    const aging = await t.request<Aging>({
      method: "GET",
      url: `/api/finance/aging?projectId=${projectId}&siteId=${siteA.id}&asOf=2027-06-30`,
      session: staffA,
    });
    expect(aging.body.data).toMatchObject({ days1to30: "0.00", over90: "0.00", days61to90: "0.00" });
    expect(await summaryOf(projectId)).toMatchObject({ writtenOff: "5.92", received: "370.00" });
    // Once; and a written-off statement is not voided.
    expect((await writeOff(sent.uuid, "Again")).status).toBe(409);
    // An administrator reaches any site's statement (here: already written off); a monitor never.
    expect((await writeOff(sent.uuid, "Again", admin)).status).toBe(409);
    const m = await createMonitor(t.database.db, { password: defaultPassword, password2: defaultPassword });
    expect((await writeOff(sent.uuid, "x", await t.signIn(m.email, defaultPassword))).status).toBe(403);
    expect((await put(done.body.data, "VOID")).status).toBe(409);
    // The history says who wrote it off and why.
    const history = await t.request<{ items: { changes: { field: string; new: unknown }[] }[] }>({
      method: "GET",
      url: `/api/audit?resource=statements&uuid=${sent.uuid}`,
      session: staffA,
    });
    expect(JSON.stringify(history.body.data)).toContain("Bank charges of the sponsor");
  });

  it("earns each visit its own share of the fee when the plan gives shares, the last one the rounding rest", async () => {
    const setup = await setUp(0);
    const read = await t.request<{ schedule: Record<string, unknown>[] }>({
      method: "GET",
      url: `/api/studyplans/${setup.plan.uuid}`,
      session: admin,
    });
    const withShares = (shares: (string | null)[]) =>
      t.request({
        method: "PUT",
        url: `/api/studyplans/${setup.plan.uuid}`,
        session: admin,
        payload: {
          ...read.body.data,
          schedule: read.body.data.schedule.map((entry, i) => ({ ...entry, feeShare: shares[i] ?? null })),
        },
      });
    const short = await withShares(["50", "30"]);
    expect(short.status).toBe(400);
    expect(short.body.header.fieldErrors).toEqual([
      { field: "schedule", message: "The visits' fee shares must add up to 100 % (now 80 %)" },
    ]);
    const saved = await withShares(["33.33", "33.33", "33.34"]);
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const again = await t.request<{ schedule: { feeShare: string | null }[] }>({
      method: "GET",
      url: `/api/studyplans/${setup.plan.uuid}`,
      session: admin,
    });
    expect(again.body.data.schedule.map((e) => e.feeShare)).toEqual([
      "33.33",
      "33.33",
      "33.34",
      null,
      null,
      null,
    ]);
    // V1–V3 earn their shares of 1,850.00 (the last the rest); V4 has none and earns nothing.
    await patientWith(setup, 4);
    const earned = await earningsOf(setup.project.id);
    expect(earned.map((e) => [e.visitName, e.amount]).sort()).toEqual([
      ["V1", "616.61"],
      ["V2", "616.61"],
      ["V3", "616.78"],
    ]);
  });
});
