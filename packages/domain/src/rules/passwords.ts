import { passwordMinLength } from "../limits";
import { check, isBlank, type Rule, required, validator, valueAt, when } from "../validation";
import { isEmail } from "./contacts";

/** A record is new until the database has given it a numeric id (spec §4 Forms). */
export function isNewRecord(data: { id?: unknown }): boolean {
  return typeof data.id !== "number";
}

export const passwordMessages = {
  required: "Password is required",
  confirmationRequired: "Password confirmation is required",
  mismatch: "Passwords do not match",
  tooShort: `Password is too short. It should be at least ${passwordMinLength} characters.`,
} as const;

type PasswordFields = { password?: string | null; password2?: string | null };

/**
 * The password rules of users and monitors (spec §5): for new records a password and its
 * confirmation are required; then, for new records or whenever a password is typed, the two must
 * match and the password must have at least 8 characters.
 */
export function passwordRules<T extends PasswordFields & { id?: unknown }>(
  isNew: (data: T) => boolean = isNewRecord,
): Rule<T>[] {
  const typed = (data: T) => isNew(data) || !isBlank(data.password) || !isBlank(data.password2);
  return [
    when(
      isNew,
      required("password", passwordMessages.required),
      required("password2", passwordMessages.confirmationRequired),
    ),
    when(
      typed,
      check(
        "password2",
        (data) => (data.password ?? "") === (data.password2 ?? ""),
        passwordMessages.mismatch,
      ),
      check(
        "password",
        (data) => (data.password ?? "").length >= passwordMinLength,
        passwordMessages.tooShort,
      ),
    ),
  ];
}

/** "Email is required", then a basic shape check. */
export function emailRules<T>(field = "email"): Rule<T>[] {
  return [
    required(field, "Email is required"),
    check(
      field,
      (data) => isBlank(valueAt(data, field)) || isEmail(valueAt(data, field)),
      "Email is not valid",
    ),
  ];
}

/** The user menu's Change password: the current password, then the new one twice. */
export type PasswordChange = { currentPassword: string; password: string; password2: string };

export const validatePasswordChange = validator<Partial<PasswordChange>>(
  required("currentPassword", "Current password is required"),
  ...passwordRules<Partial<PasswordChange>>(() => true),
);
