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
    expect(normalizePhone(value)).toBe("+36 30 1234567");
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
