import { and, eq, inArray, lt, or, sql } from "drizzle-orm";
import { asLastStatement, type Db, queryRows, type Tx } from "../db/client";
import { loginFailures } from "./auth.table";

const window = sql`now() - interval '15 minutes'`;

/** One reserved sign-in attempt: its rows, and how long it must wait for its address's turn. */
export type Attempt = { ids: number[]; waitMs: number };

/** Serialises the attempts on one key across transactions and processes (one PostgreSQL lock). */
const lockOf = (key: string) => sql`pg_advisory_xact_lock(hashtextextended(${key}, 0))`;
const lockKey = (tx: Tx, key: string) => tx.execute(sql`select ${lockOf(key)}`);

/**
 * Failed sign-ins per account and per address over 15 minutes, in the database so that every
 * server process sees the same counts (DESIGN §2). An attempt is reserved (counted as a failure)
 * before its password is checked, under a lock per account, so simultaneous attempts cannot all
 * pass a count read before any of them failed; a success gives its reservation back.
 *
 * Past `perAccount` failures an account is refused (429) for the rest of the window. An address is
 * never locked out (one office, or everyone behind a proxy, shares one): past four times as many
 * failures its attempts take turns, one per `slotMs`, so a correct password still signs in (after
 * a short wait) while guessing from that address slows to a crawl; only a wait longer than
 * `maxWaitMs` is refused.
 */
export function loginRateLimit(db: Db, perAccount: number, options = { slotMs: 1000, maxWaitMs: 10_000 }) {
  const perAddress = perAccount * 4;
  const keys = (email: string, ip: string) => ({
    account: `account:${email.trim().toLowerCase()}`,
    ip: `ip:${ip}`,
    slot: `slot:${ip}`,
  });
  return {
    perAddress,
    /** Reserves an attempt; "account" when the account's limit is reached, "busy" for a flooded address. */
    async reserve(email: string, ip: string): Promise<Attempt | "account" | "busy"> {
      const k = keys(email, ip);
      return db.transaction(async (tx) => {
        // The reservation's commit does not wait for the disk (decision 187): every other attempt sees
        // it once committed all the same; only a crash of the database could lose it.
        await tx.execute(sql`select ${lockOf(k.account)}, set_config('synchronous_commit', 'off', true)`);
        const [counts] = await queryRows<{ account: number; address: number }>(
          tx,
          sql`select count(*) filter (where ${loginFailures.key} = ${k.account})::int as account,
                     count(*) filter (where ${loginFailures.key} = ${k.ip})::int as address
              from ${loginFailures}
              where ${loginFailures.key} in (${k.account}, ${k.ip}) and ${loginFailures.at} > ${window}`,
        );
        if (counts.account >= perAccount) return "account";
        const rows: { key: string; at?: Date }[] = [{ key: k.account }, { key: k.ip }];
        let waitMs = 0;
        if (counts.address >= perAddress) {
          await lockKey(tx, k.slot);
          // The next free turn of this address: one slotMs after the last one reserved, or now.
          const [next] = await queryRows<{ at: Date | string; wait: number }>(
            tx,
            sql`select t.at, extract(epoch from t.at - now()) * 1000 as wait from (
                  select greatest(now(), max(${loginFailures.at}) + make_interval(secs => ${options.slotMs / 1000})) as at
                  from ${loginFailures} where ${loginFailures.key} = ${k.slot}) t`,
          );
          waitMs = Math.max(0, Number(next.wait));
          if (waitMs > options.maxWaitMs) return "busy";
          rows.push({ key: k.slot, at: new Date(next.at) });
        }
        const inserted = await asLastStatement(tx, () =>
          tx.insert(loginFailures).values(rows).returning({ id: loginFailures.id }),
        );
        return { ids: inserted.filter((_, i) => rows[i].key !== k.slot).map((r) => r.id), waitMs };
      });
    },
    /** The password was right: the reservation was no failure, and the account's count starts over. */
    async succeeded(email: string, attempt: Attempt) {
      const k = keys(email, "");
      await db
        .delete(loginFailures)
        .where(or(inArray(loginFailures.id, attempt.ids), eq(loginFailures.key, k.account)));
    },
    /** Drops rows older than the window now and then (a failure stays as its reservation). */
    async prune(email: string, ip: string) {
      const k = keys(email, ip);
      await db
        .delete(loginFailures)
        .where(and(inArray(loginFailures.key, [k.account, k.ip, k.slot]), lt(loginFailures.at, window)));
    },
  };
}
