import { financeNumberDigits } from "../constants";

/**
 * Numeric inputs that take whole, non-negative numbers: only digits are kept, a negative value
 * becomes 0, a decimal part is dropped and the value is truncated to `maxDigits` digits
 * ("1234" → "123"). Returns the text for the input; an empty input stays empty.
 */
export function scheduleNumber(value: string | number | null | undefined, maxDigits: number): string {
  if (value === null || value === undefined) return "";
  const text = String(value).trim();
  if (text.startsWith("-")) return /\d/.test(text) ? "0" : "";
  const whole = text.split(/[.,]/)[0];
  return whole.replace(/\D/g, "").slice(0, maxDigits);
}

/** Finance settlement days, payment days and paid percentage: truncated to 3 digits (spec §5). */
export function financeNumber(value: string | number | null | undefined): string {
  return scheduleNumber(value, financeNumberDigits);
}

/** The number an input's text stands for; empty text is null. */
export function numberOrNull(text: string): number | null {
  return text === "" ? null : Number(text);
}
