import type { AuthResponse, MenuItem, SignedInUser, SiteOption, TokenResponse } from "@trialdesk/domain";
import { asc, sql } from "drizzle-orm";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import { summaryStudyUuid } from "../app-config";
import type { Deps } from "../deps";
import { send } from "../http/envelope";
import { rateLimited, unauthenticated, validationError } from "../http/errors";
import { answers } from "../http/openapi-responses";
import { sites } from "../resources/sites/sites.table";
import { currentUser, loadSession, loadSignInUser } from "./guards";
import { menuFor } from "./menu";
import { verifyPassword } from "./passwords";
import { accountLimitedMessage, addressBusyMessage, loginRateLimit } from "./rate-limit";
import { refreshCookie } from "./refresh-tokens";

export const authBody = z.strictObject({
  username: z.string().max(254),
  password: z.string().max(200),
});
export const tokenBody = z.strictObject({ type: z.literal("refresh_token") });

const invalidCredentials = "Invalid e-mail or password";

// The answers, for /api/docs (typed against the domain's types so they cannot drift apart).
const signedInUser: z.ZodType<SignedInUser> = z.object({
  id: z.number(),
  uuid: z.string(),
  email: z.string(),
  profile: z.object({ firstName: z.string(), lastName: z.string() }),
  isAdmin: z.boolean(),
  siteIds: z.array(z.number()),
  kind: z.enum(["user", "monitor"]),
});
const token = { accessToken: z.string(), accessTokenExpire: z.number(), csrfToken: z.string() };
const tokenAnswer: z.ZodType<TokenResponse> = z.object(token);
const authAnswer: z.ZodType<AuthResponse> = z.object({ user: signedInUser, ...token });
const siteOption: z.ZodType<SiteOption> = z.object({
  id: z.number(),
  uuid: z.string(),
  code: z.string(),
  shortName: z.string(),
  city: z.string().nullable(),
});
const menuEntry = {
  key: z.string(),
  label: z.string(),
  route: z.string().nullable(),
  icon: z.string(),
  iconVariant: z.string().nullable(),
};
// Groups hold items; items hold nothing (the menu is two levels deep).
const menu: z.ZodType<MenuItem[]> = z.array(
  z.object({ ...menuEntry, children: z.array(z.object({ ...menuEntry, children: z.array(z.never()) })) }),
);

