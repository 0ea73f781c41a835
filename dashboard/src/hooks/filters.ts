//! The screen's filters, kept in the URL's `?filters=` (lib/filters.ts reads and writes the list): every filtered
//! read and every chip, menu and clickable row of a screen share this one source, so a link reproduces the view.
import { useCallback, useMemo } from "react";
import { useSearchParams } from "react-router-dom";
import { type Condition, type Filters, addFilter, encodeFilters, filtersText, parseFilters, removeFilter } from "../lib/filters";

export const FILTERS_PARAM = "filters";

export interface ScreenFilters {
  /** The list the chips show (empty when the parameter is unreadable). */
  filters: Filters;
  /** What the reads send as `filters=`, null without filters. Part of every filtered read's cache key. */
  text: string | null;
  /** Whether the URL holds any filter, readable or not. */
  active: boolean;
  add: (condition: Condition) => void;
  remove: (index: number) => void;
  clear: () => void;
  /** Puts `filters` in place of the URL's (a saved segment picked). */
  replace: (filters: Filters) => void;
}

export function useFilters(): ScreenFilters {
  const [params, setParams] = useSearchParams();
  const raw = params.get(FILTERS_PARAM);
  const parsed = useMemo(() => parseFilters(raw), [raw]);
  const text = filtersText(parsed);

  // Each change is a history entry (Back undoes a filter), made on the URL of the moment: react-router's
  // functional `setSearchParams` hands every call the params of the last render, so two changes in one event
  // (the Event Properties card adds its event and a value) would each start from the same URL and the second
  // would drop the first. The address bar is the moment's URL: BrowserRouter writes it before `setParams`
  // returns.
  const change = useCallback(
    (next: (current: Filters) => Filters) => {
      const out = new URLSearchParams(window.location.search);
      const encoded = encodeFilters(next(parseFilters(out.get(FILTERS_PARAM)).filters));
      if (encoded === null) out.delete(FILTERS_PARAM);
      else out.set(FILTERS_PARAM, encoded);
      setParams(out);
    },
    [setParams],
  );

  return {
    filters: parsed.filters,
    text,
    active: text !== null,
    add: useCallback((c: Condition) => change((f) => addFilter(f, c)), [change]),
    remove: useCallback((i: number) => change((f) => removeFilter(f, i)), [change]),
    clear: useCallback(() => change(() => []), [change]),
    replace: useCallback((next: Filters) => change(() => next), [change]),
  };
}
