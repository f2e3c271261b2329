import { describe, expect, it } from "vitest";
import { countBound, countText, pageCount, pagerItems, pagerText } from "./pager";

describe("pager", () => {
  it("says which entries are shown", () => {
    expect(pagerText(1, 10, 25)).toBe("Showing 1 to 10 of 25 entries");
    expect(pagerText(3, 10, 25)).toBe("Showing 21 to 25 of 25 entries");
    expect(pagerText(1, 10, 0)).toBe("Showing 0 to 0 of 0 entries");
  });

  it("keeps the spec's text up to the count bound, and says 'more than' beyond it", () => {
    expect(countBound).toBe(10_000);
    expect(pagerText(200, 50, 10_000)).toBe("Showing 9951 to 10000 of 10000 entries");
    // The server answers one more than the bound when there are more rows than it counts.
    expect(pagerText(1, 50, 10_001)).toBe("Showing 1 to 50 of more than 10,000 entries");
    // On a deep page the lower bound is past the rows read there.
    expect(pagerText(1000, 50, 50_001)).toBe("Showing 49,951 to 50,000 of more than 50,000 entries");
    expect(pageCount(10_001, 50)).toBe(201);
  });

  it("counts pages, at least one", () => {
    expect(pageCount(0, 10)).toBe(1);
    expect(pageCount(10, 10)).toBe(1);
    expect(pageCount(11, 10)).toBe(2);
  });

  it("lists every page when there are few", () => {
    expect(pagerItems(1, 1)).toEqual([1]);
    expect(pagerItems(2, 6)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it("shows a window with ellipses when there are many", () => {
    expect(pagerItems(1, 20)).toEqual([1, 2, 3, 4, "ellipsis", 20]);
    expect(pagerItems(10, 20)).toEqual([1, "ellipsis", 9, 10, 11, "ellipsis", 20]);
    expect(pagerItems(20, 20)).toEqual([1, "ellipsis", 17, 18, 19, 20]);
  });

  it("never shows more than 6 numbered links", () => {
    for (let pages = 1; pages <= 30; pages++) {
      for (let page = 1; page <= pages; page++) {
        const items = pagerItems(page, pages);
        expect(items.filter((i) => i !== "ellipsis").length).toBeLessThanOrEqual(6);
        expect(items).toContain(page);
      }
    }
  });
});

describe("count badges", () => {
  it("show a count exactly up to the bound and beyond it as the bound with a plus", () => {
    expect(countText(0)).toBe("0");
    expect(countText(countBound)).toBe(String(countBound));
    expect(countText(countBound + 1)).toBe("10,000+");
  });
});
