import { isIPv4, isIPv6 } from "node:net";
import { and, inArray, lt, or, sql } from "drizzle-orm";
import { type Db, queryRows } from "../db/client";
import { loginFailures } from "./auth.table";

/** How long a failure counts. */
const windowText = "15 minutes";
const window = sql`now() - ${windowText}::interval`;

/** The answer of an account (or an account and address pair) at its limit, for sign-in and password change. */
export const accountLimitedMessage =
  "Too many failed sign-in attempts. Please wait 15 minutes and try again.";
/** The answer of a wrong password from a flooded address whose turns are taken for longer than the longest wait. */
export const addressBusyMessage =
  "Too many sign-in attempts from your network. Please try again in a minute.";

/**
 * One reserved sign-in attempt: its rows; how long a failure waits for its address's turn; and
 * whether that turn would come later than the longest wait (`busy`: a wrong password answers 429).
 */
export type Attempt = { ids: number[]; waitMs: number; busy: boolean };

/**
 * The address an attempt is counted under: an IPv4 address as it is (also one written IPv4-mapped,
 * "::ffff:192.0.2.1"), an IPv6 address by its /64, the network of one subscriber or office (anyone
 * holding a /64 can use any of its 2^64 addresses). Anything else as given.
 */
export function addressOf(ip: string): string {
  const bare = ip.trim().replace(/%.*$/, "").toLowerCase();
  if (isIPv4(bare)) return bare;
  if (!isIPv6(bare)) return bare.slice(0, 64);
  const mapped = bare.match(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/);
  if (mapped) return mapped[1];
  // An embedded IPv4 tail counts as two groups; "::" stands for the groups left out.
  const groups = (text: string) =>
    text === "" ? [] : text.split(":").flatMap((group) => (group.includes(".") ? ["0", "0"] : [group]));
  const [head, tail] = bare.split("::");
  const left = groups(head);
  const right = tail === undefined ? [] : groups(tail);
  const all = [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill("0"), ...right];
  return `${all
    .slice(0, 4)
    .map((group) => Number.parseInt(group, 16).toString(16))
    .join(":")}::/64`;
}

/**
 * Failed sign-ins over 15 minutes, in the database so that every server process sees the same counts
 * (design §2). An attempt is reserved (counted as a failure) before its password is checked, under a
 * lock per account, so simultaneous attempts cannot all pass a count read before any of them failed;
 * a success gives its reservation back.
 *
 * Past `perAccount` failures an account is refused (429) for the rest of the window, and so is an
 * (account, address) pair, whose count a success elsewhere does not clear: these bound the guesses at
 * any one account. An address is never locked out (one office, or everyone behind a proxy, shares
 * one): past four times as many failures its failures take turns, one per `slotMs` (a wrong password
 * is answered at its turn, and 429 when that is further off than `maxWaitMs`), while a right password
 * for an account not at its limit signs in at once, however flooded its address (decision 212).
 */
export function loginRateLimit(db: Db, perAccount: number, options = { slotMs: 1000, maxWaitMs: 10_000 }) {
  const perAddress = perAccount * 4;
  const keys = (email: string, ip: string) => {
    const account = email.trim().toLowerCase();
    const address = addressOf(ip);
    return {
      account: `account:${account}`,
      pair: `pair:${address} ${account}`.slice(0, 300),
      ip: `ip:${address}`,
      slot: `slot:${address}`,
    };
  };
  /** Drops rows older than the window now and then (a failure stays as its reservation). */
  async function prune(email: string, ip: string) {
    const k = keys(email, ip);
    await db
      .delete(loginFailures)
      .where(
        and(inArray(loginFailures.key, [k.account, k.pair, k.ip, k.slot]), lt(loginFailures.at, window)),
      );
  }
  return {
    perAddress,
    /**
     * Reserves an attempt, or "account" when the account's limit (or its pair's with this address) is
     * reached. The rules run in the database (sign_in_attempt, migration 0022): lock, count and insert
     * in one round trip, the statement's own transaction (decision 189).
     */
    async reserve(email: string, ip: string): Promise<Attempt | "account"> {
      const k = keys(email, ip);
      const [reserved] = await queryRows<{
        outcome: "reserved" | "account" | "busy";
        ids: number[];
        wait_ms: number;
      }>(
        db,
        sql`select * from sign_in_attempt(${k.account}, ${k.pair}, ${k.ip}, ${k.slot}, ${perAccount}::int,
              ${perAddress}::int, ${windowText}::interval, make_interval(secs => ${options.slotMs / 1000}),
              make_interval(secs => ${options.maxWaitMs / 1000}))`,
      );
      if (reserved.outcome === "account") return "account";
      return {
        ids: reserved.ids.map(Number),
        waitMs: Math.max(0, Number(reserved.wait_ms)),
        busy: reserved.outcome === "busy",
      };
    },
    /**
     * The password was right: the reservation (and its turn) was no failure, and the account's count
     * starts over, and the pair's with this address.
     */
    async succeeded(email: string, ip: string, attempt: Attempt) {
      const k = keys(email, ip);
      await db
        .delete(loginFailures)
        .where(or(inArray(loginFailures.id, attempt.ids), inArray(loginFailures.key, [k.account, k.pair])));
    },
    /**
     * The password was wrong: the reservation stays as the failure, which is answered at its address's
     * turn (none unless the address is flooded). Rows older than the window are dropped meanwhile.
     */
    async failed(email: string, ip: string, attempt: Attempt) {
      await Promise.all([
        prune(email, ip),
        attempt.waitMs > 0 ? new Promise((resolve) => setTimeout(resolve, attempt.waitMs)) : undefined,
      ]);
    },
  };
}
