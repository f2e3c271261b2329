import type { Earning, ListData, Statement } from "@trialdesk/domain";
import { type Currency, formatMinor, newUuid, toIsoDate, toMinor } from "@trialdesk/domain";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createMonitor,
  createMonitorAssignment,
  createPatient,
  createSite,
  defaultPassword,
  patientVisitInput,
  studyPatientInput,
} from "../src/seed/factories";
import { databaseKinds, type Session, startApp, type TestApp } from "./helpers";
import { financeStudy } from "./study-setup";

/**
 * The ledger as a whole (issue 45), by a property: whatever a site and its monitor do in whatever
 * order — complete and cancel visits, verify them, prepare, send and void statements, record payments —
 * after every step each earning's amount is its held back plus its payable part, and the payable
 * amounts of the project at the site add up to what awaits verification, what is billable, what is
 * on statements and what is paid, each counted where the site reads it (summary, statements' lines).
 */

type Step =
  | { op: "complete" | "cancel" | "verify"; patient: number; visit: number }
  | { op: "statement"; send: boolean }
  | { op: "send" }
  | { op: "void"; statement: number }
  | { op: "pay"; statement: number; percent: number };

/** Two patients, three visits each: few enough that the steps meet the same records again and again. */
const visitStep = (op: "complete" | "cancel" | "verify") =>
  fc.record({ op: fc.constant(op), patient: fc.nat(1), visit: fc.nat(2) });
const steps = fc.array(
  fc.oneof(
    { weight: 4, arbitrary: visitStep("complete") },
    { weight: 1, arbitrary: visitStep("cancel") },
    { weight: 2, arbitrary: visitStep("verify") },
    { weight: 3, arbitrary: fc.record({ op: fc.constant("statement" as const), send: fc.boolean() }) },
    { weight: 2, arbitrary: fc.record({ op: fc.constant("send" as const) }) },
    { weight: 1, arbitrary: fc.record({ op: fc.constant("void" as const), statement: fc.nat(3) }) },
    {
      weight: 3,
      arbitrary: fc.record({
        op: fc.constant("pay" as const),
        statement: fc.nat(3),
        percent: fc.oneof(fc.constant(100), fc.integer({ min: 1, max: 100 })),
      }),
    },
  ),
  { minLength: 10, maxLength: 24 },
);

