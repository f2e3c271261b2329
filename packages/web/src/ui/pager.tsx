import { pageCount, pagerItems, pagerText } from "@trialdesk/domain";
import { ChevronLeft, ChevronRight } from "lucide-react";

const linkClass =
  "inline-flex min-w-8 items-center justify-center rounded-md px-2 py-1 text-sm focus-visible:outline-2 focus-visible:outline-blue-600 disabled:cursor-not-allowed disabled:opacity-40";

/**
 * The list pager of spec §2.2: "Showing {first} to {last} of {total} entries" and the page links
 * with ellipses; the links are hidden when there is only one page. Beyond the count bound the total is
 * a lower bound ("of more than 10,000 entries"): the links reach the pages known to exist, and the
 * server raises the bound as deeper pages are read, so Next stays open while there are more.
 */
export function Pager({
  page,
  pageSize,
  total,
  onPage,
}: {
  page: number;
  pageSize: number;
  total: number;
  onPage: (page: number) => void;
}) {
  const pages = pageCount(total, pageSize);
  return (
    <div className="flex flex-wrap items-center justify-between gap-2 px-1 py-2">
      <p className="text-sm text-gray-600">{pagerText(page, pageSize, total)}</p>
      {pages > 1 && (
        <nav aria-label="Pagination" className="flex items-center gap-1">
          <button
            type="button"
            className={`${linkClass} text-gray-700 hover:bg-gray-100`}
            aria-label="Previous page"
            disabled={page <= 1}
            onClick={() => onPage(page - 1)}
          >
            <ChevronLeft aria-hidden="true" className="size-4" />
          </button>
          {pagerItems(page, pages).map((item, index) =>
            item === "ellipsis" ? (
              // biome-ignore lint/suspicious/noArrayIndexKey: ellipses have no identity but their place
              <span key={`ellipsis-${index}`} aria-hidden="true" className="px-1 text-gray-500">
                …
              </span>
            ) : (
              <button
                type="button"
                key={item}
                aria-label={`Page ${item}`}
                aria-current={item === page ? "page" : undefined}
                className={`${linkClass} ${item === page ? "bg-blue-700 font-semibold text-white" : "text-gray-700 hover:bg-gray-100"}`}
                onClick={() => onPage(item)}
              >
                {item}
              </button>
            ),
          )}
          <button
            type="button"
            className={`${linkClass} text-gray-700 hover:bg-gray-100`}
            aria-label="Next page"
            disabled={page >= pages}
            onClick={() => onPage(page + 1)}
          >
            <ChevronRight aria-hidden="true" className="size-4" />
          </button>
        </nav>
      )}
    </div>
  );
}
