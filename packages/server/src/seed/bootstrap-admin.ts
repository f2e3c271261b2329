import { eq, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { users } from "../resources/users/users.table";
import { type DemoAccount, upsertAdmin } from "./factories";

/** Whether an account (administrator or not) has this e-mail, ignoring case. */
export async function adminExists(db: Db, email: string): Promise<boolean> {
  const [existing] = await db
    .select({ id: users.id })
    .from(users)
    .where(eq(sql`lower(${users.email})`, email.trim().toLowerCase()));
  return Boolean(existing);
}

/**
 * Creates an administrator with every site only when no account has that e-mail (the first start
 * with ADMIN_EMAIL/ADMIN_PASSWORD, the demo seed). An existing account is left exactly as it is:
 * a restart or a second seed never resets a password or re-activates anyone. Answers whether it
 * created one.
 */
export async function createAdminIfMissing(
  db: Db,
  options: { email: string; password: string; firstName?: string; lastName?: string } & DemoAccount,
): Promise<boolean> {
  if (await adminExists(db, options.email)) return false;
  try {
    return (await upsertAdmin(db, options)).created;
  } catch (error) {
    // Another process created it at the same moment (the unique e-mail refused this one, answered as
    // "Email is already in use"): it exists, which is the point.
    if (await adminExists(db, options.email)) return false;
    throw error;
  }
}
