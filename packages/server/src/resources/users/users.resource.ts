import { normalizeUser, type UserInput, userSchema, validateUser } from "@trialdesk/domain";
import { eq, inArray, sql } from "drizzle-orm";
import { typedPasswordHash } from "../../auth/passwords";
import { validationError } from "../../http/errors";
import { defineResource } from "../resource";
import { revokeUserSessions } from "./sessions";
import { userSites, users } from "./users.table";

export const ownAdminFlagMessage = "You cannot remove your own administrator flag";
export const ownDeactivationMessage = "You cannot deactivate your own account";

/** A new password (or the first one) is hashed with argon2id; the hash never leaves the server. */
/** A typed password sets the hash and the change date; an empty one keeps both. */
async function passwordColumns(password: string | null | undefined) {
  const hash = await typedPasswordHash(password);
  return hash.passwordHash ? { ...hash, lastPasswordChangeDate: sql`now()` } : {};
}

/**
 * Users (spec §2.5, §3, §5), administrators only (DESIGN §4). Answers carry hasPassword and the
 * last change date instead of any password; the audit trail records a new password as "changed".
 * Deactivating a user ends all of their sessions.
 */
export const usersResource = defineResource<UserInput>({
  name: "users",
  label: "User",
  table: users,
  schema: userSchema,
  normalize: normalizeUser,
  validate: validateUser,
  sort: {
    id: users.id,
    email: users.email,
    name: sql`${users.firstName} || ' ' || ${users.lastName}`,
  },
  search: [users.email, users.firstName, users.lastName],
  access: { list: "admin", get: "admin", write: "admin" },
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
  toRow: async (input, { existing, user }) => {
    // An administrator cannot lock themselves out.
    if (existing && existing.id === user?.id) {
      const errors: Record<string, string> = {};
      if (input.isAdmin === false) errors.isAdmin = ownAdminFlagMessage;
      if (input.isActive === false) errors.isActive = ownDeactivationMessage;
      if (Object.keys(errors).length > 0) throw validationError(errors);
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
  writeChildren: async (id, input, { tx }) => {
    if (input.siteIds) {
      await tx.delete(userSites).where(eq(userSites.userId, id));
      const siteIds = [...new Set(input.siteIds)];
      if (siteIds.length > 0)
        await tx.insert(userSites).values(siteIds.map((siteId) => ({ userId: id, siteId })));
    }
    if (input.isActive === false) await revokeUserSessions(tx, id);
  },
  expand: async (db, records) => {
    const links = await db
      .select()
      .from(userSites)
      .where(
        inArray(
          userSites.userId,
          records.map((r) => r.id as number),
        ),
      );
    return records.map((record) => ({
      ...record,
      siteIds: links
        .filter((link) => link.userId === record.id)
        .map((link) => link.siteId)
        .sort((a, b) => a - b),
    }));
  },
  unique: { users_email_unique: { field: "email", message: "Email is already in use" } },
  secretFields: ["password"],
});
