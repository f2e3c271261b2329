import { displayName, type MonitorInput, validateMonitor, withCommonPasswordRule } from "@trialdesk/domain";
import { sql } from "drizzle-orm";
import { isCommonPassword, typedPasswordHash } from "../../auth/passwords";
import { defineResource } from "../resource";
import { monitors } from "./monitors.table";

/**
 * Monitors (spec §2.5, §3, §5): study monitors on record, administrators only. They sign in to their
 * assigned studies (issue 44); their password is kept hashed and never returned, and a common one is
 * refused, as a user's.
 */
export const monitorsResource = defineResource<MonitorInput>({
  name: "monitors",
  table: monitors,
  validate: withCommonPasswordRule(validateMonitor, isCommonPassword),
  sort: {
    id: monitors.id,
    email: monitors.email,
    name: sql`${monitors.firstName} || ' ' || ${monitors.lastName}`,
  },
  search: [monitors.email, monitors.firstName, monitors.lastName],
  // The list's Name column, as for users.
  exportText: { name: (row) => displayName({ profile: row as { firstName: string; lastName: string } }) },
  formats: {
    view: {
      fields: {
        id: monitors.id,
        uuid: monitors.uuid,
        version: monitors.version,
        email: monitors.email,
        firstName: monitors.firstName,
        lastName: monitors.lastName,
        isActive: monitors.isActive,
        hasPassword: sql<boolean>`${monitors.passwordHash} <> ''`,
      },
    },
  },
  toRow: async (input) => ({
    email: input.email,
    firstName: input.firstName,
    lastName: input.lastName,
    ...(input.isActive === undefined || input.isActive === null ? {} : { isActive: input.isActive }),
    ...(await typedPasswordHash(input.password)),
  }),
  unique: { monitors_email_unique: { field: "email", message: "Email is already in use" } },
  secretFields: ["password"],
});
