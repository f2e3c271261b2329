import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { contactNotesInput, contactValueInput, isEmail, normalizePhone, phoneInput } from "./contacts";

describe("phone contact", () => {
  it("keeps digits, plus and spaces, at most 18", () => {
    expect(phoneInput("+36 (30) 123-4567")).toBe("+36 30 1234567");
    expect(phoneInput("0036 30 123 4567 890")).toBe("0036 30 123 4567 8");
  });

  it("turns a leading 00 into + and always starts with +", () => {
    expect(normalizePhone("0036 30 123 4567")).toBe("+36 30 123 4567");
    expect(normalizePhone("36 30 123 4567")).toBe("+36 30 123 4567");
    expect(normalizePhone("+36 30 123 4567")).toBe("+36 30 123 4567");
    expect(normalizePhone("+0036 1")).toBe("+36 1");
    expect(normalizePhone("+36+30 1")).toBe("+3630 1");
  });

  it("pads a one-digit country code followed by a space to two digits", () => {
    expect(normalizePhone("+1 555 0100")).toBe("+01 555 0100");
    expect(normalizePhone("001 555 0100")).toBe("+01 555 0100");
    expect(normalizePhone("+15550100")).toBe("+15550100");
  });

  it("never cuts a digit off to pad", () => {
    expect(normalizePhone("+1 555 555 555 555")).toBe("+1 555 555 555 555");
  });

  it("leaves an empty value empty", () => {
    expect(normalizePhone("")).toBe("");
    expect(normalizePhone("  ")).toBe("");
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

  it("reads a local number as one of the site's country (issue 15)", () => {
    expect(normalizePhone("06 30 123 4567", "HU")).toBe("+36 30 123 4567");
    expect(normalizePhone("30 123 4567", "HU")).toBe("+36 30 123 4567");
    expect(normalizePhone("01 234 5678", "AT")).toBe("+43 1 2345678");
    // An international number stays in its own country, whatever the site's.
    expect(normalizePhone("+48 123 456 789", "HU")).toBe("+48 12 345 67 89");
    expect(normalizePhone("0048 123 456 789", "HU")).toBe("+48 12 345 67 89");
    // Without a country, or when the number cannot be one of it, the old rule: + in front.
    expect(normalizePhone("30 123 4567")).toBe("+30 123 4567");
    expect(normalizePhone("36 30 123 4567", "HU")).toBe("+36 30 123 4567");
    expect(normalizePhone("06 30 123 4567", "XX")).toBe("+06 30 123 4567");
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
