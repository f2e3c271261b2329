import { datePicker } from "../constants";

/**
 * Calendar dates as the app exchanges them: ISO "yyyy-MM-dd" strings, never Date objects, so a
 * date never shifts with the time zone of the browser or the server.
 */
const isoPattern = /^(\d{4})-(\d{2})-(\d{2})$/;

export type DateBounds = { min: string; max: string };

/** Today's calendar date where the code runs (the browser's local day). */
export function toIsoDate(date: Date): string {
  const pad = (n: number, width = 2) => String(n).padStart(width, "0");
  return `${pad(date.getFullYear(), 4)}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** True for a real calendar day written as yyyy-MM-dd (so not 2023-02-30). */
export function isValidIsoDate(value: unknown): value is string {
  if (typeof value !== "string") return false;
  const match = isoPattern.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/**
 * Moves an ISO date by whole years. 29 February becomes 28 February in a common year, as a
 * birthday does.
 */
export function addYears(iso: string, years: number): string {
  const match = isoPattern.exec(iso);
  if (!match) throw new Error(`Not an ISO date: ${iso}`);
  const year = Number(match[1]) + years;
  const month = Number(match[2]);
  const day = Math.min(Number(match[3]), daysInMonth(year, month));
  return `${String(year).padStart(4, "0")}-${match[2]}-${String(day).padStart(2, "0")}`;
}

/**
 * Moves an ISO date by whole days. Counted on day numbers (dayNumberOf, isoOfDayNumber), not through
 * Date and toISOString: the visit window engine moves dates for every window of every save (issue 14).
 */
export function addDays(iso: string, days: number): string {
  return isoOfDayNumber(dayNumberOf(iso) + days);
}

/** The digit at `index` of a text of digits (no substring, no Number: issue 14). */
const digit = (text: string, index: number) => text.charCodeAt(index) - 48;

/**
 * The day number of an ISO date, counted from 1 March of year 0 (H. Hinnant's days_from_civil, in
 * years of March to February): consecutive days have consecutive numbers.
 */
export function dayNumberOf(iso: string): number {
  const month = digit(iso, 5) * 10 + digit(iso, 6);
  const year =
    digit(iso, 0) * 1000 + digit(iso, 1) * 100 + digit(iso, 2) * 10 + digit(iso, 3) - (month <= 2 ? 1 : 0);
  const era = Math.floor(year / 400);
  const yearOfEra = year - era * 400;
  const dayOfYear =
    Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + digit(iso, 8) * 10 + digit(iso, 9) - 1;
  return era * 146097 + yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
}

/**
 * Texts of day numbers already written: the engine writes the same few hundred days again and again,
 * and building the text was most of its time (issue 14). Bounded, as a long-running server meets
 * every day of its studies' decades at most.
 */
const isoTexts = new Map<number, string>();
const isoTextsKept = 50_000;

/** The ISO date of a day number (the inverse of dayNumberOf). */
export function isoOfDayNumber(dayNumber: number): string {
  const known = isoTexts.get(dayNumber);
  if (known !== undefined) return known;
  const era = Math.floor(dayNumber / 146097);
  const dayOfEra = dayNumber - era * 146097;
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36524) - Math.floor(dayOfEra / 146096)) /
      365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const shiftedMonth = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * shiftedMonth + 2) / 5) + 1;
  const month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  const text = `${year < 1000 ? String(year).padStart(4, "0") : year}-${twoDigits(month)}-${twoDigits(day)}`;
  if (isoTexts.size >= isoTextsKept) isoTexts.clear();
  isoTexts.set(dayNumber, text);
  return text;
}

// Not a closure inside isoOfDayNumber: the server runs under tsx, which names every function it makes
// (a defineProperty call each), and that was a third of the window engine's time (issue 14).
const twoDigits = (n: number) => (n < 10 ? `0${n}` : String(n));

/**
 * The birth date input mask (spec §2.5): digits only, the hyphens after YYYY and MM are inserted
 * as soon as the next digit is typed, at most 10 characters. A hyphen the user types at one of
 * those two places is kept, and can be deleted again with backspace. A whole date pasted as day,
 * month and year with dots ("26.11.2026", as letters and European records write it) becomes that
 * date: kept to its digits it would read as year 2611. Typed key by key, dots are dropped as any
 * other character is, so typing is unchanged.
 */
export function birthDateMask(typed: string): string {
  const dotted = /^\s*(\d{1,2})\.\s*(\d{1,2})\.\s*(\d{4})\.?\s*$/.exec(typed);
  if (dotted) return `${dotted[3]}-${dotted[2].padStart(2, "0")}-${dotted[1].padStart(2, "0")}`;
  const digits = typed.replace(/\D/g, "").slice(0, 8);
  let masked = digits.slice(0, 4);
  if (digits.length > 4) masked += `-${digits.slice(4, 6)}`;
  if (digits.length > 6) masked += `-${digits.slice(6, 8)}`;
  if (typed.endsWith("-") && (digits.length === 4 || digits.length === 6)) masked += "-";
  return masked;
}

/** A complete, real calendar date; the age bounds are checked by `isWithin`. */
export function isValidBirthDate(value: unknown): value is string {
  return isValidIsoDate(value);
}

/**
 * The birth dates a patient aged minAge to maxAge whole years (both included) can have on
 * `today`: max is the day the youngest turned minAge, min the day after the oldest would turn
 * maxAge + 1.
 */
export function birthDateBounds(today: string, minAge: number, maxAge: number): DateBounds {
  return {
    min: addDays(addYears(today, -(maxAge + 1)), 1),
    max: addYears(today, -minAge),
  };
}

/** The span of a date picker that has no bounds of its own (spec §9): 10 years back, 5 ahead. */
export function datePickerRange(today: string): DateBounds {
  return { min: addYears(today, -datePicker.yearsBack), max: addYears(today, datePicker.yearsAhead) };
}

/** ISO dates compare correctly as strings. */
export function isWithin(value: string, bounds: DateBounds): boolean {
  return value >= bounds.min && value <= bounds.max;
}

/** The birth dates a form or the server accepts, with the ages they stand for (for the message). */
export type BirthDateRule = DateBounds & { minAge: number; maxAge: number };

/**
 * The birth date rule on `today`. `slackDays` widens it at both ends: the server allows one day, as
 * the browser's day may already (or still) be another one than the server's.
 */
export function birthDateRule(today: string, minAge: number, maxAge: number, slackDays = 0): BirthDateRule {
  const bounds = birthDateBounds(today, minAge, maxAge);
  return { min: addDays(bounds.min, -slackDays), max: addDays(bounds.max, slackDays), minAge, maxAge };
}

/** Why a birth date is refused (not a whole real date, or outside the age bounds); null when it is fine or empty. */
export function birthDateError(value: unknown, rule: BirthDateRule): string | null {
  if (value === null || value === undefined || value === "") return null;
  if (!isValidIsoDate(value)) return "Birth date must be a real date as yyyy-MM-dd";
  if (!isWithin(value, rule))
    return `Birth date must be between ${rule.min} and ${rule.max} (age ${rule.minAge} to ${rule.maxAge})`;
  return null;
}
