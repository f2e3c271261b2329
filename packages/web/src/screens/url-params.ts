import { useCallback, useRef } from "react";
import { useSearchParams } from "react-router";

export type ParamChanges = Record<string, string | number | null | undefined>;

/**
 * A screen's query parameters and one way to change some of them (empty values leave the URL). A
 * change starts from the parameters as they are when it is made, not as they were when the changing
 * code was drawn: React Router's functional update reads the parameters of its own render, so a
 * search sent 300 ms after the last key undid a filter chip pressed meanwhile.
 */
export function useUrlParams() {
  const [params, setParams] = useSearchParams();
  const latest = useRef(params);
  latest.current = params;
  const update = useCallback(
    (changes: ParamChanges, options: { replace?: boolean; resetPage?: boolean } = {}) => {
      const next = new URLSearchParams(latest.current);
      for (const [key, value] of Object.entries(changes)) {
        if (value === null || value === undefined || value === "") next.delete(key);
        else next.set(key, String(value));
      }
      // Another filter starts again at page 1.
      if (options.resetPage) next.delete("page");
      latest.current = next;
      setParams(next, { replace: options.replace });
    },
    [setParams],
  );
  return [params, update] as const;
}
