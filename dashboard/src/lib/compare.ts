//! The screen's comparison, kept in the URL's `?compare=` as the daemon's reads take it (daemon/API.md
//! "Periods"): off, the period just before, or the same days a year earlier. The chart overlays the earlier
//! period, the panels' rows carry their change, and the cards' captions name what they compare with.

export const COMPARE_PARAM = "compare";

export type Compare = "previous_period" | "year_over_year";

export const COMPARES: readonly { value: Compare; label: string }[] = [
  { value: "previous_period", label: "Previous period" },
  { value: "year_over_year", label: "Year over year" },
];

/** The URL's comparison, or null when it asks for none (or for one the dashboard does not offer). */
export function parseCompare(params: URLSearchParams): Compare | null {
  const raw = params.get(COMPARE_PARAM);
  return COMPARES.some((c) => c.value === raw) ? (raw as Compare) : null;
}

/** `&compare=…` for a read's query text, or nothing. */
export function compareQuery(compare: Compare | null): string {
  return compare === null ? "" : `&${COMPARE_PARAM}=${compare}`;
}

/** How a caption names the compared period, or null to let the period name it (the one just before). */
export function compareName(compare: Compare | null): string | null {
  return compare === "year_over_year" ? "a year earlier" : null;
}

/** A row's change as a short text ("+50%", "-12%", "new") with its direction, or null without a comparison. */
export function rowChange(count: number, previous: number | null | undefined): { text: string; trend: "up" | "down" | "flat" } | null {
  if (previous === null || previous === undefined) return null;
  if (previous === 0) return count === 0 ? { text: "0%", trend: "flat" } : { text: "new", trend: "up" };
  const pct = Math.round(((count - previous) / previous) * 100);
  return { text: `${pct > 0 ? "+" : ""}${pct}%`, trend: pct > 0 ? "up" : pct < 0 ? "down" : "flat" };
}
