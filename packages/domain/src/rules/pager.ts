/**
 * The list pager of spec §2.2: "Showing {first} to {last} of {total} entries" and up to 5 to 6
 * page links around the current page, with ellipses for the pages left out.
 */
export type PagerItem = number | "ellipsis";

export function pageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / Math.max(1, pageSize)));
}

/**
 * Lists count their rows exactly up to this many (an exact count of half a million rows costs
 * hundreds of milliseconds). Beyond it a list's total is a lower bound: the server answers the
 * least number of rows it knows to exist (more than the bound, and past the rows it has read), so
 * the page links reach every page known to exist and Next stays open while there are more.
 */
export const countBound = 10_000;

/** True when a list's total is "at least this many" rather than an exact count. */
export const isLowerBoundTotal = (total: number) => total > countBound;

const grouped = (n: number) => n.toLocaleString("en-US");

/** A count as a badge shows it: exact up to the count bound, beyond it "10,000+". */
export const countText = (n: number): string =>
  isLowerBoundTotal(n) ? `${grouped(countBound)}+` : String(n);

/**
 * "Showing {first} to {last} of {total} entries" (spec §2.2); beyond the count bound "of more than
 * {total - 1} entries" (decisions: the count strategy), which stays true since at least total exist.
 */
export function pagerText(page: number, pageSize: number, total: number): string {
  const first = total === 0 ? 0 : (page - 1) * pageSize + 1;
  const last = Math.min(total, page * pageSize);
  if (isLowerBoundTotal(total))
    return `Showing ${grouped(first)} to ${grouped(last)} of more than ${grouped(total - 1)} entries`;
  return `Showing ${first} to ${last} of ${total} entries`;
}

/**
 * The page links to show: always the first and last page, a window around the current page, and
 * an ellipsis where pages are skipped. Never more than 6 numbered links.
 */
export function pagerItems(page: number, pages: number): PagerItem[] {
  if (pages <= 6) return Array.from({ length: pages }, (_, i) => i + 1);
  const current = Math.min(Math.max(page, 1), pages);
  let start = Math.max(2, current - 1);
  let end = Math.min(pages - 1, current + 1);
  // Keep the window three pages wide at the edges, so the count of links stays 5.
  if (current <= 3) {
    start = 2;
    end = 4;
  } else if (current >= pages - 2) {
    start = pages - 3;
    end = pages - 1;
  }
  const items: PagerItem[] = [1];
  if (start > 2) items.push("ellipsis");
  for (let p = start; p <= end; p++) items.push(p);
  if (end < pages - 1) items.push("ellipsis");
  items.push(pages);
  return items;
}
