import { displayName, type UserInput, validateUser, withCommonPasswordRule } from "@trialdesk/domain";
import { and, count, eq, ne, sql } from "drizzle-orm";
import { isCommonPassword, typedPasswordHash } from "../../auth/passwords";
import type { Tx } from "../../db/client";
import { conflict, validationError } from "../../http/errors";
import { defineResource } from "../resource";
import { siteLinks } from "../site-links";
import { revokeUserSessions } from "./sessions";
import { userSites, users } from "./users.table";

export const ownAdminFlagMessage = "You cannot remove your own administrator flag";
export const ownDeactivationMessage = "You cannot deactivate your own account";
export const userSiteLinks = siteLinks(userSites, "userId");
export const lastAdminMessage = "At least one active administrator must remain";
export const lastAdminDeleteMessage = "The last active administrator cannot be removed";

/** The lock that serialises the last-administrator checks (held to the end of the transaction). */
export const lastAdminLock = sql`select pg_advisory_xact_lock(hashtextextended('last-active-administrator', 0))`;

/**
 * Whether an active administrator other than `id` remains. One lock serialises these checks, so
 * two administrators demoting each other at the same moment cannot both succeed.
 */
async function anotherActiveAdmin(tx: Tx, id: number): Promise<boolean> {
  await tx.execute(lastAdminLock);
  const [row] = await tx
    .select({ n: count() })
    .from(users)
    .where(and(eq(users.isAdmin, true), eq(users.isActive, true), ne(users.id, id)));
  return Number(row.n) > 0;
}

const isActiveAdmin = (record: Record<string, unknown> | null) =>
  record?.isAdmin === true && record?.isActive === true;

/** A typed password sets its argon2id hash and the change date; an empty one keeps both. The hash never leaves the server. */
async function passwordColumns(password: string | null | undefined) {
  const hash = await typedPasswordHash(password);
  return hash.passwordHash ? { ...hash, lastPasswordChangeDate: sql`now()` } : {};
}

/**
 * Users (spec §2.5, §3, §5), administrators only (design §4). Answers carry hasPassword and the
 * last change date instead of any password; the audit trail records a new password as "changed".
 * Deactivating a user ends all of their sessions.
 */
export const usersResource = defineResource<UserInput>({
  name: "users",
  table: users,
  validate: withCommonPasswordRule(validateUser, isCommonPassword),
  sort: {
    id: users.id,
    email: users.email,
    name: sql`${users.firstName} || ' ' || ${users.lastName}`,
  },
  search: [users.email, users.firstName, users.lastName],
  exportText: { name: (row) => displayName(row as { profile: { firstName: string; lastName: string } }) },
  formats: {
    view: {
      fields: {
        id: users.id,
        uuid: users.uuid,
        version: users.version,
        email: users.email,
        lastPasswordChangeDate: users.lastPasswordChangeDate,
        hasPassword: sql<boolean>`${users.passwordHash} <> ''`,
        isActive: users.isActive,
        isAdmin: users.isAdmin,
        profile: { firstName: users.firstName, lastName: users.lastName },
      },
    },
  },
  toRow: async (input, { existing, user, tx }) => {
    // An administrator cannot lock themselves out.
    if (existing && existing.id === user?.id) {
      const errors: Record<string, string> = {};
      if (input.isAdmin === false) errors.isAdmin = ownAdminFlagMessage;
      if (input.isActive === false) errors.isActive = ownDeactivationMessage;
      if (Object.keys(errors).length > 0) throw validationError(errors);
    }
    if (existing && isActiveAdmin(existing) && (input.isAdmin === false || input.isActive === false)) {
      if (!(await anotherActiveAdmin(tx, existing.id as number)))
        throw validationError({ [input.isActive === false ? "isActive" : "isAdmin"]: lastAdminMessage });
    }
    return {
      email: input.email,
      firstName: input.profile.firstName,
      lastName: input.profile.lastName,
      ...(input.isActive === undefined || input.isActive === null ? {} : { isActive: input.isActive }),
      ...(input.isAdmin === undefined || input.isAdmin === null ? {} : { isAdmin: input.isAdmin }),
      ...(await passwordColumns(input.password)),
    };
  },
  writeChildren: async (id, input, { tx, existing }) => {
    if (input.siteIds) await userSiteLinks.write(tx, id, input.siteIds);
    // Deactivation and an administrator's password reset both end every sign-in of the user.
    const passwordReset = existing !== null && typeof input.password === "string" && input.password !== "";
    if (input.isActive === false || passwordReset) await revokeUserSessions(tx, id);
  },
  beforeDelete: async (id, { tx, existing }) => {
    if (isActiveAdmin(existing) && !(await anotherActiveAdmin(tx, id)))
      throw conflict(lastAdminDeleteMessage);
  },
  expand: (db, records) => userSiteLinks.attach(db, records),
  unique: { users_email_unique: { field: "email", message: "Email is already in use" } },
  secretFields: ["password"],
});
