//! The owner's filters as the dashboard keeps them: the `?filters=` parameter of the URL, holding Plausible's Stats
//! API v2 filter JSON exactly as the daemon takes it (daemon/API.md "### Filters"), so a link or a reload shows
//! the same slice. This module owns reading, changing and writing that list; the chips, the menu and the clickable
//! rows only call it. Entries it cannot read as one condition (groups, hand-edited JSON) are kept and sent as
//! they are: the daemon is the judge of a filter, and its 400 names the fault.

import { countryName } from "./format";

export type FilterOperator = "is" | "is_not" | "contains" | "contains_not";

/** One condition `[operator, dimension, values]`, the only entry the dashboard writes itself. */
export interface Condition {
  operator: FilterOperator;
  dimension: string;
  values: string[];
}

/** The top-level list of the `filters` JSON: conditions, or entries only the daemon reads (groups). */
export type Filters = readonly unknown[];

/** What the URL holds: the list when it reads as a JSON array, or the raw text otherwise (sent as is). */
export interface FiltersParam {
  filters: Filters;
  /** The parameter's text when it is not a JSON array: the daemon answers it with a 400 naming the fault. */
  unreadable: string | null;
}

export const OPERATORS: readonly { value: FilterOperator; label: string }[] = [
  { value: "is", label: "is" },
  { value: "is_not", label: "is not" },
  { value: "contains", label: "contains" },
  { value: "contains_not", label: "does not contain" },
];

/** A dimension the filter menu offers: its Plausible name, the label people read, and the breakdown listing
 * its values (`/api/websites/{id}/breakdown/{breakdown}`), which the menu suggests from. */
export interface FilterDimension {
  dimension: string;
  label: string;
  breakdown: string;
}

export const FILTER_DIMENSIONS: readonly FilterDimension[] = [
  { dimension: "event:page", label: "Page", breakdown: "page" },
  { dimension: "visit:entry_page", label: "Entry page", breakdown: "entry_page" },
  { dimension: "visit:exit_page", label: "Exit page", breakdown: "exit_page" },
  { dimension: "visit:source", label: "Source", breakdown: "source" },
  { dimension: "visit:referrer", label: "Referrer", breakdown: "referrer" },
  { dimension: "visit:utm_source", label: "UTM source", breakdown: "utm_source" },
  { dimension: "visit:utm_medium", label: "UTM medium", breakdown: "utm_medium" },
  { dimension: "visit:utm_campaign", label: "UTM campaign", breakdown: "utm_campaign" },
  { dimension: "visit:utm_content", label: "UTM content", breakdown: "utm_content" },
  { dimension: "visit:utm_term", label: "UTM term", breakdown: "utm_term" },
  { dimension: "visit:country", label: "Country", breakdown: "country" },
  { dimension: "visit:region", label: "Region", breakdown: "region" },
  { dimension: "visit:city", label: "City", breakdown: "city" },
  { dimension: "visit:device", label: "Device", breakdown: "device" },
  { dimension: "visit:browser", label: "Browser", breakdown: "browser" },
  { dimension: "visit:browser_version", label: "Browser version", breakdown: "browser_version" },
  { dimension: "visit:os", label: "Operating system", breakdown: "os" },
  { dimension: "visit:os_version", label: "OS version", breakdown: "os_version" },
  { dimension: "visit:screen", label: "Screen size", breakdown: "screen" },
  { dimension: "event:name", label: "Event", breakdown: "event" },
  { dimension: "event:goal", label: "Goal", breakdown: "goal" },
];

/** The menu's "Property" entry: its key is typed in the dialog, which then filters `event:props:<key>` with
 * suggestions from the `prop:<key>` breakdown. */
export const PROPERTY: FilterDimension = { dimension: "event:props:", label: "Property", breakdown: "prop:" };

/** The dimension a property key names (`plan` → `event:props:plan`). */
export function propertyDimension(key: string): FilterDimension {
  const k = key.trim();
  return { dimension: `event:props:${k}`, label: `Property ${k}`, breakdown: `prop:${k}` };
}

/** A breakdown's dimension as its URL's path segment. The daemon matches the segment as sent, without decoding
 * percent escapes, so the `:` of `prop:<key>` stays as it is. */
export function breakdownSegment(breakdown: string): string {
  return encodeURIComponent(breakdown).replace(/%3A/gi, ":");
}

/** The filter dimension a breakdown's rows filter by (`referrer` → `visit:referrer`, `prop:plan` →
 * `event:props:plan`). */
export function dimensionOfBreakdown(breakdown: string): string {
  if (breakdown.startsWith("prop:")) return `event:props:${breakdown.slice(5)}`;
  return FILTER_DIMENSIONS.find((d) => d.breakdown === breakdown)?.dimension ?? `visit:${breakdown}`;
}

