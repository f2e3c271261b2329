import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  contactNotesInput,
  contactValueInput,
  isEmail,
  isPhoneNumber,
  normalizePhone,
  phoneInput,
} from "./contacts";

describe("phone contact", () => {
  it("keeps digits, plus and spaces, at most 18", () => {
    expect(phoneInput("+36 (30) 123-4567")).toBe("+36 30 1234567");
    expect(phoneInput("0036 30 123 4567 890")).toBe("0036 30 123 4567 8");
  });

  it.each([
    // A leading 00 turns into +, and it always starts with +.
    ["0036 30 123 4567", "+36 30 123 4567"],
    ["36 30 123 4567", "+36 30 123 4567"],
    ["+36 30 123 4567", "+36 30 123 4567"],
    ["+0036 1", "+36 1"],
    ["+36+30 1", "+3630 1"],
    // A one-digit country code stays one digit (issue 46: "+1 212 …" became "+01 212 …").
    ["+1 212 555 0100", "+1 212 555 0100"],
    ["001 212 555 0100", "+1 212 555 0100"],
    ["1 212 555 0100", "+1 212 555 0100"],
    ["+7 495 123 4567", "+7 495 123 45 67"],
    ["+1 555 0100", "+1 555 0100"],
    ["+15550100", "+15550100"],
    // A number saved padded before reads as the number it was.
    ["+01 212 555 0100", "+1 212 555 0100"],
    ["+07 495 123 45 67", "+7 495 123 45 67"],
    // A digit is never cut off to pad.
    ["+1 555 555 555 555", "+1 555 555 555 555"],
    // An empty value stays empty.
    ["", ""],
    ["  ", ""],
  ])("normalises %j to %j", (typed, kept) => {
    expect(normalizePhone(typed)).toBe(kept);
  });

  it("is stable and always gives an allowed value", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 30 }), (typed) => {
        const phone = normalizePhone(typed);
        expect(normalizePhone(phone)).toBe(phone);
        expect(phone).toMatch(/^(\+[\d ]*)?$/);
        expect(phone.length).toBeLessThanOrEqual(18);
      }),
    );
  });

  it("gives the kept number when a typed one loses focus", () => {
    let value = "";
    for (const ch of "0036 (30) 123-4567") value = phoneInput(value + ch);
    expect(value).toBe("0036 30 1234567");
    // A number the phone library knows is grouped as it writes it.
    expect(normalizePhone(value)).toBe("+36 30 123 4567");
  });

  it.each([
    ["06 30 123 4567", "HU", "+36 30 123 4567"],
    ["30 123 4567", "HU", "+36 30 123 4567"],
    ["01 234 5678", "AT", "+43 1 2345678"],
    // An international number stays in its own country, whatever the site's.
    ["+48 123 456 789", "HU", "+48 12 345 67 89"],
    ["0048 123 456 789", "HU", "+48 12 345 67 89"],
    // Without a country, or when the number cannot be one of it, the old rule: + in front.
    ["30 123 4567", undefined, "+30 123 4567"],
    ["36 30 123 4567", "HU", "+36 30 123 4567"],
    ["06 30 123 4567", "XX", "+06 30 123 4567"],
  ])("reads %j as a number of the site's country %s (issue 15)", (typed, country, kept) => {
    expect(normalizePhone(typed, country)).toBe(kept);
  });

  it("keeps the spec's rules with a country too: stable, digits, plus and spaces, at most 18", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom(..."0123456789 +"), maxLength: 22 }),
        fc.constantFrom("HU", "AT", "US", "PL"),
        (typed, country) => {
          const phone = normalizePhone(typed, country);
          expect(normalizePhone(phone, country)).toBe(phone);
          expect(phone).toMatch(/^(\+[\d ]*)?$/);
          expect(phone.length).toBeLessThanOrEqual(18);
        },
      ),
    );
  });
});

describe("a valid phone number (issue 46)", () => {
  it.each([
    ["+1 212 555 0100", true],
    ["+36 30 123 4567", true],
    ["+43 1 2345678", true],
    ["+48 22 611 90 00", true],
    // Too short for any country, or not a number of its country.
    ["+12", false],
    ["+36 1 234", false],
    ["+01 212 555 0100", false],
    ["+1 555 0100", false],
    ["", false],
  ])("%j is valid: %s", (phone, valid) => {
    expect(isPhoneNumber(phone)).toBe(valid);
  });

  it("refuses what a typed 12 becomes, with or without the site's country", () => {
    expect(isPhoneNumber(normalizePhone("12"))).toBe(false);
    expect(isPhoneNumber(normalizePhone("12", "HU"))).toBe(false);
    expect(isPhoneNumber(normalizePhone("06 30 123 4567", "HU"))).toBe(true);
  });
});

describe("other contact inputs", () => {
  it("cuts e-mails at 60 and notes at 200, and masks phones by type", () => {
    expect(contactValueInput("EMAIL", "a".repeat(70))).toHaveLength(60);
    expect(contactValueInput("PHONE", "+36-30")).toBe("+3630");
    expect(contactNotesInput("n".repeat(250))).toHaveLength(200);
  });

  it("checks a basic e-mail shape", () => {
    expect(isEmail("anna@example.com")).toBe(true);
    expect(isEmail("anna@example")).toBe(false);
    expect(isEmail("an na@example.com")).toBe(false);
  });
});
