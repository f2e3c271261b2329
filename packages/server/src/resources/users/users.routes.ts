import { passwordChangeSchema, validatePasswordChange, withCommonPasswordRule } from "@trialdesk/domain";
import { eq, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { recordAudit } from "../../audit/audit";
import { currentUser, userName } from "../../auth/guards";
import { hashPassword, isCommonPassword, verifyPassword } from "../../auth/passwords";
import { accountLimitedMessage, addressBusyMessage, loginRateLimit } from "../../auth/rate-limit";
import { refreshCookie } from "../../auth/refresh-tokens";
import type { Deps } from "../../deps";
import { send } from "../../http/envelope";
import { rateLimited, validationError } from "../../http/errors";
import { answers } from "../../http/openapi-responses";
import { zodFieldErrors } from "../resource";
import { revokeUserSessions } from "./sessions";
import { users } from "./users.table";

export const wrongCurrentPasswordMessage = "Current password is not correct";
const validateChange = withCommonPasswordRule(validatePasswordChange, isCommonPassword);

/**
 * The user menu's Change password: POST /api/me/password {currentPassword, password, password2}.
 * Every sign-in of the user ends (all refresh tokens revoked); this browser gets a fresh refresh
 * token at once, so the person who changed it stays signed in, while other devices must sign in
 * again once their short-lived access token runs out.
 */
export function userRoutes(app: FastifyInstance, deps: Deps) {
  const { db, refreshTokens, config } = deps;
  const limiter = loginRateLimit(db, config.loginRateLimit);
  app.post(
    "/api/me/password",
    {
      schema: {
        body: passwordChangeSchema,
        tags: ["session"],
        response: answers(z.object({ changed: z.literal(true) })),
      },
    },
    async (request, reply) => {
      const me = currentUser(request);
      const parsed = passwordChangeSchema.safeParse(request.body ?? {});
      const body = (parsed.success ? parsed.data : request.body) as Record<string, string>;
      let ruleErrors = {};
      try {
        ruleErrors = validateChange(body);
      } catch {
        // Rules written for well-formed data may stumble over malformed input; zod reports that.
      }
      const errors = { ...(parsed.success ? {} : zodFieldErrors(parsed.error)), ...ruleErrors };
      if (Object.keys(errors).length > 0) throw validationError(errors);
      // The current password is checked like a sign-in's (issue 46): a wrong one is a failed sign-in
      // of the account, and at the account's limit even the right one is refused.
      const [attempt, [row]] = await Promise.all([
        limiter.reserve(me.email, request.ip),
        db
          .select({ uuid: users.uuid, passwordHash: users.passwordHash })
          .from(users)
          .where(eq(users.id, me.id)),
      ]);
      if (attempt === "account") throw rateLimited(accountLimitedMessage);
      if (!(await verifyPassword(row?.passwordHash ?? null, body.currentPassword))) {
        await limiter.failed(me.email, request.ip, attempt);
        if (attempt.busy) throw rateLimited(addressBusyMessage);
        throw validationError({ currentPassword: wrongCurrentPasswordMessage });
      }
      await limiter.succeeded(me.email, request.ip, attempt);
      const passwordHash = await hashPassword(body.password);
      await db.transaction(async (tx) => {
        await tx
          .update(users)
          .set({
            passwordHash,
            lastPasswordChangeDate: sql`now()`,
            version: sql`${users.version} + 1`,
            updatedAt: sql`now()`,
          })
          .where(eq(users.id, me.id));
        await revokeUserSessions(tx, me.id);
        await recordAudit(
          tx,
          { userId: me.id, userName: userName(me), requestId: request.id, reason: "Password change" },
          {
            resource: "users",
            uuid: row.uuid,
            action: "update",
            changes: [{ field: "password", old: null, new: "changed" }],
          },
        );
      });
      reply.setCookie(refreshCookie, await refreshTokens.issue({ kind: "user", id: me.id }), {
        httpOnly: true,
        sameSite: "strict",
        path: "/api",
        secure: request.protocol === "https",
        maxAge: refreshTokens.ttlSeconds,
      });
      return send(request, reply, { changed: true });
    },
  );
}
