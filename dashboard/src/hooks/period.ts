//! The screen's period, kept in the URL's `?range=` or `?from=&to=` (lib/period.ts reads and writes it): the
//! picker and every read of a screen share this one source, so a link or a reload shows the same days.
import { useCallback, useMemo } from "react";
import { useSearchParams } from "react-router-dom";
import { type Period, parsePeriod, periodQuery, writePeriod } from "../lib/period";

export interface ScreenPeriod {
  /** The URL's period, or the screen's default when it names none. */
  period: Period;
  /** Whether the URL names a period (a screen with several defaults then uses this one everywhere). */
  chosen: boolean;
  /** `range=…` or `from=…&to=…`, for the reads' URLs and cache keys. */
  query: string;
  set: (period: Period) => void;
}

export function usePeriod(fallback: Period): ScreenPeriod {
  const [params, setParams] = useSearchParams();
  const key = [params.get("range"), params.get("from"), params.get("to")].join("|");
  // biome-ignore lint/correctness/useExhaustiveDependencies: the period changes only with its three parameters
  const chosen = useMemo(() => parsePeriod(params), [key]);
  const period = chosen ?? fallback;
  // Each choice is a history entry (Back returns to the previous period), like a filter.
  const set = useCallback((next: Period) => setParams((prev) => writePeriod(prev, next)), [setParams]);
  return { period, chosen: chosen !== null, query: periodQuery(period), set };
}
