import { and, eq, isNull, sql } from "drizzle-orm";
import { refreshTokens } from "../../auth/auth.table";
import type { Db, Tx } from "../../db/client";

/**
 * Ends every sign-in of a user (deactivation, password change): their refresh tokens are revoked,
 * so no session can be renewed. Access tokens of a deactivated user are refused at once anyway,
 * because the guard reloads the user on every call.
 */
export async function revokeUserSessions(db: Db | Tx, userId: number) {
  await db
    .update(refreshTokens)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt)));
}
