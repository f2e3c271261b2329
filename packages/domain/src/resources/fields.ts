import { z } from "zod";
import { passwordInputMaxLength, toCode } from "../limits";
import { isValidIsoDate } from "../rules/dates";
import { isoDate } from "../schema";

/**
 * Wire-schema pieces shared by the resources, beside those of schema.ts. Fields the validator
 * requires are nullish here, so a missing value reaches the validator and gets the spec's message.
 * No transforms: the schemas also document the API (OpenAPI), and the normalizers turn "" into null.
 */

/** A calendar date (yyyy-MM-dd, a real day) or nothing; "" from an emptied input counts as nothing. */
export const dateField = () =>
  z.union([isoDate().refine(isValidIsoDate, "Must be a real date"), z.literal("")]).nullish();

/** A time of day as HH:mm (24 hours). */
export const timeField = () =>
  z
    .union([z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, "Must be a time as HH:mm"), z.literal("")])
    .nullish();

/**
 * A number from a fixed list (visit types, statuses, phases, VAT …). Typed as a plain number so
 * form values from selects fit without casts.
 */
export const oneOf = (values: readonly number[]) =>
  z.number({ error: "Must be a number" }).refine((value) => values.includes(value), {
    message: `Must be one of ${values.join(", ")}`,
  });

/** A whole number from 0 to max. */
export const count = (max: number) =>
  z
    .number({ error: "Must be a number" })
    .int("Must be a whole number")
    .min(0, "Must not be negative")
    .max(max, `Must be at most ${max}`);

/** A reference the record cannot be saved without; the message names the field as the spec does. */
export const requiredRef = (message: string) => z.number({ error: message }).int().positive(message);

/** An ISO country code such as HU. */
export const countryCode = () =>
  z
    .string()
    .regex(/^[A-Za-z]{2}$/, "Must be a two-letter country code")
    .or(z.literal(""))
    .nullish();

/** A typed password (users, monitors): sent only when set or changed, never returned. */
export const passwordField = () =>
  z
    .string({ error: "Must be text" })
    // Its own words: the schema's error otherwise answers "Must be text" for a long one (issue 46).
    .max(passwordInputMaxLength, `Must be at most ${passwordInputMaxLength} characters`)
    .nullish();

const viewText = () => z.string().nullish();

/**
 * Read-only texts the server adds to a record's view (names of what it links to and the like):
 * accepted unchecked, so a loaded record can be sent back whole.
 */
export function viewTexts<const K extends string>(...names: K[]) {
  return Object.fromEntries(names.map((name) => [name, viewText()])) as Record<
    K,
    ReturnType<typeof viewText>
  >;
}

/** Ids of the record's sites (projects, users). */
export const siteIds = () => z.array(z.number().int().positive()).max(1000);

/** The form with these fields null where an input was emptied (""): an emptied date or time is none. */
export function emptiedToNull<T, K extends keyof T>(data: T, fields: readonly K[]): T {
  const next = { ...data };
  for (const field of fields) if (next[field] === "") next[field] = null as T[K];
  return next;
}

/** Empty text is stored as nothing, so "" and null mean the same. */
export function blankToNull(value: string | null | undefined): string | null {
  return value === undefined || value === null || value.trim() === "" ? null : value;
}

/** The e-mail trimmed; its case is kept, uniqueness ignores case (users, monitors). */
export function trimEmail<T extends { email?: string | null }>(data: T): T {
  return typeof data.email === "string" ? { ...data, email: data.email.trim() } : data;
}

/** The code forced upper case and cut to maxLength (spec §5): partners, therapy categories and areas. */
export function withCode<T extends { code?: string | null }>(data: T, maxLength: number): T {
  return typeof data.code === "string" ? { ...data, code: toCode(data.code, maxLength) } : data;
}