/** Sign-in and session calls (spec §7, design §3). */
export function authRoutes(app: FastifyInstance, deps: Deps) {
  const { db, tokens, refreshTokens, config } = deps;
  const limiter = loginRateLimit(db, config.loginRateLimit);
  const publicRoute = { config: { access: "public" as const } };
  // The session's own calls answer monitors too (issue 44).
  const forMonitors = { monitors: true };
  const docs = { tags: ["session"], security: [] };

  function setRefreshCookie(request: FastifyRequest, reply: FastifyReply, token: string) {
    reply.setCookie(refreshCookie, token, {
      httpOnly: true,
      sameSite: "strict",
      path: "/api",
      secure: request.protocol === "https",
      maxAge: refreshTokens.ttlSeconds,
    });
  }
  const clearRefreshCookie = (request: FastifyRequest, reply: FastifyReply) =>
    reply.clearCookie(refreshCookie, {
      path: "/api",
      httpOnly: true,
      sameSite: "strict",
      secure: request.protocol === "https",
    });

  app.post(
    "/api/auth",
    { ...publicRoute, schema: { body: authBody, ...docs, response: answers(authAnswer) } },
    async (request, reply) => {
      const parsed = authBody.safeParse(request.body ?? {});
      if (!parsed.success) {
        const fields = new Set(parsed.error.issues.map((i) => String(i.path[0] ?? "username")));
        throw validationError(
          [...fields].map((field) => ({
            field,
            message:
              field === "password"
                ? "Password is required"
                : field === "username"
                  ? "Email is required"
                  : "Unknown field",
          })),
        );
      }
      const email = parsed.data.username.trim();
      const ip = request.ip;
      // The attempt is reserved before the password is checked, so simultaneous guesses cannot all pass;
      // the account is read meanwhile (issue 14: eight round trips in a row were a third of a sign-in's time).
      const [attempt, user] = await Promise.all([limiter.reserve(email, ip), loadSignInUser(db, email)]);
      if (attempt === "account") throw rateLimited(accountLimitedMessage);
      const ok = await verifyPassword(user?.passwordHash ?? null, parsed.data.password);
      // Unknown e-mail, wrong password and inactive account answer alike, at the address's turn; a
      // flooded address's turns apply to failures only (decision 212).
      if (!user || !ok || !user.isActive) {
        await limiter.failed(email, ip, attempt);
        throw attempt.busy ? rateLimited(addressBusyMessage) : unauthenticated(invalidCredentials);
      }
      const { isActive: _, passwordHash: __, ...signedIn } = user;
      const [, refreshToken, session] = await Promise.all([
        limiter.succeeded(email, ip, attempt),
        refreshTokens.issue({ kind: user.kind, id: user.id }),
        tokens.sign(user),
        Math.random() < 0.05 ? refreshTokens.prune() : undefined,
      ]);
      setRefreshCookie(request, reply, refreshToken);
      const data: AuthResponse = { user: signedIn, ...session };
      return send(request, reply, data);
    },
  );

  app.post(
    "/api/token",
    { ...publicRoute, schema: { body: tokenBody, ...docs, response: answers(tokenAnswer) } },
    async (request, reply) => {
      const parsed = tokenBody.safeParse(request.body ?? {});
      if (!parsed.success)
        throw validationError([{ field: "type", message: 'Type must be "refresh_token"' }]);
      const presented = request.cookies[refreshCookie];
      if (!presented) throw unauthenticated("Not signed in");
      const rotated = await refreshTokens.rotate(presented);
      if (!rotated || "reuse" in rotated) {
        clearRefreshCookie(request, reply);
        throw unauthenticated("Session expired, please sign in again");
      }
      const user = await loadSession(db, rotated.account.id, rotated.account.kind);
      if (!user?.isActive) {
        await refreshTokens.revoke(rotated.token);
        clearRefreshCookie(request, reply);
        throw unauthenticated("Session expired, please sign in again");
      }
      setRefreshCookie(request, reply, rotated.token);
      const data: TokenResponse = await tokens.sign(user);
      return send(request, reply, data);
    },
  );

  const loggedOut = answers(z.object({ loggedOut: z.literal(true) }));
  app.get(
    "/api/logout",
    { ...publicRoute, schema: { ...docs, response: loggedOut } },
    async (request, reply) => {
      const presented = request.cookies[refreshCookie];
      if (presented) await refreshTokens.revoke(presented);
      clearRefreshCookie(request, reply);
      return send(request, reply, { loggedOut: true });
    },
  );

  app.get(
    "/api/me",
    { config: forMonitors, schema: { tags: ["session"], response: answers(signedInUser) } },
    async (request, reply) => send(request, reply, currentUser(request)),
  );

  const siteItems = answers(z.object({ items: z.array(siteOption) }));
  app.get(
    "/api/me/sites",
    { config: forMonitors, schema: { tags: ["session"], response: siteItems } },
    async (request, reply) => {
      const user = currentUser(request);
      // A monitor works in studies, not in a site: they choose none.
      if (user.kind === "monitor") return send(request, reply, { items: [] });
      const fields = {
        id: sites.id,
        uuid: sites.uuid,
        code: sites.code,
        shortName: sites.shortName,
        city: sites.city,
      };
      const rows: SiteOption[] = user.isAdmin
        ? await db.select(fields).from(sites).orderBy(asc(sites.code))
        : await db
            .select(fields)
            .from(sites)
            .where(sql`${sites.id} in (select site_id from user_sites where user_id = ${user.id})`)
            .orderBy(asc(sites.code));
      return send(request, reply, { items: rows });
    },
  );

  app.get(
    "/api/me/menu",
    { config: forMonitors, schema: { tags: ["session"], response: answers(menu) } },
    async (request, reply) =>
      send(request, reply, menuFor(currentUser(request), await summaryStudyUuid(deps))),
  );
}
