import type { Envelope, ListData } from "@trialdesk/domain";
import { sql } from "drizzle-orm";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openPostgres, queryRows } from "../src/db/client";
import { expensiveRouteKind, exportsBusyMessage, tooManyCallsMessage } from "../src/http/expensive-calls";
import { createPatient, createSite } from "../src/seed/factories";
import { databaseKinds, freshDatabase, postgresCopy, type Session, startApp, type TestApp } from "./helpers";

type Answer = { status: number; body: Envelope<unknown>; headers: Record<string, unknown> };

/**
 * Holds the answers of the calls it is told to (in onSend: the handler has done its work, the answer
 * has not ended), until opened: slow calls without a clock.
 */
function answerGate() {
  let holds: ((request: FastifyRequest, reply: FastifyReply) => boolean) | null = null;
  let open: () => void = () => {};
  let opened = Promise.resolve();
  let held = 0;
  return {
    get held() {
      return held;
    },
    /** From now on, answers `holds` picks wait (429 and 503 answers never do). */
    close(which: (request: FastifyRequest, reply: FastifyReply) => boolean) {
      holds = which;
      held = 0;
      opened = new Promise((resolve) => {
        open = () => resolve();
      });
    },
    open() {
      holds = null;
      open();
    },
    install(app: FastifyInstance) {
      app.addHook("onSend", async (request, reply, payload) => {
        if (holds?.(request, reply) && reply.statusCode !== 429 && reply.statusCode !== 503) {
          held += 1;
          await opened;
        }
        return payload;
      });
    },
  };
}

/** Waits until `done` holds (the test's own timeout bounds it): for events, not for time. */
async function until(done: () => boolean | Promise<boolean>) {
  while (!(await done())) await new Promise((resolve) => setTimeout(resolve, 5));
}

/** Calls started together; `answers` fills in as each is answered. */
function started(calls: Promise<Answer>[]) {
  const answers: Answer[] = [];
  const all = calls.map(async (call) => {
    const answer = await call;
    answers.push(answer);
    return answer;
  });
  return { answers, all: Promise.all(all) };
}

/** The expensive calls of one user (a search, or a route expensive by its path). */
const expensiveOf = (session: Session) => (request: FastifyRequest) =>
  request.user?.id === session.userId &&
  (expensiveRouteKind(request.routeOptions.url ?? "") !== null ||
    /[?&](searchTerm|search)=[^&]/.test(request.url));