describe.each(databaseKinds)("the site ledger as a whole on %s", (kind) => {
  let t: TestApp;
  let staff: Session;
  let site: { id: number };
  let run = 0;

  beforeAll(async () => {
    t = await startApp(kind);
    site = await createSite(t.database.db);
    staff = await t.signedInUser({ siteIds: [site.id] });
  });
  afterAll(() => t.close());

  /** A project of 5 mandatory visits at 1,850.00 EUR, 80 % paid, half the patients sampled; 2 patients. */
  async function ledger() {
    const db = t.database.db;
    const { project, study, visitIds } = await financeStudy(
      db,
      [site.id],
      50,
      [1, 2, 3, 4, 5].map((i) => ({ name: `L${i}` })),
    );
    const m = await createMonitor(db, { password: defaultPassword, password2: defaultPassword });
    const today = toIsoDate(new Date());
    await createMonitorAssignment(db, {
      monitorId: m.id,
      studyId: study.id,
      accessFrom: today,
      accessTo: today,
    });
    const monitor = await t.signIn(m.email, defaultPassword);
    const patients: number[] = [];
    for (let i = 0; i < 2; i++) {
      const patient = await createPatient(db, site.id);
      const assigned = await t.request({
        method: "POST",
        url: "/api/study-patients",
        session: staff,
        payload: studyPatientInput(
          { patientId: patient.id, studyId: study.id },
          { startDate: "2026-09-01", screenNr: `L-${run++}` },
        ),
      });
      expect(assigned.status).toBe(201);
      patients.push(patient.id);
    }
    return { projectId: project.id, studyId: study.id, visitIds, patients, monitor };
  }
  type Ledger = Awaited<ReturnType<typeof ledger>>;

  const get = async <T>(url: string) => {
    const res = await t.request<T>({ method: "GET", url, session: staff });
    expect(res.status, url).toBe(200);
    return res.body.data;
  };

  /** One step, as a person would take it; a refusal (4xx) is an answer too, never a 5xx. */
  async function take(step: Step, l: Ledger, records: Map<string, string>) {
    const answers: number[] = [];
    const call = async (options: Parameters<TestApp["request"]>[0]) => {
      const res = await t.request<Record<string, unknown>>(options);
      answers.push(res.status);
      return res;
    };
    const statements = async () =>
      (
        await get<ListData<Statement>>(
          `/api/statements?projectId=${l.projectId}&pagesize=100&order=id&direction=asc`,
        )
      ).items;
    if (step.op === "complete" || step.op === "cancel" || step.op === "verify") {
      // Cancelling and verifying take a visit recorded in this walk, if any.
      const recorded = [...records.keys()];
      const key =
        step.op === "complete" || recorded.length === 0
          ? `${step.patient}/${step.visit}`
          : (recorded[(step.patient * 3 + step.visit) % recorded.length] as string);
      const [patient, visit] = key.split("/").map(Number) as [number, number];
      const uuid = records.get(key);
      const refs = {
        patientId: l.patients[patient],
        studyId: l.studyId,
        visitId: l.visitIds[visit],
      };
      const visitDate = `2026-09-${String(1 + visit * 7).padStart(2, "0")}`;
      if (step.op === "verify") {
        if (uuid)
          await call({ method: "POST", url: `/api/patient-visits/${uuid}/verification`, session: l.monitor });
      } else if (!uuid) {
        if (step.op === "complete") {
          const made = await call({
            method: "POST",
            url: "/api/patient-visits",
            session: staff,
            payload: patientVisitInput(refs, { visitDate }),
          });
          if (made.status === 201) records.set(key, made.body.data.uuid as string);
        }
      } else {
        const read = await get<Record<string, unknown>>(`/api/patient-visits/${uuid}`);
        const done = step.op === "complete";
        await call({
          method: "PUT",
          url: `/api/patient-visits/${uuid}`,
          session: staff,
          headers: { "x-change-reason": "Source corrected" },
          payload: {
            ...patientVisitInput(refs, { visitDate }),
            uuid,
            version: read.version,
            visitStatus: done ? "COMPLETED" : "CANCELLED",
            visitResult: done ? "OK" : null,
          },
        });
      }
    } else if (step.op === "statement") {
      const made = await call({
        method: "POST",
        url: "/api/statements",
        session: staff,
        payload: {
          uuid: newUuid("statements"),
          projectId: l.projectId,
          siteId: site.id,
          periodTo: toIsoDate(new Date()),
          statementDate: toIsoDate(new Date()),
        },
      });
      if (made.status === 201 && step.send)
        await call({
          method: "PUT",
          url: `/api/statements/${made.body.data.uuid}`,
          session: staff,
          payload: { ...made.body.data, status: "SENT" },
        });
    } else {
      const all = await statements();
      const draft = all.find((s) => s.status === "DRAFT");
      const open = all.filter((s) => s.status !== "VOID");
      // Payments go to sent statements with something open; a void to any that is not void yet.
      const owing = open.filter((s) => s.status !== "DRAFT" && toMinor(s.open, s.currency) > 0n);
      const among = step.op === "pay" ? owing : open;
      const index = "statement" in step ? step.statement : 0;
      const chosen = step.op === "send" ? draft : among[index % Math.max(1, among.length)];
      if (chosen && step.op === "pay") {
        const owed = toMinor(chosen.open, chosen.currency);
        const amount = (owed * BigInt(step.percent) + 99n) / 100n;
        if (chosen.status !== "DRAFT" && amount > 0n) {
          const text = formatMinor(amount, chosen.currency);
          await call({
            method: "POST",
            url: "/api/payments",
            session: staff,
            payload: {
              uuid: newUuid("payments"),
              projectId: l.projectId,
              siteId: site.id,
              receivedDate: toIsoDate(new Date()),
              amount: text,
              allocations: [{ statementId: chosen.id, amount: text }],
            },
          });
        }
      } else if (chosen) {
        await call({
          method: "PUT",
          url: `/api/statements/${chosen.uuid}`,
          session: staff,
          payload: { ...chosen, status: step.op === "send" ? "SENT" : "VOID" },
        });
      }
    }
    if (process.env.LEDGER_DEBUG) console.log("STEP", JSON.stringify(step), answers.join(","));
    expect(
      answers.every((status) => status < 500),
      JSON.stringify({ step, answers }),
    ).toBe(true);
  }

  /** The earning states and statement statuses the walks reached: each must be reached by some walk. */
  const reached = new Set<string>();

  /** The ledger's sums, each read where the site reads it. */
  async function check(l: Ledger) {
    const currency: Currency = "EUR";
    const minor = (text: string) => toMinor(text, currency);
    const earnings = (
      await get<ListData<Earning>>(`/api/earnings?projectId=${l.projectId}&siteId=${site.id}&pagesize=500`)
    ).items;
    for (const e of earnings) {
      expect(minor(e.amount), e.uuid).toBe(minor(e.heldBack) + minor(e.payable));
      reached.add(e.reversal ? "reversal" : e.state);
    }
    const payable = (state?: string) =>
      earnings.filter((e) => !state || e.state === state).reduce((sum, e) => sum + minor(e.payable), 0n);
    const summary = await get<Record<string, string>>(
      `/api/finance/summary?projectId=${l.projectId}&siteId=${site.id}`,
    );
    expect(minor(summary.awaitingVerification)).toBe(payable("AWAITING_VERIFICATION"));
    expect(minor(summary.unbilled)).toBe(payable("BILLABLE"));
    // On statements and paid: the earning lines of the statements that are not void, each earning on one.
    const statements = (
      await get<ListData<Statement>>(`/api/statements?projectId=${l.projectId}&pagesize=100`)
    ).items;
    let onStatements = 0n;
    let paid = 0n;
    const seen = new Set<string>();
    for (const s of statements.filter((s) => s.status !== "VOID")) {
      const read = await get<Statement>(`/api/statements/${s.uuid}`);
      reached.add(read.status);
      const lines = (read.lines ?? []).filter((line) => line.earningUuid && !line.heldBack);
      const sum = lines.reduce((total, line) => total + minor(line.amount), 0n);
      expect(minor(read.net)).toBe(
        (read.lines ?? []).reduce((total, line) => total + minor(line.amount), 0n),
      );
      for (const line of lines) {
        expect(seen.has(line.earningUuid as string), `${line.earningUuid} on two statements`).toBe(false);
        seen.add(line.earningUuid as string);
      }
      if (read.status === "PAID") paid += sum;
      else onStatements += sum;
    }
    expect(onStatements).toBe(payable("ON_STATEMENT"));
    expect(paid).toBe(payable("PAID"));
    expect(minor(summary.awaitingVerification) + minor(summary.unbilled) + onStatements + paid).toBe(
      payable(),
    );
  }

  it("adds up at every step, whatever is done in whatever order", { timeout: 240_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(steps, async (walk) => {
        const l = await ledger();
        const records = new Map<string, string>();
        for (const step of walk) {
          await take(step, l, records);
          await check(l);
        }
      }),
      { numRuns: 10, seed: 45, endOnFailure: true },
    );
    // The walks went through every state, so the sums above were checked where they could go wrong.
    for (const state of [
      "AWAITING_VERIFICATION",
      "BILLABLE",
      "ON_STATEMENT",
      "PAID",
      "reversal",
      "DRAFT",
      "SENT",
      "PARTIALLY_PAID",
    ])
      expect([...reached], state).toContain(state);
  });
});
