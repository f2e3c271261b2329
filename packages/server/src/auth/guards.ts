import { csrfHeader, displayName, type SignedInUser } from "@trialdesk/domain";
import { eq, sql } from "drizzle-orm";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Db } from "../db/client";
import { forbidden, unauthenticated } from "../http/errors";
import { monitors } from "../resources/monitors/monitors.table";
import { users } from "../resources/users/users.table";
import type { TokenService } from "./tokens";

/** Who may call a route: anyone, any signed-in user, or administrators only. */
export type { Access } from "@trialdesk/domain";

import type { Access } from "@trialdesk/domain";

export type SessionUser = SignedInUser;

declare module "fastify" {
  interface FastifyRequest {
    user: SessionUser | null;
  }
  interface FastifyContextConfig {
    access?: Access;
    /** The route answers monitors (issue 44); every other route refuses them with 403. */
    monitors?: boolean;
  }
}

export const sessionUserFields = {
  id: users.id,
  uuid: users.uuid,
  email: users.email,
  firstName: users.firstName,
  lastName: users.lastName,
  isAdmin: users.isAdmin,
  isActive: users.isActive,
  siteIds: sql<
    number[]
  >`coalesce((select array_agg(us.site_id order by us.site_id) from user_sites us where us.user_id = ${users.id}), '{}')`,
};

// Asked on every API call: built once per database and prepared once per connection (issue 14).
const prepareSessionUser = (db: Db) =>
  db
    .select(sessionUserFields)
    .from(users)
    .where(eq(users.id, sql.placeholder("id")))
    .prepare("session_user");
const sessionUserQueries = new WeakMap<Db, ReturnType<typeof prepareSessionUser>>();

export async function loadSessionUser(
  db: Db,
  id: number,
): Promise<(SessionUser & { isActive: boolean }) | null> {
  let query = sessionUserQueries.get(db);
  if (!query) {
    query = prepareSessionUser(db);
    sessionUserQueries.set(db, query);
  }
  const [row] = await query.execute({ id });
  return row ? sessionUserOf(row) : null;
}

type SessionUserRow = Awaited<ReturnType<ReturnType<typeof prepareSessionUser>["execute"]>>[number];
const sessionUserOf = (row: SessionUserRow): SessionUser & { isActive: boolean } => ({
  id: row.id,
  uuid: row.uuid,
  email: row.email,
  profile: { firstName: row.firstName, lastName: row.lastName },
  isAdmin: row.isAdmin,
  isActive: row.isActive,
  siteIds: row.siteIds.map(Number),
  kind: "user",
});

/** Which table a session's account is in: a monitor's uuid has the monitors' prefix. */
export type AccountKind = SessionUser["kind"];
export const accountKindOf = (uuid: string): AccountKind => (uuid.startsWith("mon-") ? "monitor" : "user");

const monitorFields = {
  id: monitors.id,
  uuid: monitors.uuid,
  email: monitors.email,
  firstName: monitors.firstName,
  lastName: monitors.lastName,
  isActive: monitors.isActive,
};
type MonitorRow = {
  id: number;
  uuid: string;
  email: string;
  firstName: string;
  lastName: string;
  isActive: boolean;
};
/** A monitor signed in: no sites and never an administrator, so staff's scopes give them nothing. */
const monitorSessionOf = (row: MonitorRow): SessionUser & { isActive: boolean } => ({
  id: row.id,
  uuid: row.uuid,
  email: row.email,
  profile: { firstName: row.firstName, lastName: row.lastName },
  isAdmin: false,
  isActive: row.isActive,
  siteIds: [],
  kind: "monitor",
});

/** The session of an account by id: a user's, or a monitor's (issue 44). */
export async function loadSession(
  db: Db,
  id: number,
  kind: AccountKind,
): Promise<(SessionUser & { isActive: boolean }) | null> {
  if (kind === "user") return loadSessionUser(db, id);
  const [row] = await db.select(monitorFields).from(monitors).where(eq(monitors.id, id));
  return row ? monitorSessionOf(row) : null;
}

/**
 * The account an e-mail signs in (any case), with the password hash to check; null for none. A user's
 * first, else a monitor's (issue 44: monitors sign in on the same page; an e-mail of both is the user's).
 */
export async function loadSignInUser(
  db: Db,
  email: string,
): Promise<(SessionUser & { isActive: boolean; passwordHash: string }) | null> {
  const lower = email.toLowerCase();
  const [[row], [monitor]] = await Promise.all([
    db
      .select({ ...sessionUserFields, passwordHash: users.passwordHash })
      .from(users)
      .where(eq(sql`lower(${users.email})`, lower)),
    db
      .select({ ...monitorFields, passwordHash: monitors.passwordHash })
      .from(monitors)
      .where(eq(sql`lower(${monitors.email})`, lower)),
  ]);
  if (row) return { ...sessionUserOf(row), passwordHash: row.passwordHash };
  return monitor ? { ...monitorSessionOf(monitor), passwordHash: monitor.passwordHash } : null;
}

export const userName = (user: SessionUser | null) => (user ? displayName(user) || user.email : null);

const unsafeMethods = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * Every /api route needs a valid bearer token unless it is declared public (design §3). The user
 * is loaded on each call so that deactivation and site changes take effect at once. A bearer-made
 * POST/PUT/DELETE must carry the token's csrf value in x-csrf-token.
 */
export function registerGuards(app: FastifyInstance, deps: { db: Db; tokens: TokenService }) {
  app.decorateRequest("user", null);
  app.addHook("onRequest", async (request: FastifyRequest) => {
    const route = request.routeOptions.url ?? "";
    // Only API routes are guarded; the docs UI, config.json and the web app are public.
    if (request.is404 || !route.startsWith("/api/") || route.startsWith("/api/docs")) return;
    const access = request.routeOptions.config?.access ?? "user";
    if (access === "public") return;
    const header = request.headers.authorization;
    const token = header?.startsWith("Bearer ") ? header.slice(7).trim() : null;
    if (!token) throw unauthenticated();
    const claims = await deps.tokens.verify(token);
    if (!claims) throw unauthenticated("Session expired or invalid, please sign in again");
    const user = await loadSession(deps.db, claims.uid, accountKindOf(claims.sub));
    if (!user?.isActive || user.uuid !== claims.sub)
      throw unauthenticated("Session expired or invalid, please sign in again");
    // Deny by default: a monitor reaches only the routes made for them (issue 44).
    if (user.kind === "monitor" && request.routeOptions.config?.monitors !== true) throw forbidden();
    if (unsafeMethods.has(request.method) && request.headers[csrfHeader] !== claims.csrf) {
      throw forbidden("Missing or invalid CSRF token");
    }
    if (access === "admin" && !user.isAdmin) throw forbidden();
    if (access === "monitor" && user.kind !== "monitor") throw forbidden("Only a monitor may do this");
    // Records Trialdesk keeps by itself (earnings): nobody writes them by hand.
    if (access === "none") throw forbidden("Trialdesk keeps these records by itself");
    const { isActive: _, ...sessionUser } = user;
    request.user = sessionUser;
  });
}

/** The signed-in user of a guarded route. */
export function currentUser(request: FastifyRequest): SessionUser {
  if (!request.user) throw unauthenticated();
  return request.user;
}
