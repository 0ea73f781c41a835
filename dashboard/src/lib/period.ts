//! The screen's period as the dashboard keeps it: `?range=28d` (a preset) or `?from=2026-11-01&to=2026-11-15`
//! (days, both included), exactly as the daemon's reads take them (daemon/API.md "### Periods"). This module owns
//! reading, writing, naming and sending it; the picker and the reads only call it. A value it does not know is
//! sent as it is: the daemon is the judge, and its 400 names the fault.

export const RANGE_PARAM = "range";
export const FROM_PARAM = "from";
export const TO_PARAM = "to";
/** Every parameter of a period, dropped together (a new choice, another site). */
export const PERIOD_PARAMS = [RANGE_PARAM, FROM_PARAM, TO_PARAM] as const;

/** A preset (`range=`) or a custom span of days (`from=`, `to=`, YYYY-MM-DD). */
export type Period = { range: string } | { from: string; to: string };

/** The picker's presets, in its order, with the label the picker then shows. */
export const PRESETS: readonly { range: string; label: string }[] = [
  { range: "today", label: "Today" },
  { range: "yesterday", label: "Yesterday" },
  { range: "7d", label: "Last 7 days" },
  { range: "28d", label: "Last 28 days" },
  { range: "30d", label: "Last 30 days" },
  { range: "90d", label: "Last 90 days" },
  { range: "month", label: "Month to date" },
  { range: "last_month", label: "Last month" },
  { range: "year", label: "Year to date" },
  { range: "12mo", label: "Last 12 months" },
  { range: "all", label: "All time" },
];

/** The URL's period, or null when it names none (the screen then shows its default). A lone `from` or `to` is
 * kept (sent, and refused by the daemon) rather than silently read as something else. */
export function parsePeriod(params: URLSearchParams): Period | null {
  const from = params.get(FROM_PARAM);
  const to = params.get(TO_PARAM);
  if (from !== null || to !== null) return { from: from ?? "", to: to ?? "" };
  const range = params.get(RANGE_PARAM);
  return range === null || range.trim() === "" ? null : { range };
}

/** `params` with `period` in place of whatever period it held. */
export function writePeriod(params: URLSearchParams, period: Period): URLSearchParams {
  const out = new URLSearchParams(params);
  for (const p of PERIOD_PARAMS) out.delete(p);
  if ("range" in period) out.set(RANGE_PARAM, period.range);
  else {
    out.set(FROM_PARAM, period.from);
    out.set(TO_PARAM, period.to);
  }
  return out;
}

/** The read's query text (`range=28d`, `from=…&to=…`); also what keys the reads' caches. */
export function periodQuery(period: Period): string {
  if ("range" in period) return `range=${encodeURIComponent(period.range)}`;
  return `from=${encodeURIComponent(period.from)}&to=${encodeURIComponent(period.to)}`;
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** A YYYY-MM-DD day's parts, or null when it is not a real calendar day. */
function dayParts(day: string): [number, number, number] | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d) return null;
  return [y, mo, d];
}

/** What the picker says: "Last 28 days", "1 Nov – 15 Nov 2026", "15 Nov 2026", "1 Dec 2025 – 3 Jan 2026". */
export function periodLabel(period: Period): string {
  if ("range" in period) return PRESETS.find((p) => p.range === period.range)?.label ?? period.range;
  const a = dayParts(period.from);
  const b = dayParts(period.to);
  if (!a || !b) return `${period.from || "?"} – ${period.to || "?"}`;
  const day = ([, m, d]: [number, number, number]) => `${d} ${MONTHS[m - 1]}`;
  if (period.from === period.to) return `${day(b)} ${b[0]}`;
  return a[0] === b[0] ? `${day(a)} – ${day(b)} ${b[0]}` : `${day(a)} ${a[0]} – ${day(b)} ${b[0]}`;
}

/** Whether the daemon reads the period by the hour (one day: its chart has 24 points). */
export function isOneDay(period: Period): boolean {
  if ("range" in period) return period.range === "today" || period.range === "yesterday";
  return period.from !== "" && period.from === period.to;
}

/** Why a custom span cannot be applied, or null when it can. */
export function customRangeError(from: string, to: string): string | null {
  if (from === "" || to === "") return "Choose both days.";
  if (!dayParts(from) || !dayParts(to)) return "Enter the days as dates.";
  if (from > to) return "The start must not be after the end.";
  return null;
}

/** How the cards' captions name the period they compare with (the same length just before). */
export function previousPeriodName(period: Period): string {
  if (!("range" in period)) return "previous period";
  switch (period.range) {
    case "today":
      return "yesterday";
    case "yesterday":
      return "the day before";
    case "last_month":
      return "the month before";
    case "30d":
      return "last month";
    default:
      return "previous period";
  }
}
