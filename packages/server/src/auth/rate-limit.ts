import { and, eq, inArray, lt, or, sql } from "drizzle-orm";
import { type Db, queryRows } from "../db/client";
import { loginFailures } from "./auth.table";

/** How long a failure counts. */
const windowText = "15 minutes";
const window = sql`now() - ${windowText}::interval`;

/** One reserved sign-in attempt: its rows, and how long it must wait for its address's turn. */
export type Attempt = { ids: number[]; waitMs: number };

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
    /**
     * Reserves an attempt; "account" when the account's limit is reached, "busy" for a flooded address.
     * The rules run in the database (sign_in_reserve, migration 0016): lock, count and insert in one
     * round trip, the statement's own transaction (decision 189).
     */
    async reserve(email: string, ip: string): Promise<Attempt | "account" | "busy"> {
      const k = keys(email, ip);
      const [reserved] = await queryRows<{
        outcome: "reserved" | "account" | "busy";
        ids: number[];
        wait_ms: number;
      }>(
        db,
        sql`select * from sign_in_reserve(${k.account}, ${k.ip}, ${k.slot}, ${perAccount}::int, ${perAddress}::int,
              ${windowText}::interval, make_interval(secs => ${options.slotMs / 1000}),
              make_interval(secs => ${options.maxWaitMs / 1000}))`,
      );
      if (reserved.outcome !== "reserved") return reserved.outcome;
      return { ids: reserved.ids.map(Number), waitMs: Math.max(0, Number(reserved.wait_ms)) };
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