describe.each(databaseKinds)("expensive calls on %s (issue 46, point 14)", (kind) => {
  const gate = answerGate();
  let database: Database;
  let t: TestApp;
  /** A second server process on the same database (PostgreSQL), or a second app on it (PGlite). */
  let other: TestApp;
  let staff: Session;
  let colleague: Session;
  let siteId: number;
  let patientUuid: string;
  let dropCopy = async () => {};

  beforeAll(async () => {
    const config = { expensiveCallsPerUser: 4, exportsAtOnce: 2, exportQueueWaitMs: 60_000 };
    let second: Database;
    if (kind === "postgres") {
      // Two pools on one database, as two server processes have.
      const copy = await postgresCopy();
      dropCopy = copy.drop;
      database = openPostgres(copy.url, 12);
      second = openPostgres(copy.url, 12);
    } else {
      database = await freshDatabase(kind);
      second = database;
    }
    t = await startApp(kind, { database, config, routes: gate.install });
    // The other one waits for no turn: a busy export answers at once.
    other = await startApp(kind, {
      database: second,
      config: { ...config, exportQueueWaitMs: 0 },
      routes: gate.install,
    });
    const site = await createSite(database.db);
    siteId = site.id;
    const patient = await createPatient(database.db, site.id);
    patientUuid = patient.uuid as string;
    staff = await t.signedInUser({ siteIds: [site.id] });
    colleague = await t.signedInUser({ siteIds: [site.id] });
  });

  afterAll(async () => {
    gate.open();
    await t?.close();
    await other?.close();
    await database?.close();
    if (kind === "postgres" && other) await other.database.close();
    await dropCopy();
  });

  const get = (app: TestApp, url: string, session: Session) =>
    app.request({ method: "GET", url, session }) as Promise<Answer>;
  const worklist = (session: Session, app = t) => get(app, "/api/worklist", session);
  const patientSearch = (session: Session, app = t) =>
    get(app, `/api/patients?siteId=${siteId}&searchTerm=Kov`, session);
  const patientsExport = (session: Session, app = t) =>
    get(
      app,
      `/api/patients/export?siteId=${siteId}&columns=${encodeURIComponent('[["barcode","Barcode"]]')}`,
      session,
    );

  /** The leases the database holds for an account's calls (given back just after each answer ends). */
  const leasesOf = async (session: Session) =>
    Number(
      (
        await queryRows<{ n: number }>(
          database.db,
          sql`select count(*) as n from expensive_call_leases where key = ${`user:${session.userId}`}`,
        )
      )[0].n,
    );
  const allGivenBack = (session: Session) => until(async () => (await leasesOf(session)) === 0);

  it("runs 4 of one user's 6 simultaneous searches and worklists and answers the rest 429 with Retry-After; others are served meanwhile", async () => {
    gate.close(expensiveOf(staff));
    const flood = started([
      worklist(staff),
      patientSearch(staff),
      worklist(staff),
      patientSearch(staff),
      worklist(staff),
      patientSearch(staff),
    ]);
    await until(() => gate.held === 4 && flood.answers.length === 2);
    for (const refused of flood.answers) {
      expect(refused.status).toBe(429);
      expect(refused.headers["retry-after"]).toBe("2");
      expect(refused.body.header).toMatchObject({
        errorCode: "RATE_LIMITED",
        errorMessage: tooManyCallsMessage(4),
      });
    }

    // Meanwhile: another user's expensive calls, and this user's cheap ones, are answered.
    expect((await worklist(colleague)).status).toBe(200);
    expect((await patientSearch(colleague)).status).toBe(200);
    const record = await get(t, `/api/patients/${patientUuid}`, staff);
    expect(record.status, JSON.stringify(record.body)).toBe(200);
    expect((await get(t, `/api/patients?siteId=${siteId}`, staff)).status).toBe(200);
    // A seventh expensive call is refused too, while the four run.
    expect((await worklist(staff)).status).toBe(429);

    gate.open();
    expect((await flood.all).map((answer) => answer.status).sort()).toEqual([200, 200, 200, 200, 429, 429]);
    // Their leases given back, the user has four again.
    await allGivenBack(staff);
    gate.close(expensiveOf(staff));
    const again = started([worklist(staff), patientSearch(staff), worklist(staff), patientSearch(staff)]);
    await until(() => gate.held === 4);
    expect(again.answers).toEqual([]);
    gate.open();
    expect((await again.all).map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
    await allGivenBack(staff);
  });

  it("gives the leases back when the calls fail", async () => {
    gate.close(expensiveOf(staff));
    // A date that does not exist: refused by the handler, once the call holds its lease.
    const failing = started(Array.from({ length: 4 }, () => get(t, "/api/worklist?asOf=2026-02-30", staff)));
    await until(() => gate.held === 4);
    expect((await worklist(staff)).status).toBe(429);
    gate.open();
    expect((await failing.all).map((answer) => answer.status)).toEqual([400, 400, 400, 400]);
    await allGivenBack(staff);
    expect((await worklist(staff)).status).toBe(200);
    await allGivenBack(staff);
  });

  it("gives a lease back when the client goes away before its answer", async () => {
    const address = await t.app.listen({ port: 0, host: "127.0.0.1" });
    gate.close(expensiveOf(staff));
    const aborts = Array.from({ length: 4 }, () => new AbortController());
    const calls = aborts.map((abort) =>
      fetch(`${address}/api/worklist`, {
        headers: { authorization: `Bearer ${staff.accessToken}` },
        signal: abort.signal,
      }).catch((error: unknown) => error),
    );
    await until(() => gate.held === 4);
    expect((await worklist(staff)).status).toBe(429);
    for (const abort of aborts) abort.abort();
    await Promise.all(calls);
    // The gate is still closed: the answers never ended, the clients went away.
    await allGivenBack(staff);
    expect((await worklist(colleague)).status).toBe(200);
    gate.open();
    // Over HTTP, an answer sent to its end gives its lease back too.
    const sent = await fetch(`${address}/api/worklist`, {
      headers: { authorization: `Bearer ${staff.accessToken}` },
    });
    expect(sent.status).toBe(200);
    await sent.text();
    await allGivenBack(staff);
  });

  it("counts one user's calls on every server process of the database", async () => {
    gate.close(expensiveOf(staff));
    const spread = started([
      worklist(staff, t),
      worklist(staff, other),
      patientSearch(staff, t),
      patientSearch(staff, other),
    ]);
    await until(() => gate.held === 4);
    expect((await worklist(staff, other)).status).toBe(429);
    expect((await patientSearch(staff, t)).status).toBe(429);
    gate.open();
    expect((await spread.all).map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
    await allGivenBack(staff);
  });

  it("lets exports and summaries run two at a time across users: the next waits its turn, or answers 503 with Retry-After", async () => {
    gate.close(expensiveOf(staff));
    const exports = started([patientsExport(staff), patientsExport(staff)]);
    await until(() => gate.held === 2);
    // Another user's export waits for a turn; their other calls do not.
    const waiting = patientsExport(colleague);
    expect((await worklist(colleague)).status).toBe(200);
    // Through the server that waits for no turn: busy.
    const busy = await patientsExport(colleague, other);
    expect(busy.status).toBe(503);
    expect(busy.headers["retry-after"]).toBe("5");
    expect(busy.body.header).toMatchObject({
      errorCode: "SERVICE_UNAVAILABLE",
      errorMessage: exportsBusyMessage,
    });
    const summary = await get(
      other,
      "/api/patient-visit-summary/std-00000000-0000-4000-8000-00000000abcd",
      colleague,
    );
    expect(summary.status).toBe(503);
    gate.open();
    expect((await exports.all).map((answer) => answer.status)).toEqual([200, 200]);
    const turn = await waiting;
    expect(turn.status).toBe(200);
    expect(turn.headers["content-type"]).toMatch(/^text\/csv/);
    await allGivenBack(staff);
    await allGivenBack(colleague);
  });

  it("marks the worklist, every export, the visit summary, source verification and finance reads as expensive, and no record read", () => {
    expect(expensiveRouteKind("/api/worklist")).toBe("heavy");
    expect(expensiveRouteKind("/api/worklist/export")).toBe("export");
    expect(expensiveRouteKind("/api/patients/export")).toBe("export");
    expect(expensiveRouteKind("/api/patient-visit-summary/:studyUuid")).toBe("export");
    expect(expensiveRouteKind("/api/patient-visit-summary/:studyUuid/export")).toBe("export");
    expect(expensiveRouteKind("/api/source-verification")).toBe("heavy");
    expect(expensiveRouteKind("/api/source-verification/export")).toBe("export");
    expect(expensiveRouteKind("/api/finance/summary")).toBe("heavy");
    expect(expensiveRouteKind("/api/finance/aging")).toBe("heavy");
    expect(expensiveRouteKind("/api/patients/:id")).toBeNull();
    expect(expensiveRouteKind("/api/patients")).toBeNull();
    for (const url of ["/api/worklist", "/api/worklist/export", "/api/patient-visit-summary/:studyUuid"])
      expect(t.app.hasRoute({ method: "GET", url })).toBe(true);
  });

  describe("a search's one-letter words", () => {
    const search = async (term: string, resource = "patients", filter = `siteId=${siteId}&`) => {
      const res = await get(
        t,
        `/api/${resource}?${filter}searchTerm=${encodeURIComponent(term)}&pagesize=100`,
        staff,
      );
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return (res.body.data as ListData<{ uuid: string }>).items.map((row) => row.uuid).sort();
    };

    it("are left out: only one-letter words search nothing, and beside longer words only those count", async () => {
      await createPatient(database.db, siteId, {
        patientDetail: {
          firstName: "Imre",
          lastName: "Szűcs",
          ssn: null,
          birthName: null,
          birthDate: "1975-01-02",
          birthCountryCode: null,
          birthCity: null,
          motherName: null,
          sex: "MALE",
          notes: null,
        },
      });
      const everyone = await search("");
      expect(everyone.length).toBe(2);
      // No patient has a "q" or an "x", yet the search finds everyone, as if nothing were typed.
      expect(await search("q")).toEqual(everyone);
      expect(await search("q x")).toEqual(everyone);
      expect(await search("Szűcs q")).toEqual(await search("Szűcs"));
      expect(await search("Szűcs q")).toHaveLength(1);
      // A resource that searches the whole term: one letter is left out too.
      const sites = await search("", "sites", "");
      expect(await search("q", "sites", "")).toEqual(sites);
      // Two letters still search.
      expect(await search("qx")).toEqual([]);
    });
  });
});
