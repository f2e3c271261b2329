import { searchDebounceMs } from "@trialdesk/domain";
import { useEffect, useRef, useState } from "react";
import type { Query } from "../api/client";
import { getConfig } from "../app/config";
import type { ListDescription, Row } from "./list-description";
import { type ParamChanges, useUrlParams } from "./url-params";

const positiveInt = (value: string | null, fallback: number) => {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? n : fallback;
};

/**
 * A list's state as the URL keeps it (page, page size, search, sort and filters), the list call's
 * query built from it, and the changes a person makes to it.
 */
export function useListParams<T extends Row>(description: ListDescription<T>) {
  const [params, updateParams] = useUrlParams();
  const page = positiveInt(params.get("page"), 1);
  const pageSize = positiveInt(params.get("pagesize"), description.pageSize ?? getConfig().defaultPageSize);
  const searchTerm = params.get("searchTerm") ?? "";
  const order = params.get("order") ?? "";
  const direction = params.get("direction") === "desc" ? "desc" : "asc";

  /** Changes some query parameters, keeping the others. Empty values leave the URL. */
  const update = (changes: ParamChanges, replace = false) => updateParams(changes, { replace });

  const filters = description.filters ?? [];
  const query: Query = {
    page,
    pagesize: pageSize,
    [description.searchParam ?? "searchTerm"]: searchTerm,
    order: order || undefined,
    direction: order ? direction : undefined,
    ...Object.fromEntries(filters.map((filter) => [filter.param, params.get(filter.param) ?? undefined])),
    ...description.query,
  };

  const sortBy = (key: string) => {
    const nextDirection = order === key && direction === "asc" ? "desc" : "asc";
    update({ order: key, direction: nextDirection, page: null });
  };

  return {
    page,
    pageSize,
    searchTerm,
    order,
    direction,
    filters,
    query,
    update,
    sortBy,
    filterValue: (param: string) => params.get(param),
    // Another filter starts again at page 1.
    setFilter: (param: string, value: string | null) => update({ [param]: value, page: null }),
    setPage: (next: number) => update({ page: next }),
  };
}

export type ListParams = ReturnType<typeof useListParams>;

/**
 * The search box's text: typed text is sent to the URL 300 ms after the last key, and starts again
 * at page 1; a search term changed from outside (back button, a link) replaces the text.
 */
export function useSearchText({ searchTerm, update }: Pick<ListParams, "searchTerm" | "update">) {
  const [search, setSearch] = useState(searchTerm);
  const lastSent = useRef(searchTerm);
  useEffect(() => {
    // Follow the URL when it changes from outside (back button, a link).
    if (searchTerm !== lastSent.current) {
      lastSent.current = searchTerm;
      setSearch(searchTerm);
    }
  }, [searchTerm]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new search text starts the timer
  useEffect(() => {
    if (search === lastSent.current) return;
    const timer = setTimeout(() => {
      lastSent.current = search;
      update({ searchTerm: search.trim() ? search : null, page: null }, true);
    }, searchDebounceMs);
    return () => clearTimeout(timer);
  }, [search]);
  return [search, setSearch] as const;
}
