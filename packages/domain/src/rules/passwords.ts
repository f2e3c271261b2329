import { passwordMinLength } from "../limits";
import {
  check,
  type FieldErrors,
  isBlank,
  type Rule,
  required,
  validator,
  valueAt,
  when,
} from "../validation";
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
  common: "Password is too common. Please choose one that is harder to guess.",
  demo: "This password is publicly known (a demo password); choose another",
} as const;

/**
 * The passwords of the demo accounts (README, the demo seed): published, so no account may be given
 * one through the API or a form (issue 46). Only the demo seed stores them, for its own accounts.
 */
export const demoPasswords = ["admin1234", "staff1234", "monitor1234"] as const;

/** Whether a password is one of the demo passwords, ignoring case (as the common-password rule does). */
export function isDemoPassword(password: string): boolean {
  return (demoPasswords as readonly string[]).includes(password.toLowerCase());
}

type PasswordFields = { password?: string | null; password2?: string | null };

/**
 * The password rules of users and monitors (spec §5): for new records a password and its
 * confirmation are required; then, for new records or whenever a password is typed, the two must
 * match and the password must have at least 8 characters and be no demo password.
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
      check("password", (data) => !isDemoPassword(data.password ?? ""), passwordMessages.demo),
    ),
  ];
}

/**
 * The server's last password rule: a typed password that passed the spec's rules (length first) but
 * is on a list of common passwords is refused. The list is the server's (a package too large for the
 * browser), handed in as `isCommon`.
 */
export function withCommonPasswordRule<T extends PasswordFields>(
  validate: (data: T) => FieldErrors,
  isCommon: (password: string) => boolean,
): (data: T) => FieldErrors {
  return (data) => {
    const errors = validate(data);
    if (
      !errors.password &&
      typeof data.password === "string" &&
      data.password !== "" &&
      isCommon(data.password)
    )
      return { ...errors, password: passwordMessages.common };
    return errors;
  };
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

/**
 * An account's rules (users, monitors; spec §5): first and last name, at their paths in the record,
 * then the e-mail and password rules.
 */
export function accountRules<T extends PasswordFields & { id?: unknown }>(
  firstName: string,
  lastName: string,
): Rule<T>[] {
  return [
    required(firstName, "First name is required"),
    required(lastName, "Last name is required"),
    ...emailRules<T>(),
    ...passwordRules<T>(),
  ];
}

/** The user menu's Change password: the current password, then the new one twice. */
export type PasswordChange = { currentPassword: string; password: string; password2: string };

export const validatePasswordChange = validator<Partial<PasswordChange>>(
  required("currentPassword", "Current password is required"),
  ...passwordRules<Partial<PasswordChange>>(() => true),
);
