//! The screen's comparison in the URL's `?compare=` (lib/compare.ts): the menu and every read that compares share
//! this one source, so a link or a reload shows the same overlay.
import { useCallback } from "react";
import { useSearchParams } from "react-router-dom";
import { COMPARE_PARAM, type Compare, compareQuery, parseCompare } from "../lib/compare";

export interface ScreenCompare {
  compare: Compare | null;
  /** `&compare=…` or nothing, for the reads' URLs and cache keys. */
  query: string;
  set: (compare: Compare | null) => void;
}

export function useCompare(): ScreenCompare {
  const [params, setParams] = useSearchParams();
  const compare = parseCompare(params);
  const set = useCallback(
    (next: Compare | null) =>
      setParams((prev) => {
        const out = new URLSearchParams(prev);
        if (next === null) out.delete(COMPARE_PARAM);
        else out.set(COMPARE_PARAM, next);
        return out;
      }),
    [setParams],
  );
  return { compare, query: compareQuery(compare), set };
}
