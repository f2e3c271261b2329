import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { errors, jwtVerify, SignJWT } from "jose";
import type { Db } from "../db/client";
import { settings } from "./auth.table";

export type AccessClaims = { sub: string; uid: number; admin: boolean; csrf: string };

/**
 * Signs and checks the short-lived access tokens (HS256). The secret comes from TOKEN_SECRET or is
 * generated once and kept in the database, so restarts keep sessions and every process shares it.
 */
export function tokenService(db: Db, options: { secret: string | null; ttlSeconds: number }) {
  let key: Promise<Uint8Array> | null = null;

  async function loadKey(): Promise<Uint8Array> {
    if (options.secret) return new TextEncoder().encode(options.secret);
    await db
      .insert(settings)
      .values({ key: "token_secret", value: randomBytes(48).toString("base64url") })
      .onConflictDoNothing();
    const [row] = await db.select().from(settings).where(eq(settings.key, "token_secret"));
    return new TextEncoder().encode(row.value);
  }
  const secret = () => {
    key ??= loadKey().catch((error) => {
      key = null;
      throw error;
    });
    return key;
  };

  return {
    ttlSeconds: options.ttlSeconds,
    async sign(user: { id: number; uuid: string; isAdmin: boolean }) {
      const csrf = randomBytes(24).toString("base64url");
      const accessToken = await new SignJWT({ uid: user.id, admin: user.isAdmin, csrf })
        .setProtectedHeader({ alg: "HS256" })
        .setSubject(user.uuid)
        .setIssuedAt()
        .setExpirationTime(`${options.ttlSeconds}s`)
        .sign(await secret());
      return { accessToken, csrfToken: csrf, accessTokenExpire: options.ttlSeconds };
    },
    /** The claims of a valid, unexpired token; null for anything else. */
    async verify(token: string): Promise<AccessClaims | null> {
      try {
        // A token without an expiry (or subject, or issue time) is refused, whoever signed it.
        const { payload } = await jwtVerify(token, await secret(), {
          algorithms: ["HS256"],
          requiredClaims: ["exp", "iat", "sub"],
        });
        if (
          typeof payload.sub !== "string" ||
          typeof payload.uid !== "number" ||
          typeof payload.csrf !== "string"
        )
          return null;
        return { sub: payload.sub, uid: payload.uid, admin: payload.admin === true, csrf: payload.csrf };
      } catch (error) {
        if (error instanceof errors.JOSEError) return null;
        throw error;
      }
    },
  };
}

export type TokenService = ReturnType<typeof tokenService>;
