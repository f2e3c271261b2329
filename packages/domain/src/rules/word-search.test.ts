import { describe, expect, it } from "vitest";
import { isWordOf, nameWords, searchedWithin, searchWords } from "./word-search";

describe("the worklist's word search", () => {
  it("reads at most eight words, split at spaces", () => {
    expect(searchWords("  Kiss   Week 12 ")).toEqual(["Kiss", "Week", "12"]);
    expect(searchWords("a b c d e f g h i j")).toHaveLength(8);
    expect(searchWords(undefined)).toEqual([]);
  });

  it("looks for a word inside texts only when it has two characters or more", () => {
    expect(searchedWithin("a")).toBe(false);
    expect(searchedWithin("2")).toBe(false);
    expect(searchedWithin("é")).toBe(false);
    expect(searchedWithin("12")).toBe(true);
  });

  it("matches a visit's name by whole words, in any case", () => {
    expect(nameWords("Week 12 / phone")).toEqual(["week", "12", "phone"]);
    expect(isWordOf("Week 12", "12")).toBe(true);
    expect(isWordOf("Week 12", "week")).toBe(true);
    expect(isWordOf("Week 2", "12")).toBe(false);
    expect(isWordOf("Week 120", "12")).toBe(false);
    expect(isWordOf("Week 24/EOT", "eot")).toBe(true);
    expect(isWordOf("Screening", "Scree")).toBe(false);
  });
});
