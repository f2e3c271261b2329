import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { queryRows } from "../src/db/client";
import { createSite } from "../src/seed/factories";
import { freshDatabase } from "./helpers";

// A PGlite test database used again by the next file of a worker (decision 262) is as a new one.
describe("a PGlite test database handed back and taken again", () => {
  const count = async (database: Awaited<ReturnType<typeof freshDatabase>>, table: string) =>
    (await queryRows<{ n: number }>(database.db, sql.raw(`select count(*)::int as n from ${table}`)))[0]?.n;

  it("has no rows of the last user, its sequences and settings as new, and the old handle is closed", async () => {
    const first = await freshDatabase("pglite");
    const firstSite = await createSite(first.db);
    await createSite(first.db);
    await first.db.execute(sql`set statement_timeout = 1234`);
    await first.db.execute(sql`analyze sites`);
    // Left in the middle of a transaction, as a failed test may leave it.
    await first.db.execute(sql`begin`);
    await first.close();
    await expect(first.db.execute(sql`select 1`)).rejects.toMatchObject({
      cause: expect.objectContaining({ message: "PGlite is closed" }),
    });

    const second = await freshDatabase("pglite");
    try {
      expect(await count(second, "sites")).toBe(0);
      expect(await count(second, "audit_events")).toBe(0);
      expect((await createSite(second.db)).id).toBe(firstSite.id);
      const [timeout] = await queryRows<{ t: string }>(
        second.db,
        sql`select current_setting('statement_timeout') as t`,
      );
      expect(timeout?.t).not.toBe("1234ms");
      expect(
        await count(second, "pg_statistic s join pg_class c on c.oid = s.starelid where c.relname = 'sites'"),
      ).toBe(0);
      expect(await count(second, "drizzle.__drizzle_migrations")).toBeGreaterThan(0);
    } finally {
      await second.close();
    }
  });

  it("is never used again after a test changed its schema", async () => {
    const first = await freshDatabase("pglite");
    await first.db.execute(sql`create table left_behind (id int)`);
    await first.close();
    const second = await freshDatabase("pglite");
    try {
      expect(await count(second, "pg_tables where tablename = 'left_behind'")).toBe(0);
    } finally {
      await second.close();
    }
  });
});
