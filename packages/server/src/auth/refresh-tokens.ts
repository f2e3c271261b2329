import { createHash, randomBytes, randomUUID } from "node:crypto";
import { and, eq, isNull, lt, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { refreshTokens } from "./auth.table";

export const refreshCookie = "trialdesk_refresh";

const hashOf = (token: string) => createHash("sha256").update(token).digest("hex");

export type RotateResult = { userId: number; token: string } | { reuse: true } | null;

/** Refresh tokens: random, stored hashed, one family per sign-in, rotated on every use (DESIGN §3). */
export function refreshTokenStore(db: Db, ttlDays: number) {
  const expiresAt = () => new Date(Date.now() + ttlDays * 86_400_000);

  async function issue(userId: number, familyId: string = randomUUID()): Promise<string> {
    const token = randomBytes(32).toString("base64url");
    await db
      .insert(refreshTokens)
      .values({ userId, tokenHash: hashOf(token), familyId, expiresAt: expiresAt() });
    return token;
  }

  return {
    ttlSeconds: ttlDays * 86_400,
    issue: (userId: number) => issue(userId),

    /**
     * Exchanges a token for a new one of the same family. A token presented after it was rotated
     * means it leaked (or was replayed): the whole family is revoked.
     */
    async rotate(token: string): Promise<RotateResult> {
      const [row] = await db
        .select()
        .from(refreshTokens)
        .where(eq(refreshTokens.tokenHash, hashOf(token)));
      if (!row || row.revokedAt) return null;
      if (row.rotatedAt) {
        await this.revokeFamily(row.familyId);
        return { reuse: true };
      }
      if (row.expiresAt.getTime() <= Date.now()) return null;
      // Only one of two simultaneous uses wins; the other counts as reuse.
      const claimed = await db
        .update(refreshTokens)
        .set({ rotatedAt: sql`now()` })
        .where(and(eq(refreshTokens.id, row.id), isNull(refreshTokens.rotatedAt)))
        .returning({ id: refreshTokens.id });
      if (claimed.length === 0) {
        await this.revokeFamily(row.familyId);
        return { reuse: true };
      }
      return { userId: row.userId, token: await issue(row.userId, row.familyId) };
    },

    async revokeFamily(familyId: string) {
      await db
        .update(refreshTokens)
        .set({ revokedAt: sql`now()` })
        .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)));
    },

    /** Sign-out: ends the sign-in the token belongs to. */
    async revoke(token: string) {
      const [row] = await db
        .select({ familyId: refreshTokens.familyId })
        .from(refreshTokens)
        .where(eq(refreshTokens.tokenHash, hashOf(token)));
      if (row) await this.revokeFamily(row.familyId);
    },

    /** Drops tokens that expired long ago; called now and then on sign-in. */
    async prune() {
      await db.delete(refreshTokens).where(lt(refreshTokens.expiresAt, sql`now() - interval '1 day'`));
    },
  };
}

export type RefreshTokenStore = ReturnType<typeof refreshTokenStore>;
