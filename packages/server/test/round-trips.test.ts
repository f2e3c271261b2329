import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { loginRateLimit } from "../src/auth/rate-limit";
import { asLastStatement, type Database, queryRows } from "../src/db/client";
import {
  createPatient,
  createStudy,
  createStudyPatient,
  createStudyplan,
  createVisit,
  patientVisitInput,
} from "../src/seed/factories";
import { freshDatabase, type Session, startApp, type TestApp, twoSites } from "./helpers";
import { setUpProject } from "./study-setup";

const adminUrl = process.env.TEST_DATABASE_URL;

/**
 * A transaction's BEGIN rides with its first statement and its COMMIT with its last (round-trips.ts),
 * and the transaction still commits or rolls back as one. One pooled connection, so the test can count
 * that connection's round trips: each ends with one ReadyForQuery from the server.
 */
describe.skipIf(!adminUrl)("a transaction's BEGIN and COMMIT ride with its statements (PostgreSQL)", () => {
  let database: Database;
  let t: TestApp;
  let admin: Session;
  let roundTrips = 0;

  const db = () => database.db;
  const items = async () =>
    (await queryRows<{ id: number }>(db(), sql`select id from rt_items order by id`)).map((row) => row.id);
  const insert = (id: number) => db().execute(sql`insert into rt_items (id) values (${id})`);
  /** What a statement failed with: its SQLSTATE, or its message. */
  const failure = (work: Promise<unknown>) =>
    work.then(
      () => "no error",
      (error: { code?: string; cause?: { code?: string; message?: string }; message: string }) =>
        error.code ?? error.cause?.code ?? error.cause?.message ?? error.message,
    );
  /** The round trips `work` makes on the one connection. */
  const tripsOf = async (work: () => Promise<unknown>) => {
    const before = roundTrips;
    await work();
    return roundTrips - before;
  };

  beforeAll(async () => {
    database = await freshDatabase("postgres", 1);
    t = await startApp("postgres", { database });
    admin = (await twoSites(t)).admin;
    await db().execute(sql`create table rt_items (id int primary key)`);
    // Unique, checked at COMMIT: the way to make a COMMIT fail.
    await db().execute(
      sql`create table rt_deferred (id int, constraint rt_deferred_once unique (id) deferrable initially deferred)`,
    );
    // Counted on the pool's connection, and on any that replaces it (a test loses one on purpose).
    const counted = new WeakSet<pg.PoolClient>();
    const count = (client: pg.PoolClient) => {
      if (counted.has(client)) return;
      counted.add(client);
      (client as unknown as { connection: pg.Connection }).connection.on("readyForQuery", () => {
        roundTrips += 1;
      });
    };
    const pool = (db() as unknown as { $client: pg.Pool }).$client;
    pool.on("connect", count);
    const connection = await pool.connect();
    count(connection);
    connection.release();
  });

  afterAll(async () => {
    await t?.close();
    await database?.close();
  });

  beforeEach(async () => {
    await db().execute(sql`truncate rt_items, rt_deferred`);
  });

  it("commits a transaction of three statements in three round trips, not five", async () => {
    const trips = await tripsOf(() =>
      db().transaction(async (tx) => {
        await tx.execute(sql`insert into rt_items (id) values (${1})`);
        await tx.execute(sql`insert into rt_items (id) values (${2})`);
        await asLastStatement(tx, () => tx.execute(sql`insert into rt_items (id) values (${3})`));
      }),
    );
    expect(await items()).toEqual([1, 2, 3]);
    // BEGIN with the first, the second alone, COMMIT with the last.
    expect(trips).toBe(3);
    // The connection is left as it should be: outside any transaction, and working.
    expect(await tripsOf(() => insert(4))).toBe(1);
    expect(await items()).toEqual([1, 2, 3, 4]);
  });

  it("rolls everything back when the last statement fails, and answers its error", async () => {
    const outcome = failure(
      db().transaction(async (tx) => {
        await tx.execute(sql`insert into rt_items (id) values (${1})`);
        await asLastStatement(tx, () => tx.execute(sql`insert into rt_items (id) values (${1})`));
      }),
    );
    expect(await outcome).toBe("23505");
    expect(await items()).toEqual([]);
    await insert(5);
    expect(await items()).toEqual([5]);
  });

  it("fails the last statement with the COMMIT's error when the COMMIT fails, and keeps nothing", async () => {
    const outcome = failure(
      db().transaction(async (tx) => {
        await tx.execute(sql`insert into rt_items (id) values (${1})`);
        await tx.execute(sql`insert into rt_deferred (id) values (${7})`);
        // Accepted by the statement; refused at COMMIT.
        await asLastStatement(tx, () => tx.execute(sql`insert into rt_deferred (id) values (${7})`));
      }),
    );
    expect(await outcome).toBe("23505");
    expect(await items()).toEqual([]);
    expect(await queryRows(db(), sql`select id from rt_deferred`)).toEqual([]);
  });

  it("rolls back when the first statement, sent with BEGIN, fails; the next transaction is its own", async () => {
    await insert(1);
    const outcome = failure(
      db().transaction(async (tx) => {
        await tx.execute(sql`insert into rt_items (id) values (${1})`);
        await tx.execute(sql`insert into rt_items (id) values (${2})`);
      }),
    );
    expect(await outcome).toBe("23505");
    await expect(
      db().transaction(async (tx) => {
        await tx.execute(sql`insert into rt_items (id) values (${3})`);
        throw new Error("changed my mind");
      }),
    ).rejects.toThrow("changed my mind");
    expect(await items()).toEqual([1]);
  });

  it("ends a last-statement mark whose work sent nothing with its transaction", async () => {
    // Nothing sent at all: BEGIN and COMMIT are answered here, and the mark must not outlive them.
    await db().transaction(async (tx) => {
      await asLastStatement(tx, async () => {});
    });
    // The pool's one connection again: its next transaction runs all its statements.
    await db().transaction(async (tx) => {
      await tx.execute(sql`insert into rt_items (id) values (${2})`);
      await tx.execute(sql`insert into rt_items (id) values (${3})`);
    });
    expect(await items()).toEqual([2, 3]);
  });

  it("does not end the transaction at a last statement inside a savepoint", async () => {
    const outcome = failure(
      db().transaction(async (tx) => {
        await tx.execute(sql`insert into rt_items (id) values (${1})`);
        await tx.transaction(async (inner) => {
          await asLastStatement(inner, () => inner.execute(sql`insert into rt_items (id) values (${2})`));
        });
        throw new Error("the outer work fails");
      }),
    );
    expect(await outcome).toBe("the outer work fails");
    expect(await items()).toEqual([]);
  });

  it("refuses a statement after the transaction's last one", async () => {
    const outcome = failure(
      db().transaction(async (tx) => {
        await asLastStatement(tx, () => tx.execute(sql`insert into rt_items (id) values (${1})`));
        await tx.execute(sql`insert into rt_items (id) values (${2})`);
      }),
    );
    expect(await outcome).toMatch(/after its transaction's last statement/);
    // The last statement was committed with it; the one after never ran.
    expect(await items()).toEqual([1]);
  });

  it("sends nothing for a transaction without statements", async () => {
    expect(await tripsOf(() => db().transaction(async () => {}))).toBe(0);
  });

  it("fails a transaction whose connection is lost midway, not the process; the next one gets a new connection", async () => {
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    try {
      const outcome = failure(
        db().transaction(async (tx) => {
          await tx.execute(sql`insert into rt_items (id) values (${1})`);
          const [{ pid }] = await queryRows<{ pid: number }>(tx, sql`select pg_backend_pid() as pid`);
          // Terminated while the transaction holds it, between two statements (a restart, an operator).
          await admin.query("select pg_terminate_backend($1)", [pid]);
          await new Promise((resolve) => setTimeout(resolve, 200));
          await asLastStatement(tx, () => tx.execute(sql`insert into rt_items (id) values (${2})`));
        }),
      );
      expect(await outcome).toMatch(/terminat|not queryable/i);
    } finally {
      await admin.end();
    }
    expect(await items()).toEqual([]);
    await insert(3);
    expect(await items()).toEqual([3]);
  });

  it("reserves a sign-in attempt in one round trip, and the next transaction waits for the disk again", async () => {
    const limiter = loginRateLimit(db(), 5);
    let attempt: Awaited<ReturnType<typeof limiter.reserve>> | undefined;
    expect(
      await tripsOf(async () => {
        attempt = await limiter.reserve("rt-signin@example.com", "192.0.2.7");
      }),
    ).toBe(1);
    // Reserved, and counted by the next attempt as a failure until given back.
    expect(attempt).toMatchObject({ ids: [expect.any(Number), expect.any(Number)], waitMs: 0 });
    const [counted] = await queryRows<{ n: number }>(
      db(),
      sql`select count(*)::int as n from login_failures where key = 'account:rt-signin@example.com'`,
    );
    expect(counted.n).toBe(1);
    // The reservation's own commit did not wait for the disk; the setting ended with its transaction.
    const [setting] = await queryRows<{ synchronous_commit: string }>(db(), sql`show synchronous_commit`);
    expect(setting.synchronous_commit).toBe("on");
  });

  it("saves a patient visit in four round trips: the user, the check with BEGIN, the insert, the rest with COMMIT", async () => {
    const study = await createStudy(db(), await setUpProject(t, "RT-2026-001"), { variant: "NORMAL" });
    const visitIds: number[] = [];
    for (let i = 0; i < 3; i++)
      visitIds.push((await createVisit(db(), study.id, { name: `Day ${i * 7}` })).id);
    await createStudyplan(db(), study.id, visitIds, [
      [7, 1, 1],
      [7, 1, 1],
    ]);
    const patient = await createPatient(db(), (await twoSites(t)).siteA.id);
    await createStudyPatient(db(), { patientId: patient.id, studyId: study.id }, { startDate: "2026-01-05" });
    const save = (visitId: number) =>
      t.request({
        method: "POST",
        url: "/api/patient-visits",
        session: admin,
        // In its window (day 0, then day 7 ± 1 from it): the save writes no deviation.
        payload: patientVisitInput(
          { patientId: patient.id, studyId: study.id, visitId },
          { visitDate: visitId === visitIds[0] ? "2026-01-05" : "2026-01-12" },
        ),
      });
    expect((await save(visitIds[0])).status).toBe(201);
    let saved: Awaited<ReturnType<typeof save>> | undefined;
    expect(
      await tripsOf(async () => {
        saved = await save(visitIds[1]);
      }),
    ).toBe(4);
    expect(saved?.status).toBe(201);
    // Saved whole: the visit, its window and its audit event.
    const [row] = await queryRows<{ visits: number; windows: number; events: number }>(
      db(),
      sql`select (select count(*)::int from patient_visits where patient_id = ${patient.id}) as visits,
        (select count(*)::int from visit_schedule where patient_id = ${patient.id} and patient_visit_id is not null) as windows,
        (select count(*)::int from audit_events where resource = 'patient-visits'
          and uuid in (select uuid from patient_visits where patient_id = ${patient.id})) as events`,
    );
    expect(row).toEqual({ visits: 2, windows: 2, events: 2 });
  });
});
