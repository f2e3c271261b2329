import { errorCodes } from "@trialdesk/domain";
import { sql } from "drizzle-orm";
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod } from "fastify";
import type { SessionUser } from "../auth/guards";
import type { Config } from "../config";
import { type Db, queryRows } from "../db/client";
import { failure } from "./envelope";

/**
 * One account cannot take the server from everyone (issue 46, point 14; decisions 240 and 241).
 * Expensive calls hold a lease while they run: at most `expensiveCallsPerUser` per account (beyond
 * them 429 with Retry-After), and exports and visit summaries one of `exportsAtOnce` turns shared by
 * everyone (beyond them a call waits its turn a while, then 503 with Retry-After), so ordinary calls
 * always find a pooled connection. The leases live in the database (design §7: every server process
 * counts the same ones), are taken in one round trip (`expensive_call_take`, migration 0026) and
 * expire unless renewed, so those of a process that died free themselves.
 */

/** "heavy": counted per account; "export": an export or summary, which also takes one of the turns. */
export type ExpensiveKind = "heavy" | "export";

/**
 * The routes whose every call is expensive, by their path, in one place. Besides them, a call of any
 * list with a search term (`searchTerm`, or `search` as the lookups and the worklist name it).
 */
export const expensiveRoutes: readonly { path: RegExp; kind: ExpensiveKind }[] = [
  // Every CSV export.
  { path: /\/export$/, kind: "export" },
  // The visit summary: a whole study's grid (6.7 MB for 10,000 patients).
  { path: /^\/api\/patient-visit-summary\//, kind: "export" },
  { path: /^\/api\/worklist$/, kind: "heavy" },
  { path: /^\/api\/source-verification$/, kind: "heavy" },
  { path: /^\/api\/finance\//, kind: "heavy" },
];

/** The kind of a route's every call, or null when only its searches are expensive. */
export const expensiveRouteKind = (url: string): ExpensiveKind | null =>
  expensiveRoutes.find(({ path }) => path.test(url))?.kind ?? null;

const searchParameters = ["searchTerm", "search"];
const searched = (query: unknown) =>
  typeof query === "object" &&
  query !== null &&
  searchParameters.some((name) => {
    const value = (query as Record<string, unknown>)[name];
    return typeof value === "string" && value.trim() !== "";
  });

/** The key of everyone's turns at exports and summaries. */
const exportsKey = "exports";
const accountKey = (user: SessionUser) => `${user.kind}:${user.id}`;

/** A lease lives this long unless its call renews it (every third of it, while the call runs). */
const leaseSeconds = 30;
const renewEveryMs = (leaseSeconds * 1000) / 3;
/** Seconds a capped caller is told to wait: an expensive call of a person's usually ends within them. */
const cappedRetryAfter = 2;
const busyRetryAfter = 5;

export const tooManyCallsMessage = (cap: number) =>
  `You have ${cap} searches or exports running at once. Please wait for one to finish, then try again.`;
export const exportsBusyMessage =
  "The server is busy with other exports and summaries. Please try again in a few seconds.";

/** The leases of expensive calls in the database (expensive_call_leases, migration 0026). */
export function expensiveCallLeases(db: Db) {
  // Unnamed: a function's call is planned in no time, and the function's own statements are
  // prepared by PL/pgSQL once per connection anyway.
  const idList = (ids: readonly number[]) => `{${ids.map(Number).join(",")}}`;
  return {
    /**
     * Takes a lease under each key in turn while the key has room under its cap; stops at the first
     * full one (null: all taken). The leases taken before it are the caller's.
     */
    async take(keys: { key: string; cap: number }[]): Promise<{ ids: number[]; full: string | null }> {
      const [row] = await queryRows<{ ids: (number | string)[]; full_key: string | null }>(
        db,
        sql`select * from expensive_call_take(${`{${keys.map((k) => k.key).join(",")}}`}::text[],
              ${idList(keys.map((k) => k.cap))}::int[], make_interval(secs => ${leaseSeconds}))`,
      );
      return { ids: row.ids.map(Number), full: row.full_key };
    },
    async renew(ids: number[]) {
      await db.execute(
        sql`update expensive_call_leases set expires_at = now() + make_interval(secs => ${leaseSeconds})
            where id = any(${idList(ids)}::bigint[])`,
      );
    },
    async give(ids: number[]) {
      if (ids.length === 0) return;
      await db.execute(sql`delete from expensive_call_leases where id = any(${idList(ids)}::bigint[])`);
    },
  };
}

type Leases = ReturnType<typeof expensiveCallLeases>;

/**
 * Whether the answer has ended, for good or because the client went away; `afterwards(fn)` runs fn once it
 * has (at once if it already has). Watched from before a lease is taken, so a client gone meanwhile is
 * noticed.
 */
function answerEnd(reply: FastifyReply) {
  let ended = reply.raw.destroyed || reply.raw.writableFinished;
  const waiting: (() => void)[] = [];
  reply.raw.once("close", () => {
    ended = true;
    for (const fn of waiting.splice(0)) fn();
  });
  return {
    get ended() {
      return ended;
    },
    afterwards(fn: () => void) {
      if (ended) fn();
      else waiting.push(fn);
    },
  };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs an expensive call under its leases. They are given back once the handler has settled (its
 * reads are done, also when it threw) and the answer has ended (streamed to its end, or the client
 * went away): a client that hangs up early does not free a lease while its reads still run.
 */
async function leased(
  kind: ExpensiveKind,
  request: FastifyRequest,
  reply: FastifyReply,
  user: SessionUser,
  deps: { leases: Leases; config: Config },
  run: () => unknown,
): Promise<unknown> {
  const { leases, config } = deps;
  const end = answerEnd(reply);
  const account = { key: accountKey(user), cap: config.expensiveCallsPerUser };
  const turns = { key: exportsKey, cap: config.exportsAtOnce };
  const first = await leases.take(kind === "export" ? [account, turns] : [account]);
  if (first.full === account.key) {
    request.log.info({ account: account.key }, "expensive calls capped");
    return reply
      .code(429)
      .header("retry-after", String(cappedRetryAfter))
      .send(
        failure(request, { message: tooManyCallsMessage(account.cap), code: errorCodes[429], detail: null }),
      );
  }
  let ids = first.ids;
  const giveBack = () =>
    leases.give(ids).catch((error: unknown) => {
      // It expires on its own within leaseSeconds.
      request.log.warn({ err: error }, "an expensive call's lease was not given back");
    });
  if (first.full === turns.key) {
    // Everyone's turns are taken: this call waits for one, keeping its account's lease meanwhile.
    let turn: number[] | null = null;
    try {
      const deadline = Date.now() + config.exportQueueWaitMs;
      for (;;) {
        const wait = 150 + Math.random() * 200;
        if (end.ended || Date.now() + wait > deadline) break;
        await pause(wait);
        const next = await leases.take([turns]);
        if (next.full === null) {
          turn = next.ids;
          break;
        }
      }
    } catch (error) {
      await giveBack();
      throw error;
    }
    if (!turn) {
      await giveBack();
      if (end.ended) return reply;
      return reply
        .code(503)
        .header("retry-after", String(busyRetryAfter))
        .send(failure(request, { message: exportsBusyMessage, code: errorCodes[503], detail: null }));
    }
    ids = [...ids, ...turn];
  }
  // An export can stream for longer than a lease lives.
  const renewal = setInterval(() => {
    leases.renew(ids).catch(() => {});
  }, renewEveryMs);
  renewal.unref();
  try {
    if (end.ended) return reply;
    return await run();
  } finally {
    end.afterwards(() => {
      clearInterval(renewal);
      void giveBack();
    });
  }
}

/**
 * Caps the expensive calls (see above): wraps the handler of every GET route of the API as it is
 * added, so the routes themselves say nothing. Registered before the routes (app.ts).
 */
export function registerExpensiveCalls(app: FastifyInstance, deps: { db: Db; config: Config }) {
  const leases = expensiveCallLeases(deps.db);
  const context = { leases, config: deps.config };
  app.addHook("onRoute", (route) => {
    const methods = [route.method].flat();
    // HEAD runs a GET's handler too.
    if (!methods.includes("GET") && !methods.includes("HEAD")) return;
    if (!route.url.startsWith("/api/") || route.url.startsWith("/api/docs")) return;
    const routeKind = expensiveRouteKind(route.url);
    const handler = route.handler as (...args: Parameters<RouteHandlerMethod>) => unknown;
    route.handler = function (this: FastifyInstance, request: FastifyRequest, reply: FastifyReply) {
      const kind = routeKind ?? (searched(request.query) ? "heavy" : null);
      const user = request.user;
      if (!kind || !user) return handler.call(this, request, reply);
      return leased(kind, request, reply, user, context, () => handler.call(this, request, reply));
    } as RouteHandlerMethod;
  });
}
