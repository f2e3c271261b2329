import { and, count, eq, gt, inArray, lt, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { loginFailures } from "./auth.table";

const window = sql`now() - interval '15 minutes'`;

/**
 * Failed sign-ins per account and per address over 15 minutes, in the database so that every
 * server process sees the same counts (DESIGN §2). An address may fail four times as often as one
 * account, since a whole office can share one address.
 */
export function loginRateLimit(db: Db, perAccount: number) {
  const keys = (email: string, ip: string) => ({
    account: `account:${email.trim().toLowerCase()}`,
    ip: `ip:${ip}`,
  });
  return {
    async blocked(email: string, ip: string): Promise<boolean> {
      const k = keys(email, ip);
      const rows = await db
        .select({ key: loginFailures.key, n: count() })
        .from(loginFailures)
        .where(and(inArray(loginFailures.key, [k.account, k.ip]), gt(loginFailures.at, window)))
        .groupBy(loginFailures.key);
      const of = (key: string) => rows.find((r) => r.key === key)?.n ?? 0;
      return of(k.account) >= perAccount || of(k.ip) >= perAccount * 4;
    },
    async failed(email: string, ip: string) {
      const k = keys(email, ip);
      await db.insert(loginFailures).values([{ key: k.account }, { key: k.ip }]);
      await db
        .delete(loginFailures)
        .where(and(inArray(loginFailures.key, [k.account, k.ip]), lt(loginFailures.at, window)));
    },
    async succeeded(email: string, ip: string) {
      await db.delete(loginFailures).where(eq(loginFailures.key, keys(email, ip).account));
    },
  };
}
