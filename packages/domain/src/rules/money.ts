import type { Currency } from "../constants";
import { addDays, dayNumberOf } from "./dates";

/**
 * Site finance arithmetic (issue 45), exact: amounts are whole numbers of the currency's minor unit
 * (bigint cents; whole forints, as HUF has no minor unit in use), parsed from and written as decimal
 * strings, never binary floating point. Rounding is half away from zero, at one place per rule.
 */

/** Digits after the decimal point each currency is kept and billed in. */
export const currencyDigits: Record<Currency, number> = { HUF: 0, EUR: 2, USD: 2, GBP: 2, CHF: 2 };

/** a / b rounded half away from zero (b > 0). */
export function divideRounded(a: bigint, b: bigint): bigint {
  const quotient = a / b;
  const rest = a % b;
  if (rest * 2n >= b) return quotient + 1n;
  if (rest * -2n >= b) return quotient - 1n;
  return quotient;
}

/** A decimal ("1850.5", 1850.5, "-12") as a scaled integer with `digits` decimals, rounded half away from zero. */
function scaled(value: string | number, digits: number): bigint {
  const text = typeof value === "number" ? numberText(value) : value.trim();
  const match = /^([+-])?(\d+)(?:\.(\d*))?$/.exec(text);
  if (!match) throw new Error(`Not a decimal amount: ${text}`);
  const [, sign, whole, fraction = ""] = match;
  const all = BigInt(whole + fraction.padEnd(digits, "0").slice(0, digits));
  // The first digit cut off decides the rounding (half away from zero).
  const roundUp = fraction.length > digits && Number(fraction[digits]) >= 5;
  const magnitude = all + (roundUp ? 1n : 0n);
  return sign === "-" ? -magnitude : magnitude;
}

/** A JavaScript number as the decimal it was written as (no exponent), e.g. 1850.5 → "1850.5". */
function numberText(value: number): string {
  if (!Number.isFinite(value)) throw new Error(`Not a finite amount: ${value}`);
  // The shortest text that reads back as the number, as it was typed; no exponent.
  const text = String(value);
  return text.includes("e")
    ? value.toLocaleString("en-US", { useGrouping: false, maximumFractionDigits: 20 })
    : text;
}

/** An amount as the currency's minor units, e.g. ("1850.00", EUR) → 185000n; ("1000.50", HUF) → 1001n. */
export function toMinor(value: string | number, currency: Currency): bigint {
  return scaled(value, currencyDigits[currency]);
}

/**
 * An amount typed in a currency, if it has no more decimals than the currency keeps ("12.50" HUF is
 * null): refused, never rounded.
 */
export function exactMinor(value: string, currency: Currency): bigint | null {
  const minor = toMinor(value, currency);
  return scaled(formatMinor(minor, currency), 2) === scaled(value, 2) ? minor : null;
}

/** Minor units as the wire and CSV write an amount: "2255.52", HUF "1001", "-74.00". */
export function formatMinor(amount: bigint, currency: Currency): string {
  const digits = currencyDigits[currency];
  const negative = amount < 0n;
  const text = (negative ? -amount : amount).toString().padStart(digits + 1, "0");
  const whole = digits === 0 ? text : text.slice(0, -digits);
  const fraction = digits === 0 ? "" : `.${text.slice(-digits)}`;
  return `${negative ? "-" : ""}${whole}${fraction}`;
}

/** `percent` % of an amount (percent up to two decimals), rounded to the minor unit. */
export function percentOf(amount: bigint, percent: number | string): bigint {
  return divideRounded(amount * scaled(percent, 2), 10_000n);
}

/**
 * What each plan visit earns of the patient fee: with no shares, each mandatory visit an equal part,
 * the last taking the rounding rest; with shares (percent per visit, adding up to 100), each its share
 * and the last visit with a share the rest. A visit without a share earns nothing.
 */
export function visitFees(
  patientFee: bigint,
  mandatoryVisitIds: readonly number[],
  shares?: ReadonlyMap<number, number | string>,
): Map<number, bigint> {
  const fees = new Map<number, bigint>();
  const paid = shares && shares.size > 0 ? [...shares.keys()] : [...mandatoryVisitIds];
  if (paid.length === 0) return fees;
  let given = 0n;
  paid.forEach((visitId, index) => {
    const last = index === paid.length - 1;
    const fee = last
      ? patientFee - given
      : shares && shares.size > 0
        ? percentOf(patientFee, shares.get(visitId) as number | string)
        : patientFee / BigInt(paid.length);
    fees.set(visitId, fee);
    given += fee;
  });
  return fees;
}

/** Visit shares added up, as a percentage written with the decimals it needs ("100", "87.5"). */
export function sharesTotal(shares: Iterable<number | string>): string {
  const hundredths = [...shares].reduce((sum: bigint, share) => sum + scaled(share, 2), 0n);
  return formatMinor(hundredths, "EUR").replace(/\.?0+$/, "");
}

/** Whether visit shares add up to 100 % (two decimals). */
export const sharesComplete = (shares: Iterable<number | string>) => sharesTotal(shares) === "100";

/** An earning split: `paidPercentage` % payable during the study, the rest held back until close-out. */
export function splitEarning(amount: bigint, paidPercentage: number): { payable: bigint; heldBack: bigint } {
  const payable = percentOf(amount, paidPercentage);
  return { payable, heldBack: amount - payable };
}

/** A statement's totals: VAT on the net of its lines, rounded once. */
export function statementTotals(
  lines: readonly bigint[],
  vatPercent: number,
): { net: bigint; vat: bigint; gross: bigint } {
  const net = lines.reduce((sum, line) => sum + line, 0n);
  const vat = percentOf(net, vatPercent);
  return { net, vat, gross: net + vat };
}

/** A statement's due date: its date and the payment days. */
export const dueDate = (statementDate: string, paymentDays: number) => addDays(statementDate, paymentDays);

export const agingBuckets = ["notDue", "days1to30", "days31to60", "days61to90", "over90"] as const;
export type AgingBucket = (typeof agingBuckets)[number];

/** Where an open amount due on `due` stands on `asOf`: not yet due, or by days past its due date. */
export function agingBucket(due: string, asOf: string): AgingBucket {
  const late = dayNumberOf(asOf) - dayNumberOf(due);
  if (late <= 0) return "notDue";
  if (late <= 30) return "days1to30";
  if (late <= 60) return "days31to60";
  if (late <= 90) return "days61to90";
  return "over90";
}
