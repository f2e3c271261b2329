import { addDays, toIsoDate, type WorklistData } from "@trialdesk/domain";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../src/db/client";
import { sites } from "../src/resources/sites/sites.table";
import { ensureVisitSchedules } from "../src/resources/visit-schedule/visit-schedule";
import { demoStaff } from "../src/seed/factories";
import { seed } from "../src/seed/seed";
import { databaseKinds, startApp, type TestApp } from "./helpers";

describe.each(databaseKinds)("the demo worklist on %s", (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(kind);
    await seed(t.database.db, { demoAdmin: true });
  }, 120_000);
  afterAll(() => t.close());

  it("tells the BUD staff a true story on the day the demo starts: overdue, due and upcoming visits", async () => {
    const staff = await t.signIn(demoStaff.email, demoStaff.password);
    const [bud] = await t.database.db.select({ id: sites.id }).from(sites).where(eq(sites.code, "BUD"));
    const res = await t.request<WorklistData>({
      method: "GET",
      url: `/api/worklist?siteId=${bud?.id}&pagesize=100`,
      session: staff,
    });
    expect(res.status).toBe(200);
    const { counts, items } = res.body.data;
    expect(counts.overdue).toBeGreaterThan(0);
    expect(counts.due).toBeGreaterThan(0);
    expect(counts.upcoming + counts.booked).toBeGreaterThan(0);
    const today = toIsoDate(new Date());
    // Each row's state agrees with its window and today.
    for (const row of items) {
      if (row.state === "due")
        expect(String(row.windowStart) <= today && today <= String(row.windowEnd)).toBe(true);
      if (row.state === "overdue") expect(String(row.windowEnd) < today).toBe(true);
      if (row.state === "upcoming")
        expect(String(row.windowStart) > today && String(row.windowStart) <= addDays(today, 14)).toBe(true);
    }
    // Ordered by window end.
    const ends = items.map((r) => r.windowEnd ?? "9999");
    expect(ends).toEqual([...ends].sort());
  });

  it("rebuilds missing stored windows once at start (as after the migration that added them)", async () => {
    const db = t.database.db;
    const stored = async () =>
      (await queryRows<{ n: number }>(db, sql`select count(*)::int as n from visit_schedule`))[0]?.n;
    const before = await stored();
    expect(before).toBeGreaterThan(100);
    await db.execute(sql`delete from visit_schedule`);
    await db.execute(sql`delete from settings where key = 'visit_schedule_engine_version'`);
    await ensureVisitSchedules(db);
    expect(await stored()).toBe(before);
    // Once done, a start does not rebuild again.
    await db.execute(sql`delete from visit_schedule where id in (select id from visit_schedule limit 1)`);
    await ensureVisitSchedules(db);
    expect(await stored()).toBe((before as number) - 1);
  });
});
