import { z } from "zod";
import { accountRules } from "../rules/passwords";
import { flag, recordMeta, text } from "../schema";
import { validator } from "../validation";
import { passwordField, siteIds, trimEmail } from "./fields";

/** A user as the API returns it: never a password or its hash. */
export type User = {
  id: number;
  uuid: string;
  version: number;
  email: string;
  lastPasswordChangeDate: string | null;
  /** Whether a password is set; the detail's Password row shows this instead of any value. */
  hasPassword: boolean;
  isActive: boolean;
  isAdmin: boolean;
  profile: { firstName: string; lastName: string };
  siteIds: number[];
};

export const emailMaxLength = 254;

export const userSchema = z.strictObject({
  ...recordMeta,
  email: text(emailMaxLength),
  // Sent only when set or changed; password2 is the form's confirmation and is never stored.
  password: passwordField(),
  password2: passwordField(),
  isActive: flag().optional(),
  isAdmin: flag().optional(),
  profile: z.strictObject({ firstName: text(), lastName: text() }),
  siteIds: siteIds().optional(),
  // Read-only view fields; accepted so a loaded record can be sent back whole.
  lastPasswordChangeDate: z.string().nullish(),
  hasPassword: z.boolean().nullish(),
});
export type UserInput = z.infer<typeof userSchema>;

export const validateUser = validator<Partial<UserInput>>(
  ...accountRules<Partial<UserInput>>("profile.firstName", "profile.lastName"),
);

/**
 * E-mail trimmed (its case is kept; uniqueness ignores case). An empty password on an existing
 * user means "unchanged".
 */
export function normalizeUser<T extends Partial<UserInput>>(data: T): T {
  return trimEmail(data);
}

export const emptyUser = (): Partial<UserInput> => ({
  email: "",
  password: "",
  password2: "",
  isActive: true,
  isAdmin: false,
  profile: { firstName: "", lastName: "" },
  siteIds: [],
});

export const passwordChangeSchema = z.strictObject({
  currentPassword: passwordField(),
  password: passwordField(),
  password2: passwordField(),
});
export type PasswordChangeInput = z.infer<typeof passwordChangeSchema>;

/** Rows of GET users: the list shows Id, Email and Name (first plus last name). */
export type UserListRow = Pick<User, "id" | "uuid" | "email" | "profile" | "isActive">;
