import { allCountriesGroupLabel, type CountryOption, groupCountries } from "@trialdesk/domain";
import countries from "i18n-iso-countries";
import en from "i18n-iso-countries/langs/en.json";
import type { ControlProps } from "./field";
import { SearchableSelect, type SelectOption } from "./select";

// English only: registering one locale keeps the other 80-odd languages out of the bundle.
countries.registerLocale(en);

/** Names the spec writes differently from the library's official ones (spec §2.5). */
const nameOverrides: Record<string, string> = { US: "United States" };

/** The name of a two-letter country code, e.g. "HU" → "Hungary"; the code itself when unknown. */
export function countryName(code: string | null | undefined): string {
  if (!code) return "";
  const upper = code.toUpperCase();
  return nameOverrides[upper] ?? countries.getName(upper, "en", { select: "official" }) ?? upper;
}

let cached: SelectOption<string>[] | null = null;

/**
 * The options of the country selector (spec §2.5, §3 Country option {value, label}): the five
 * frequent countries first, without a heading, then the group "All countries" with the rest by name.
 */
export function countryOptions(): SelectOption<string>[] {
  if (cached) return cached;
  const all: CountryOption[] = Object.keys(countries.getAlpha2Codes()).map((code) => ({
    value: code,
    label: countryName(code),
  }));
  const groups = groupCountries(all);
  cached = [...groups.frequent, ...groups.all.map((c) => ({ ...c, group: allCountriesGroupLabel }))];
  return cached;
}

/** The country selector: value is the two-letter code (patients' address and birth country use it too). */
export function CountrySelect({
  value,
  onChange,
  disabled,
  className,
  ...control
}: ControlProps & {
  value: string | null | undefined;
  onChange: (code: string) => void;
  disabled?: boolean;
  className?: string;
}) {
  return (
    <SearchableSelect
      {...control}
      options={countryOptions()}
      value={value ? value.toUpperCase() : null}
      onChange={onChange}
      placeholder="Select a country ..."
      searchPlaceholder="Search country ..."
      emptyText="No country found"
      disabled={disabled}
      className={className}
    />
  );
}
