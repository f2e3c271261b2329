import { type CountryCode, isSupportedCountry, parsePhoneNumberFromString } from "libphonenumber-js";
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
 * A phone number as it is kept, applied when the field loses focus and on save (spec §5), read by
 * libphonenumber-js so local formats become the right international number (issue 15):
 * - a leading 00 becomes + ("0036 1 234" → "+36 1 234"), and so does "+00"; a plus belongs only in
 *   front; empty stays empty;
 * - a number without + is read as a number of `defaultCountry` (the site's country) when it can be
 *   one: in Hungary "06 30 123 4567" and "30 123 4567" are "+36 30 123 4567", not "+06 …" or "+30"
 *   (Greece). Otherwise, and without a country, it gets a + in front ("36 1 234" → "+36 1 234");
 * - a number the library knows is written in its international format, spaces as it groups them,
 *   when that fits in 18 characters; others keep the user's spacing;
 * - a country code keeps its own digits: "+1 212 555 0100" stays +1 (issue 46; the padding to two
 *   digits of decision 38 made it "+01 …", which no one can dial). A number saved padded then
 *   ("+01 212 555 0100") reads as the number it was, when the library knows it.
 * The result has only digits, plus and spaces and at most 18 characters, and running it again
 * changes nothing. It trims, so it is for blur and save; keystrokes use phoneInput. Whether the
 * number is a real one is isPhoneNumber's question, asked on save.
 */
export function normalizePhone(value: string, defaultCountry?: string | null): string {
  let phone = phoneInput(value).trim();
  if (phone === "") return "";
  phone = (phone.charAt(0) + phone.slice(1).replace(/\+/g, "")).trim();
  phone = phone.replace(/^\+?(?:00)+/, "+");
  const local = !phone.startsWith("+") && defaultCountry ? readPhone(phone, defaultCountry) : null;
  if (local) phone = local;
  else {
    if (!phone.startsWith("+")) phone = `+${phone}`;
    // Only 1 (North America) and 7 (Russia, Kazakhstan) are one-digit codes that padding made "+01"/"+07".
    const unpadded = /^\+0[17] /.test(phone) ? readPhone(`+${phone.slice(2)}`) : null;
    phone = unpadded ?? readPhone(phone) ?? phone;
  }
  return phone.slice(0, phoneContactMaxLength);
}

/**
 * Whether a kept phone number (international, as normalizePhone gives it) is one that
 * libphonenumber-js finds valid for its country: "+12" and "+36 1 234" are not (issue 46).
 */
export function isPhoneNumber(value: string): boolean {
  return parsePhoneNumberFromString(value.trim())?.isValid() ?? false;
}

/**
 * The international format of a number the library finds possible (its length fits), if it fits in
 * 18 characters. An international number keeps its digits (only the grouping may change); a local
 * one is taken only when its international form reads back the same, so normalizing is stable.
 */
function readPhone(text: string, country?: string): string | null {
  const code = country?.toUpperCase();
  if (code && !isSupportedCountry(code)) return null;
  const parsed = parsePhoneNumberFromString(text, code as CountryCode | undefined);
  if (!parsed?.isPossible()) return null;
  const formatted = parsed.formatInternational();
  const phone = formatted.length <= phoneContactMaxLength ? formatted : parsed.number;
  if (phone.length > phoneContactMaxLength || !/^\+[\d ]+$/.test(phone)) return null;
  const digits = (value: string) => value.replace(/\D/g, "");
  if (code) return readPhone(phone) === phone ? phone : null;
  return digits(phone) === digits(text) ? phone : null;
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
