import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { financeNumber, numberOrNull, scheduleNumber } from "./numbers";

describe("numeric inputs", () => {
  it("keeps only digits, up to the allowed count", () => {
    expect(scheduleNumber("12a3", 3)).toBe("123");
    expect(scheduleNumber("1234", 3)).toBe("123");
    expect(scheduleNumber("123", 2)).toBe("12");
    expect(scheduleNumber("", 3)).toBe("");
    expect(scheduleNumber(null, 3)).toBe("");
  });

  it("turns negatives into 0 and drops decimals", () => {
    expect(scheduleNumber("-5", 3)).toBe("0");
    expect(scheduleNumber(-12, 2)).toBe("0");
    expect(scheduleNumber("-", 2)).toBe("");
    expect(scheduleNumber("7.9", 2)).toBe("7");
  });

  it("truncates finance numbers to 3 digits", () => {
    expect(financeNumber("1000")).toBe("100");
    expect(financeNumber(45)).toBe("45");
  });

  it("always gives at most maxDigits digits", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.integer()), fc.integer({ min: 1, max: 3 }), (value, max) => {
        expect(scheduleNumber(value, max)).toMatch(new RegExp(`^\\d{0,${max}}$`));
      }),
    );
  });

  it("reads empty text as no number", () => {
    expect(numberOrNull("")).toBeNull();
    expect(numberOrNull("007")).toBe(7);
  });
});
