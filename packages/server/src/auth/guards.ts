import { csrfHeader, displayName, type SignedInUser } from "@trialdesk/domain";
import { eq, sql } from "drizzle-orm";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Db } from "../db/client";
import { forbidden, unauthenticated } from "../http/errors";
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
});

/** The user an e-mail signs in (any case), with the password hash to check; null for none. */
export async function loadSignInUser(
  db: Db,
  email: string,
): Promise<(SessionUser & { isActive: boolean; passwordHash: string }) | null> {
  const [row] = await db
    .select({ ...sessionUserFields, passwordHash: users.passwordHash })
    .from(users)
    .where(eq(sql`lower(${users.email})`, email.toLowerCase()));
  return row ? { ...sessionUserOf(row), passwordHash: row.passwordHash } : null;
}

export const userName = (user: SessionUser | null) => (user ? displayName(user) || user.email : null);

const unsafeMethods = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * Every /api route needs a valid bearer token unless it is declared public (DESIGN §3). The user
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
    const user = await loadSessionUser(deps.db, claims.uid);
    if (!user?.isActive || user.uuid !== claims.sub)
      throw unauthenticated("Session expired or invalid, please sign in again");
    if (unsafeMethods.has(request.method) && request.headers[csrfHeader] !== claims.csrf) {
      throw forbidden("Missing or invalid CSRF token");
    }
    if (access === "admin" && !user.isAdmin) throw forbidden();
    const { isActive: _, ...sessionUser } = user;
    request.user = sessionUser;
  });
}

/** The signed-in user of a guarded route. */
export function currentUser(request: FastifyRequest): SessionUser {
  if (!request.user) throw unauthenticated();
  return request.user;
}
