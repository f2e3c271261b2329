import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { describe, expect, it } from "vitest";
import { CountrySelect, countryName, countryOptions } from "./country-select";
import { Field } from "./field";

function Harness({ initial = null }: { initial?: string | null }) {
  const [value, setValue] = useState<string | null>(initial);
  return (
    <>
      <Field id="country" label="Country">
        {(control) => <CountrySelect {...control} value={value} onChange={setValue} />}
      </Field>
      <output>{value ?? "none"}</output>
    </>
  );
}

describe("country options", () => {
  it("put the five frequent countries first, then every other country under All countries by name", () => {
    const options = countryOptions();
    expect(options.slice(0, 5)).toEqual([
      { value: "HU", label: "Hungary" },
      { value: "AT", label: "Austria" },
      { value: "DE", label: "Germany" },
      { value: "PL", label: "Poland" },
      { value: "US", label: "United States" },
    ]);
    const rest = options.slice(5);
    expect(rest.length).toBeGreaterThan(240);
    expect(rest.every((o) => o.group === "All countries")).toBe(true);
    const labels = rest.map((o) => o.label);
    expect(labels).toEqual([...labels].sort((a, b) => a.localeCompare(b)));
    expect(new Set(options.map((o) => o.value)).size).toBe(options.length);
    expect(rest.map((o) => o.value)).not.toContain("HU");
    expect(options.every((o) => /^[A-Z]{2}$/.test(o.value))).toBe(true);
  });

  it("names a code and keeps an unknown one as it is", () => {
    expect(countryName("hu")).toBe("Hungary");
    expect(countryName("US")).toBe("United States");
    expect(countryName("GB")).toBe("United Kingdom");
    expect(countryName("QQ")).toBe("QQ");
    expect(countryName(null)).toBe("");
  });
});

describe("CountrySelect", () => {
  it("shows its placeholder, the frequent countries first, searches and says No country found", async () => {
    const user = userEvent.setup();
    render(<Harness />);
    const trigger = screen.getByLabelText("Country");
    expect(trigger).toHaveTextContent("Select a country ...");
    await user.click(trigger);
    const first = screen.getAllByRole("option").slice(0, 6);
    expect(first.map((o) => o.textContent)).toEqual([
      "Hungary",
      "Austria",
      "Germany",
      "Poland",
      "United States",
      "Afghanistan",
    ]);
    expect(screen.getByText("All countries")).toBeInTheDocument();

    const search = screen.getByPlaceholderText("Search country ...");
    await user.type(search, "zzzz");
    expect(screen.queryAllByRole("option")).toHaveLength(0);
    expect(screen.getByText("No country found")).toBeInTheDocument();

    await user.clear(search);
    await user.type(search, "land");
    const found = screen.getAllByRole("option").map((o) => o.textContent);
    expect(found).toContain("Poland");
    expect(found).toContain("Finland");
    expect(found).not.toContain("Hungary");
    // Poland stays in the frequent group, above All countries.
    expect(found[0]).toBe("Poland");

    await user.click(screen.getByRole("option", { name: "Finland" }));
    expect(screen.getByRole("status")).toHaveTextContent("FI");
    expect(screen.getByLabelText("Country")).toHaveTextContent("Finland");
  });

  it("shows the name of a stored code", () => {
    render(<Harness initial="at" />);
    expect(screen.getByLabelText("Country")).toHaveTextContent("Austria");
    expect(within(screen.getByRole("status")).getByText("at")).toBeInTheDocument();
  });
});
