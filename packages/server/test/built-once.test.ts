import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, type Db, queryRows, type Tx, type Write, writeTogether } from "../src/db/client";
import { everyDatabaseKind, freshDatabase } from "./helpers";

// The statements of saves are built once and then run on whichever connection is at hand (issue 14).
// Both kinds of database run in this one process, whichever one the run asks (decision 260): each
// driver keeps its own, and so PGlite is asked with the fast paths on also where PostgreSQL is.
describe.each(everyDatabaseKind)("statements built once, on %s", (kind) => {
  let database: Database;
  beforeAll(async () => {
    database = await freshDatabase(kind);
  });
  afterAll(() => database.close());

  const setting = (key: string): Write => ({
    key: "a setting",
    build: (value) => sql`insert into settings (key, value) values (${value("key")}, ${value("value")})`,
    values: { key, value: `value of ${key}` },
  });
  const settings = async (db: Db | Tx, prefix: string) =>
    queryRows<{ key: string; value: string }>(
      db,
      sql`select key, value from settings where key like ${`${prefix}%`} order by key`,
    );

  it("runs in the caller's transaction, whichever connection it was first built on", async () => {
    // Built outside any transaction (on the pool), then run inside one that rolls back.
    await writeTogether(database.db, [], setting("tx-outside"));
    await expect(
      database.db.transaction(async (tx) => {
        await writeTogether(tx, [], setting("tx-inside"));
        expect((await settings(tx, "tx-")).map((row) => row.key)).toEqual(["tx-inside", "tx-outside"]);
        throw new Error("undo");
      }),
    ).rejects.toThrow("undo");
    expect((await settings(database.db, "tx-")).map((row) => row.key)).toEqual(["tx-outside"]);
  });

  it("fills each part's own values when writes of one shape go together", async () => {
    await writeTogether(database.db, [setting("part-1"), setting("part-2")], setting("part-3"));
    await writeTogether(database.db, [setting("part-4"), setting("part-5")], setting("part-6"));
    expect(await settings(database.db, "part-")).toEqual(
      [1, 2, 3, 4, 5, 6].map((n) => ({ key: `part-${n}`, value: `value of part-${n}` })),
    );
  });
});
