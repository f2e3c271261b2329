import { z } from "zod";
import { toCode } from "../limits";
import { recordMeta, text } from "../schema";
import { check, minLength, required, validator } from "../validation";
import { blankToNull, countryCode } from "./fields";

export type Site = {
  id: number;
  uuid: string;
  version: number;
  name: string;
  shortName: string;
  code: string;
  /** Ends in the separator "-", e.g. "BUD-"; patient barcodes start with it. */
  barcodePrefix: string | null;
  /** The street address. */
  address: string | null;
  city: string | null;
  countryCode: string | null;
};

export const siteCodeMaxLength = 5;
export const barcodePrefixMaxLength = 5;
export const barcodeSeparator = "-";

export const siteSchema = z.strictObject({
  ...recordMeta,
  name: text(),
  shortName: text(),
  // Codes sent longer than their inputs keep are refused, never stored cut (issue 46): the code at 5,
  // the barcode prefix at 4 letters and numbers before its separator.
  code: text(siteCodeMaxLength),
  barcodePrefix: text(barcodePrefixMaxLength)
    .refine(
      (prefix) =>
        prefix.replace(/[^A-Za-z0-9]/g, "").length <= barcodePrefixMaxLength - barcodeSeparator.length,
      `Must be at most ${barcodePrefixMaxLength - barcodeSeparator.length} letters and numbers`,
    )
    .nullish(),
  address: text().nullish(),
  city: text().nullish(),
  countryCode: countryCode(),
});
export type SiteInput = z.infer<typeof siteSchema>;

export const validateSite = validator<Partial<SiteInput>>(
  required("name", "Name is required"),
  required("shortName", "Short name is required"),
  required("code", "Code is required"),
);

export const siteCodeMinLength = 2;
export const barcodePrefixMinLength = 2;

/**
 * What is checked before saving (by the form too, issue 15), on prepareSiteForSave's output: the form's rules, the
 * minimums of the hints ("2 to 5 characters"; "2 to 4 characters") and a barcode prefix, without
 * which the site's patients get no barcode (design §4). Uniqueness is the database's.
 */
export const validateSiteForSave = validator<Partial<SiteInput>>(
  validateSite,
  minLength("code", siteCodeMinLength, "Code must be at least 2 characters long"),
  required("barcodePrefix", "Barcode prefix is required"),
  check(
    "barcodePrefix",
    (site) => (site.barcodePrefix ?? "").replace(/-+$/, "").length >= barcodePrefixMinLength,
    "Barcode prefix must be at least 2 characters long",
  ),
  check(
    "barcodePrefix",
    (site) => /^[A-Z0-9]*-?$/.test(site.barcodePrefix ?? ""),
    "Barcode prefix takes letters and numbers only",
  ),
);

/** Letters and numbers before the separator (the hint: "2 to 4 characters, letters and numbers only"). */
export const barcodePrefixBodyMaxLength = barcodePrefixMaxLength - barcodeSeparator.length;

/**
 * The barcode prefix input (spec §5, at most 5 characters with the separator): upper-cased letters
 * and numbers, at most 4, and the separator only at the end, where the server puts it anyway (a
 * stored "BUD-" shows as it is). A hyphen inside is dropped, so "QA-9X" typed or pasted is "QA9X"
 * and stored as "QA9X-" (issue 15): input, hint, check and stored value agree.
 */
export function barcodePrefixInput(value: string): string {
  const upper = value.toUpperCase();
  const body = upper.replace(/[^A-Z0-9]/g, "").slice(0, barcodePrefixBodyMaxLength);
  return body !== "" && upper.trimEnd().endsWith(barcodeSeparator) ? body + barcodeSeparator : body;
}

/** The prefix as stored: its letters and numbers ending in exactly one separator ("BUD" → "BUD-"); empty is null. */
export function barcodePrefixWithSeparator(value: string | null | undefined): string | null {
  const body = barcodePrefixInput(value ?? "").replace(/-$/, "");
  return body === "" ? null : body + barcodeSeparator;
}

/**
 * Code upper-cased and cut to 5, barcode prefix masked, country code upper-cased (spec §5). Safe
 * on every keystroke; prepareSiteForSave adds the barcode separator.
 */
export function normalizeSite<T extends Partial<SiteInput>>(data: T): T {
  const next = { ...data };
  if (typeof next.code === "string") next.code = toCode(next.code, siteCodeMaxLength);
  if (typeof next.barcodePrefix === "string") next.barcodePrefix = barcodePrefixInput(next.barcodePrefix);
  if (typeof next.countryCode === "string") next.countryCode = blankToNull(next.countryCode.toUpperCase());
  return next;
}

/** What is saved: the barcode prefix ending in its separator. Not for keystrokes. */
export function prepareSiteForSave<T extends Partial<SiteInput>>(data: T): T {
  const next = normalizeSite(data);
  return "barcodePrefix" in next
    ? { ...next, barcodePrefix: barcodePrefixWithSeparator(next.barcodePrefix) }
    : next;
}

export const emptySite = (): Partial<SiteInput> => ({
  name: "",
  shortName: "",
  code: "",
  barcodePrefix: "",
  address: "",
  city: "",
  countryCode: null,
});

/** Lookup rows of GET sites (page 1, size 250). */
export type SiteLookupRow = Pick<
  Site,
  "id" | "uuid" | "name" | "shortName" | "code" | "city" | "countryCode"
>;
