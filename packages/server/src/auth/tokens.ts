import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { eq } from "drizzle-orm";
import { SignJWT } from "jose";
import type { Db } from "../db/client";
import { settings } from "./auth.table";

export type AccessClaims = { sub: string; uid: number; admin: boolean; csrf: string };

/**
 * Signs and checks the short-lived access tokens (HS256). The secret comes from TOKEN_SECRET or is
 * generated once and kept in the database, so restarts keep sessions and every process shares it.
 */
export function tokenService(db: Db, options: { secret: string | null; ttlSeconds: number }) {
  let key: Promise<Uint8Array> | null = null;
  /**
   * Tokens whose signature this process has checked, with their claims: a token is sent on every call
   * of its session, and checking its HMAC again was ~5% of the server's time for a patient visit's
   * save (issue 14). Only a valid signature enters; expiry and not-before are still checked on every
   * use. Bounded: the oldest go first.
   */
  const verified = new Map<string, { claims: AccessClaims; exp: number; nbf: number }>();

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
      const now = Math.floor(Date.now() / 1000);
      const known = verified.get(token);
      if (known) return known.exp > now && known.nbf <= now ? known.claims : null;
      const payload = verifyHs256(token, await secret(), now);
      if (
        !payload ||
        typeof payload.sub !== "string" ||
        typeof payload.uid !== "number" ||
        typeof payload.csrf !== "string"
      )
        return null;
      const claims = {
        sub: payload.sub,
        uid: payload.uid,
        admin: payload.admin === true,
        csrf: payload.csrf,
      };
      if (verified.size >= verifiedKept) verified.delete(verified.keys().next().value as string);
      verified.set(token, {
        claims,
        exp: payload.exp as number,
        nbf: (payload.nbf as number | undefined) ?? 0,
      });
      return claims;
    },
  };
}

/** Checked tokens kept per process: a few per person signed in. */
const verifiedKept = 10_000;

const base64url = /^[A-Za-z0-9_-]*$/;
const fromJson = (part: string): Record<string, unknown> | null => {
  if (!base64url.test(part)) return null;
  try {
    const value: unknown = JSON.parse(Buffer.from(part, "base64url").toString("utf8"));
    return value && typeof value === "object" && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
};

/**
 * An HS256 token's payload if its signature, expiry and not-before hold; null for anything else.
 * Checked on every API call, so with node:crypto's synchronous HMAC: WebCrypto's (jose's verify)
 * cost a tenth of the server's time under load (issue 14). Only HS256 is accepted (no "none", no
 * other algorithm, no critical extensions); a token without expiry, issue time or subject is refused.
 */
export function verifyHs256(token: string, key: Uint8Array, now: number): Record<string, unknown> | null {
  const parts = token.split(".");
  if (parts.length !== 3) return null;
  const [head, body, signature] = parts;
  const header = fromJson(head);
  if (header?.alg !== "HS256" || "crit" in header || !base64url.test(signature)) return null;
  const expected = Buffer.from(createHmac("sha256", key).update(`${head}.${body}`).digest("base64url"));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  const payload = fromJson(body);
  if (!payload || typeof payload.exp !== "number" || typeof payload.iat !== "number" || !("sub" in payload))
    return null;
  if (payload.exp <= now) return null;
  if (payload.nbf !== undefined && (typeof payload.nbf !== "number" || payload.nbf > now)) return null;
  return payload;
}

export type TokenService = ReturnType<typeof tokenService>;
