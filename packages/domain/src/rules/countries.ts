import { frequentCountries } from "../constants";

/** A country select option: the two-letter code and its name. */
export type CountryOption = { value: string; label: string };

/**
 * The country selector's two groups (spec §2.5): the five frequent countries first, in their
 * order, then "All countries" with the rest sorted by name.
 */
export function groupCountries(countries: readonly CountryOption[]): {
  frequent: CountryOption[];
  all: CountryOption[];
} {
  const frequentCodes: readonly string[] = frequentCountries;
  const frequent = frequentCodes
    .map((code) => countries.find((c) => c.value === code))
    .filter((c): c is CountryOption => c !== undefined);
  const all = countries
    .filter((c) => !frequentCodes.includes(c.value))
    .sort((a, b) => a.label.localeCompare(b.label));
  return { frequent, all };
}

export const allCountriesGroupLabel = "All countries";
