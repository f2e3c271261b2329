import { describe, expect, it } from "vitest";
import { groupCountries } from "./countries";

describe("country selector groups", () => {
  it("puts the five frequent countries first, in order, then the rest by name", () => {
    const countries = [
      "Zambia:ZM",
      "United States:US",
      "Austria:AT",
      "Hungary:HU",
      "Albania:AL",
      "Poland:PL",
    ].map((s) => ({ label: s.split(":")[0], value: s.split(":")[1] }));
    const { frequent, all } = groupCountries([...countries, { label: "Germany", value: "DE" }]);
    expect(frequent.map((c) => c.value)).toEqual(["HU", "AT", "DE", "PL", "US"]);
    expect(all.map((c) => c.value)).toEqual(["AL", "ZM"]);
  });
});
