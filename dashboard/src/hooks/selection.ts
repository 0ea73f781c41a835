//! Website selection kept in the URL (?website=): the first website is preselected once the list loads. Choosing
//! another site drops the screen's filters (?filters=): they name one site's pages, referrers and campaigns; and
//! its period (?range=, ?from=&to=), which was chosen for the other site's data.
import { useCallback, useEffect } from "react";
import { useSearchParams } from "react-router-dom";
import type { Website } from "../api/types";
import { PERIOD_PARAMS } from "../lib/period";
import { FILTERS_PARAM } from "./filters";

export function useSelectedWebsite(websites: Website[] | undefined) {
  const [params, setParams] = useSearchParams();
  const raw = params.get("website");
  const requested = raw !== null && raw !== "" ? Number(raw) : undefined;
  const selected = websites?.find((w) => w.id === requested) ?? websites?.[0];

  const select = useCallback(
    (id: number) =>
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          const current = prev.get("website");
          if (current !== null && current !== String(id)) {
            next.delete(FILTERS_PARAM);
            for (const p of PERIOD_PARAMS) next.delete(p);
          }
          next.set("website", String(id));
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );

  useEffect(() => {
    if (websites && websites.length > 0 && selected && selected.id !== requested) select(selected.id);
  }, [websites, selected, requested, select]);

  return { selected, select };
}

/** A string query parameter with a default and a fixed set of values. */
export function useParamState<T extends string>(name: string, allowed: readonly T[], fallback: T): [T, (v: T) => void] {
  const [params, setParams] = useSearchParams();
  const raw = params.get(name);
  const value = (allowed as readonly string[]).includes(raw ?? "") ? (raw as T) : fallback;
  const set = useCallback(
    (v: T) =>
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          if (v === fallback) next.delete(name);
          else next.set(name, v);
          return next;
        },
        { replace: true },
      ),
    [name, fallback, setParams],
  );
  return [value, set];
}
