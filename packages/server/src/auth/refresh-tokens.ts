import { createHash, createHmac, randomBytes, randomUUID } from "node:crypto";
import { and, eq, inArray, isNull, lt, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { refreshTokens } from "./auth.table";

export const refreshCookie = "trialdesk_refresh";

const hashOf = (token: string) => createHash("sha256").update(token).digest("hex");

/** How long a rotated token still refreshes (a second tab, a page left mid-refresh); decision 136. */
export const reuseGraceSeconds = 30;

/** Whose sign-in a token continues: a user's or a monitor's (issue 44). */
export type Account = { kind: "user" | "monitor"; id: number };
export type RotateResult = { account: Account; token: string } | { reuse: true } | null;

/** How far down its line a token presented again within the grace time looks for the line's newest token. */
const lineLength = 16;

/**
 * The successor of a token: made from it, so that every use of a token gets the same one (decision
 * 213). Keyed by the token and made of its family's id, which only the database holds: neither a stolen
 * token alone nor a copy of the table alone gives the tokens that follow.
 */
const successorOf = (token: string, familyId: string) =>
  createHmac("sha256", token)
    .update(`successor of a refresh token in family ${familyId}`)
    .digest("base64url");

/** Refresh tokens: random, stored hashed, one family per sign-in, rotated on every use (design §3). */
export function refreshTokenStore(db: Db, ttlDays: number) {
  const expiresAt = () => new Date(Date.now() + ttlDays * 86_400_000);

  async function issue(
    account: Account,
    familyId: string = randomUUID(),
    token = randomBytes(32).toString("base64url"),
  ): Promise<string> {
    const owner = account.kind === "user" ? { userId: account.id } : { monitorId: account.id };
    await db
      .insert(refreshTokens)
      .values({ ...owner, tokenHash: hashOf(token), familyId, expiresAt: expiresAt() })
      // A successor made at the same moment by another use of the same token: it is this one.
      .onConflictDoNothing({ target: refreshTokens.tokenHash });
    return token;
  }

  return {
    ttlSeconds: ttlDays * 86_400,
    issue: (account: Account) => issue(account),

    /**
     * Exchanges a token for its successor in the same family. A token presented after it was rotated
     * means it leaked (or was replayed): the whole family is revoked. Except just after its rotation:
     * two tabs opened at once both refresh with the one cookie, and a page left while its refresh was
     * under way never stored the new cookie; within reuseGraceSeconds either gets the line's newest
     * token (the successor already handed out, or the one that followed it), never a second branch:
     * one token of a sign-in is usable past the grace time (decision 213).
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
      if (row.rotatedAt && !row.justRotated) {
        await this.revokeFamily(row.familyId);
        return { reuse: true };
      }
      const successor = successorOf(token, row.familyId);
      if (!row.rotatedAt) {
        // Of two simultaneous uses one claims the token; the other finds the successor it made.
        const claimed = await db
          .update(refreshTokens)
          .set({ rotatedAt: sql`now()` })
          .where(and(eq(refreshTokens.id, row.id), isNull(refreshTokens.rotatedAt)))
          .returning({ id: refreshTokens.id });
        if (claimed.length > 0) return { account, token: await issue(account, row.familyId, successor) };
      }
      // Presented again: the successor (made now if its maker has not yet written it), or, if that
      // was used in turn, the token that followed it, down the line to the one not yet rotated.
      await issue(account, row.familyId, successor);
      const line = [successor];
      while (line.length < lineLength) line.push(successorOf(line[line.length - 1], row.familyId));
      const found = await db
        .select({
          tokenHash: refreshTokens.tokenHash,
          expiresAt: refreshTokens.expiresAt,
          rotatedAt: refreshTokens.rotatedAt,
          revokedAt: refreshTokens.revokedAt,
        })
        .from(refreshTokens)
        .where(
          inArray(
            refreshTokens.tokenHash,
            line.map((next) => hashOf(next)),
          ),
        );
      const byHash = new Map(found.map((next) => [next.tokenHash, next]));
      for (const next of line) {
        const stored = byHash.get(hashOf(next));
        if (!stored || stored.revokedAt || stored.expiresAt.getTime() <= Date.now()) return null;
        if (!stored.rotatedAt) return { account, token: next };
      }
      return null;
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
