import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  addDays,
  addYears,
  birthDateBounds,
  birthDateError,
  birthDateMask,
  birthDateRule,
  datePickerRange,
  dayNumberOf,
  isValidBirthDate,
  isValidIsoDate,
  isWithin,
  toIsoDate,
} from "./dates";

describe("birth date mask", () => {
  it.each([
    // Keeps digits and inserts the hyphens after YYYY and MM.
    ["1990", "1990"],
    ["19900", "1990-0"],
    ["199001", "1990-01"],
    ["1990011", "1990-01-1"],
    ["19900115", "1990-01-15"],
    // Drops letters and other characters and stops at 10 characters.
    ["19a9/0.01x15", "1990-01-15"],
    ["1990-01-155555", "1990-01-15"],
    // Keeps a hyphen typed where one belongs, so it can also be deleted.
    ["1990-", "1990-"],
    ["1990-01-", "1990-01-"],
    ["199-", "199"],
    // A whole day.month.year pasted (the European way) is that date; an impossible one is left to the check.
    ["26.11.2026", "2026-11-26"],
    ["1.2.2026", "2026-02-01"],
    [" 26. 11. 2026. ", "2026-11-26"],
    ["31.02.2026", "2026-02-31"],
    // Year first with dots (the Hungarian way) keeps to its digits, as before.
    ["2026.11.26.", "2026-11-26"],
  ])("masks %s as %s", (typed, shown) => {
    expect(birthDateMask(typed)).toBe(shown);
  });

  it("is stable: masking again changes nothing, and output is digits and hyphens, max 10", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 30 }), (typed) => {
        const once = birthDateMask(typed);
        expect(birthDateMask(once)).toBe(once);
        expect(once).toMatch(/^[\d-]{0,10}$/);
      }),
    );
  });

  it("turns typing a date digit by digit into that date", () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date("1900-01-01"), max: new Date("2099-12-31"), noInvalidDate: true }),
        (d) => {
          const iso = d.toISOString().slice(0, 10);
          let value = "";
          for (const ch of iso.replace(/-/g, "")) value = birthDateMask(value + ch);
          expect(value).toBe(iso);
        },
      ),
    );
  });
});

describe("dates", () => {
  it("accepts only real calendar days", () => {
    expect(isValidIsoDate("2024-02-29")).toBe(true);
    expect(isValidIsoDate("2023-02-29")).toBe(false);
    expect(isValidIsoDate("2023-13-01")).toBe(false);
    expect(isValidBirthDate("1990-01-1")).toBe(false);
    expect(isValidBirthDate(null)).toBe(false);
  });

  it("moves by days across month ends, leap days and centuries", () => {
    expect(addDays("2024-02-28", 1)).toBe("2024-02-29");
    expect(addDays("2023-02-28", 1)).toBe("2023-03-01");
    expect(addDays("2100-02-28", 1)).toBe("2100-03-01");
    expect(addDays("2000-02-28", 1)).toBe("2000-02-29");
    expect(addDays("2026-01-01", -1)).toBe("2025-12-31");
    expect(addDays("2026-03-01", 0)).toBe("2026-03-01");
    expect(addDays("2026-03-04", 42)).toBe("2026-04-15");
  });

  it("property: moving by days agrees with the calendar of Date for any day and distance", () => {
    const day = 86_400_000;
    fc.assert(
      fc.property(
        fc.integer({ min: Date.UTC(1000, 0, 1) / day, max: Date.UTC(9000, 0, 1) / day }),
        fc.integer({ min: -40_000, max: 40_000 }),
        (dayNumber, days) => {
          const iso = (n: number) => new Date(n * day).toISOString().slice(0, 10);
          expect(addDays(iso(dayNumber), days)).toBe(iso(dayNumber + days));
          // Once more, now from the kept texts; and the day numbers count the days between.
          expect(addDays(iso(dayNumber), days)).toBe(iso(dayNumber + days));
          expect(dayNumberOf(iso(dayNumber + days)) - dayNumberOf(iso(dayNumber))).toBe(days);
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it("moves by years keeping 29 February a valid day", () => {
    expect(addYears("2024-02-29", -18)).toBe("2006-02-28");
    expect(addYears("2024-06-15", 5)).toBe("2029-06-15");
  });

  it("bounds birth dates by whole years of age, both ends included", () => {
    const bounds = birthDateBounds("2025-06-15", 18, 100);
    expect(bounds).toEqual({ min: "1924-06-16", max: "2007-06-15" });
    expect(isWithin("2007-06-15", bounds)).toBe(true); // 18 today
    expect(isWithin("2007-06-16", bounds)).toBe(false); // 18 tomorrow
    expect(isWithin("1924-06-16", bounds)).toBe(true); // 100, turns 101 tomorrow
    expect(isWithin("1924-06-15", bounds)).toBe(false); // 101 today
  });

  it("spans an unbounded picker from 10 years back to 5 ahead", () => {
    expect(datePickerRange("2025-03-10")).toEqual({ min: "2015-03-10", max: "2030-03-10" });
  });

  it("writes a local date as yyyy-MM-dd", () => {
    expect(toIsoDate(new Date(2025, 0, 5, 23, 59))).toBe("2025-01-05");
  });
});

describe("birth date rule", () => {
  const rule = birthDateRule("2026-11-23", 18, 100);
  it("accepts the ages 18 to 100 on both ends and nothing outside them", () => {
    expect(rule).toMatchObject({ min: "1925-11-24", max: "2008-11-23" });
    expect(birthDateError("2008-11-23", rule)).toBeNull();
    expect(birthDateError("1925-11-24", rule)).toBeNull();
    expect(birthDateError("", rule)).toBeNull();
    expect(birthDateError(null, rule)).toBeNull();
    const message = "Birth date must be between 1925-11-24 and 2008-11-23 (age 18 to 100)";
    expect(birthDateError("2008-11-24", rule)).toBe(message);
    expect(birthDateError("2030-12-31", rule)).toBe(message);
    expect(birthDateError("1925-11-23", rule)).toBe(message);
  });
  it("refuses a half-typed or impossible date", () => {
    expect(birthDateError("1990-0", rule)).toBe("Birth date must be a real date as yyyy-MM-dd");
    expect(birthDateError("1990-02-30", rule)).toBe("Birth date must be a real date as yyyy-MM-dd");
  });
  it("widens by the slack days at both ends", () => {
    expect(birthDateRule("2026-11-23", 18, 100, 1)).toMatchObject({ min: "1925-11-23", max: "2008-11-24" });
  });
});
