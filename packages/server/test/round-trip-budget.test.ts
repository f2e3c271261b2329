import { sql } from "drizzle-orm";
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loginRateLimit } from "../src/auth/rate-limit";
import { type Database, queryRows } from "../src/db/client";
import { fastPathsOn } from "../src/db/fast-paths/switch";
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

// The plain run shares one pool of workers with the fast one (root vitest.config.ts): each file must
// still see the switch its own run set, not one a worker kept from an earlier file.
it("runs with the fast paths as this run's FAST_PATHS says", () => {
  expect(fastPathsOn).toBe(process.env.FAST_PATHS !== "off");
});

/**
 * How many statements the calls that matter most send (issue 14's budget), counted as pg's clients
 * are asked them: each is a round trip to PostgreSQL. Plain library use (issue 47): BEGIN and COMMIT
 * are statements of their own.
 */
describe.skipIf(!adminUrl)("round trips of a sign-in attempt and a visit save (PostgreSQL)", () => {
  let database: Database;
  let t: TestApp;
  let admin: Session;
  let statements = 0;
  const db = () => database.db;

  /** The statements `work` sends. */
  const sentBy = async (work: () => Promise<unknown>) => {
    const before = statements;
    await work();
    return statements - before;
  };

  beforeAll(async () => {
    database = await freshDatabase("postgres", 1);
    t = await startApp("postgres", { database });
    admin = (await twoSites(t)).admin;
    // Every pooled client's statements are counted (the pool's own queries go through them too).
    const counted = new WeakSet<pg.PoolClient>();
    const count = (client: pg.PoolClient) => {
      if (counted.has(client)) return;
      counted.add(client);
      const query = client.query.bind(client) as (...args: unknown[]) => unknown;
      (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args) => {
        statements += 1;
        return query(...args);
      };
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

  it("reserves a sign-in attempt in one statement", async () => {
    const limiter = loginRateLimit(db(), 5);
    expect(await sentBy(() => limiter.reserve("rt-signin@example.com", "192.0.2.7"))).toBe(1);
    const [counted] = await queryRows<{ n: number }>(
      db(),
      sql`select count(*)::int as n from login_failures where key = 'account:rt-signin@example.com'`,
    );
    expect(counted.n).toBe(1);
  });

  // With the fast paths (writes together), not with them off (FAST_PATHS=off).
  it.skipIf(!fastPathsOn)(
    "saves a patient visit in six statements: the user, BEGIN, the check, the insert, the rest, COMMIT",
    async () => {
      const study = await createStudy(db(), await setUpProject(t, "RT-2026-001"), { variant: "NORMAL" });
      const visitIds: number[] = [];
      for (let i = 0; i < 3; i++)
        visitIds.push((await createVisit(db(), study.id, { name: `Day ${i * 7}` })).id);
      await createStudyplan(db(), study.id, visitIds, [
        [7, 1, 1],
        [7, 1, 1],
      ]);
      const patient = await createPatient(db(), (await twoSites(t)).siteA.id);
      await createStudyPatient(
        db(),
        { patientId: patient.id, studyId: study.id },
        { startDate: "2026-01-05" },
      );
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
        await sentBy(async () => {
          saved = await save(visitIds[1]);
        }),
      ).toBe(6);
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
    },
  );
});
