//! Change captions of the metric cards: the change against the previous period of the same length.
import { type Period, previousPeriodName } from "./period";

/** Percent change from previous to current, or null when there is nothing to compare with. */
export function percentChange(current: number, previous: number): number | null {
  if (!Number.isFinite(current) || !Number.isFinite(previous)) return null;
  if (previous === 0) return current === 0 ? 0 : null;
  return ((current - previous) / previous) * 100;
}

export interface ChangeCaption {
  text: string;
  trend: "up" | "down" | "flat" | "new";
}

/**
 * "+12.5% vs last month", "-2.1% vs previous period", "+0.0% vs last month"; when the previous period
 * had nothing and this one has something: "New vs last month". `comparedWith` names another compared period
 * ("a year earlier").
 */
export function changeCaption(current: number, previous: number, period: Period, comparedWith: string | null = null): ChangeCaption {
  // All time has no period before it to compare with.
  if ("range" in period && period.range === "all") return { text: "Since the first data", trend: "flat" };
  const label = comparedWith ?? previousPeriodName(period);
  const pct = percentChange(current, previous);
  if (pct === null) return { text: `New vs ${label}`, trend: "new" };
  const rounded = Math.round(pct * 10) / 10;
  const sign = rounded < 0 ? "-" : "+";
  const trend = rounded > 0 ? "up" : rounded < 0 ? "down" : "flat";
  return { text: `${sign}${Math.abs(rounded).toFixed(1)}% vs ${label}`, trend };
}

/** Caption of the analytics dashboard's Conversions card: "3.2% rate" or "No conversions". */
export function conversionCaption(conversions: number, rate: number | undefined): string {
  if (!conversions) return "No conversions";
  return `${(rate ?? 0).toFixed(1)}% rate`;
}
