import {
  type ContactType,
  contactNotesMaxLength,
  emailContactMaxLength,
  phoneContactMaxLength,
} from "../constants";

/** The phone input (spec §5): only digits, plus and spaces, at most 18 characters. */
export function phoneInput(value: string): string {
  return value.replace(/[^\d+ ]/g, "").slice(0, phoneContactMaxLength);
}

/**
 * A phone number as it is kept, applied when the field loses focus (spec §5):
 * - a leading 00 becomes + ("0036 1 234" → "+36 1 234"), and so does "+00" (a typed 00 after an
 *   automatic +);
 * - it always starts with + ("36 1 234" → "+36 1 234"), and has no other plus; empty stays empty;
 * - "the country code padded to two digits": the country code is the digits between + and the
 *   first space; a one-digit code gets a leading zero ("+1 555 0100" → "+01 555 0100"). Without a
 *   space the code cannot be told from the number, so nothing is padded. Padding is skipped when it
 *   would push the number past 18 characters, so no digit is ever cut off.
 * Running it again changes nothing. It trims, so it is for blur and save; keystrokes use phoneInput.
 */
export function normalizePhone(value: string): string {
  let phone = phoneInput(value).trim();
  if (phone === "") return "";
  // A plus belongs only in front.
  phone = phone.charAt(0) + phone.slice(1).replace(/\+/g, "");
  phone = phone.replace(/^\+?00/, "+");
  if (!phone.startsWith("+")) phone = `+${phone}`;
  const padded = phone.replace(/^\+(\d) /, "+0$1 ");
  return (padded.length <= phoneContactMaxLength ? padded : phone).slice(0, phoneContactMaxLength);
}

/** The value input of a contact: the phone mask for PHONE, cut to 60 characters for EMAIL. */
export function contactValueInput(type: ContactType | null | undefined, value: string): string {
  return type === "PHONE" ? phoneInput(value) : value.slice(0, emailContactMaxLength);
}

export function contactNotesInput(value: string): string {
  return value.slice(0, contactNotesMaxLength);
}

/** A basic e-mail shape check: something@something.tld, no spaces. */
export function isEmail(value: unknown): boolean {
  return typeof value === "string" && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value.trim());
}