/** The breakdown listing a filter dimension's values (for suggestions), the inverse of dimensionOfBreakdown. */
export function breakdownOfDimension(dimension: string): string | undefined {
  if (dimension.startsWith("event:props:")) return `prop:${dimension.slice(12)}`;
  return FILTER_DIMENSIONS.find((d) => d.dimension === dimension)?.breakdown;
}

export function dimensionLabel(dimension: string): string {
  if (dimension.startsWith("event:props:")) return `Property ${dimension.slice(12)}`;
  return FILTER_DIMENSIONS.find((d) => d.dimension === dimension)?.label ?? dimension;
}

/** A breakdown row's value as a filter value: the empty value is `(none)` (a Direct visit's referrer too), and
 * the empty source `Direct / None`, as the daemon reads them. */
export function filterValue(dimension: string, value: string): string {
  if (value !== "") return value;
  return dimension === "visit:source" ? "Direct / None" : "(none)";
}

/** A suggested value as the menu lists it: countries by name and code ("Germany (DE)"), the rest as they are. */
export function suggestionLabel(dimension: string, value: string): string {
  return dimension === "visit:country" && value.length === 2 ? `${countryName(value)} (${value})` : value;
}

/** Reads the `filters` parameter; absent or blank is no filter. */
export function parseFilters(raw: string | null): FiltersParam {
  if (raw === null || raw.trim() === "") return { filters: [], unreadable: null };
  try {
    const parsed: unknown = JSON.parse(raw);
    if (Array.isArray(parsed)) return { filters: parsed, unreadable: null };
  } catch {
    // Not JSON: kept as typed, for the daemon to name the fault.
  }
  return { filters: [], unreadable: raw };
}

/** The entry as one condition, or null when it is something else (a group, a malformed entry). */
export function asCondition(entry: unknown): Condition | null {
  if (!Array.isArray(entry) || entry.length < 3 || entry.length > 4) return null;
  const [operator, dimension, values] = entry;
  if (!OPERATORS.some((o) => o.value === operator) || typeof dimension !== "string") return null;
  if (!Array.isArray(values) || !values.every((v) => typeof v === "string")) return null;
  return { operator, dimension, values };
}

function entryOf(c: Condition): unknown {
  return [c.operator, c.dimension, c.values];
}

/** The list with `condition` added. A condition with the same dimension and operator is replaced (clicking a
 * second referrer shows that referrer, not an empty "is A and is B"); identical values are a no-op. */
export function addFilter(filters: Filters, condition: Condition): Filters {
  const kept = filters.filter((e) => {
    const c = asCondition(e);
    return !(c && c.dimension === condition.dimension && c.operator === condition.operator);
  });
  return [...kept, entryOf(condition)];
}

/** The list without its `index`th entry. */
export function removeFilter(filters: Filters, index: number): Filters {
  return filters.filter((_, i) => i !== index);
}

/** The parameter's text for a list: null when empty (the parameter is then dropped from the URL). */
export function encodeFilters(filters: Filters): string | null {
  return filters.length === 0 ? null : JSON.stringify(filters);
}

/** What a read sends as `filters=` (unencoded): the list, or the unreadable text as typed; null for none. */
export function filtersText(param: FiltersParam): string | null {
  return param.unreadable ?? encodeFilters(param.filters);
}

/** `&filters=...` for a read's query string, or "" without filters. */
export function filtersQuery(text: string | null): string {
  return text === null ? "" : `&filters=${encodeURIComponent(text)}`;
}

/** A chip's text: "Country is DE", "Page contains /blog", "Source is Google or Direct / None". */
export function describeFilter(entry: unknown): string {
  const c = asCondition(entry);
  if (!c) return JSON.stringify(entry);
  const op = OPERATORS.find((o) => o.value === c.operator)?.label ?? c.operator;
  const joiner = c.operator === "is" || c.operator === "contains" ? " or " : ", ";
  return `${dimensionLabel(c.dimension)} ${op} ${c.values.join(joiner)}`;
}

/** The suggestions' filter for one dimension: every other entry (a dimension's own values are not narrowed by
 * its own condition, so "Country is DE" still suggests FR). */
export function filtersWithout(filters: Filters, dimension: string): Filters {
  return filters.filter((e) => asCondition(e)?.dimension !== dimension);
}

/** A panel's own narrower read: the screen's filters (`text` as sent, `filters` as read) with `condition` added; the
 * screen's text as typed when it is unreadable, for the daemon to refuse with its reason. */
export function narrowedText(filters: Filters, text: string | null, condition: Condition): string {
  if (text !== null && text !== encodeFilters(filters)) return text;
  return JSON.stringify(addFilter(filters, condition));
}
