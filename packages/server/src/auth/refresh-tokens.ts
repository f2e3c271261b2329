import { createHash, randomBytes, randomUUID } from "node:crypto";
import { and, eq, isNull, lt, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { refreshTokens } from "./auth.table";

export const refreshCookie = "trialdesk_refresh";

const hashOf = (token: string) => createHash("sha256").update(token).digest("hex");

/** How long a rotated token still refreshes (a second tab, a page left mid-refresh); decision 136. */
export const reuseGraceSeconds = 30;

/** Whose sign-in a token continues: a user's or a monitor's (issue 44). */
export type Account = { kind: "user" | "monitor"; id: number };
export type RotateResult = { account: Account; token: string } | { reuse: true } | null;

/** Refresh tokens: random, stored hashed, one family per sign-in, rotated on every use (DESIGN §3). */
export function refreshTokenStore(db: Db, ttlDays: number) {
  const expiresAt = () => new Date(Date.now() + ttlDays * 86_400_000);

  async function issue(account: Account, familyId: string = randomUUID()): Promise<string> {
    const token = randomBytes(32).toString("base64url");
    const owner = account.kind === "user" ? { userId: account.id } : { monitorId: account.id };
    await db
      .insert(refreshTokens)
      .values({ ...owner, tokenHash: hashOf(token), familyId, expiresAt: expiresAt() });
    return token;
  }

  return {
    ttlSeconds: ttlDays * 86_400,
    issue: (account: Account) => issue(account),

    /**
     * Exchanges a token for a new one of the same family. A token presented after it was rotated
     * means it leaked (or was replayed): the whole family is revoked. Except just after its rotation:
     * two tabs opened at once both refresh with the one cookie, and a page left while its refresh was
     * under way never stored the new cookie; within reuseGraceSeconds either gets a token of its own.
     */
    async rotate(token: string): Promise<RotateResult> {
      const [row] = await db
        .select({
          id: refreshTokens.id,
          userId: refreshTokens.userId,
          monitorId: refreshTokens.monitorId,
          familyId: refreshTokens.familyId,
          expiresAt: refreshTokens.expiresAt,
          revokedAt: refreshTokens.revokedAt,
          rotatedAt: refreshTokens.rotatedAt,
          // The database's clock, as for rotated_at itself (several servers may share it).
          justRotated: sql<boolean>`coalesce(${refreshTokens.rotatedAt} > now() - make_interval(secs => ${reuseGraceSeconds}), false)`,
        })
        .from(refreshTokens)
        .where(eq(refreshTokens.tokenHash, hashOf(token)));
      if (!row || row.revokedAt) return null;
      if (row.expiresAt.getTime() <= Date.now()) return null;
      const account: Account =
        row.userId !== null
          ? { kind: "user", id: row.userId }
          : { kind: "monitor", id: row.monitorId as number };
      const successor = async () => ({ account, token: await issue(account, row.familyId) });
      if (row.rotatedAt) {
        if (row.justRotated) return successor();
        await this.revokeFamily(row.familyId);
        return { reuse: true };
      }
      // Of two simultaneous uses one claims the token; the other is one within the grace time.
      await db
        .update(refreshTokens)
        .set({ rotatedAt: sql`now()` })
        .where(and(eq(refreshTokens.id, row.id), isNull(refreshTokens.rotatedAt)));
      return successor();
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
