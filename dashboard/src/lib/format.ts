//! Number formatting and small list shaping for cards and tables.

const integer = new Intl.NumberFormat("en-US");

export function formatNumber(n: number | null | undefined): string {
  if (n === null || n === undefined || Number.isNaN(n)) return "0";
  return integer.format(n);
}

/** A count with its noun, singular for one: "1 touchpoint", "3 touchpoints", "1,204 triggers". */
export function countOf(n: number, singular: string, plural = `${singular}s`): string {
  return `${formatNumber(n)} ${n === 1 ? singular : plural}`;
}

/** A sentence ending in a name: the name's own final period ends it ("Apple Inc." gives "… of Apple Inc.", not "..").*/
export function sentenceEndingWith(text: string, name: string): string {
  return name.endsWith(".") ? `${text}${name}` : `${text}${name}.`;
}

/** "12.5%" with one decimal. */
export function formatPercent(n: number): string {
  return `${(Number.isFinite(n) ? n : 0).toFixed(1)}%`;
}

/** Bar width (0-100) of a value relative to the highest value of its list. */
export function relativeWidth(value: number, max: number): number {
  if (max <= 0 || value <= 0) return 0;
  return Math.max(2, Math.round((value / max) * 100));
}

/** The path and query of a URL for compact display; the input unchanged if it does not parse. */
export function displayPath(url: string): string {
  try {
    const u = new URL(url);
    return `${u.pathname}${u.search}` || "/";
  } catch {
    return url;
  }
}

/** The path of a page's URL (what `event:page` compares with: no query, no fragment); a bare path as given,
 * without its query. */
export function pagePath(url: string): string {
  try {
    return new URL(url).pathname || "/";
  } catch {
    return url.split(/[?#]/)[0] || "/";
  }
}

/** Referrer label: empty means Direct. */
export function referrerLabel(referrer: string): string {
  return referrer.trim() === "" ? "Direct" : referrer;
}

/** Country name from an ISO 3166 alpha-2 code; "Unknown" for an empty code. */
export function countryName(code: string | null | undefined): string {
  if (!code) return "Unknown";
  try {
    const names = new Intl.DisplayNames(["en"], { type: "region" });
    return names.of(code.toUpperCase()) ?? code;
  } catch {
    return code;
  }
}

/** Flag emoji for an ISO 3166 alpha-2 code, empty when the code is not two letters. */
export function countryFlag(code: string | null | undefined): string {
  if (!code || !/^[a-zA-Z]{2}$/.test(code)) return "";
  const base = 0x1f1e6;
  const upper = code.toUpperCase();
  return String.fromCodePoint(base + upper.charCodeAt(0) - 65, base + upper.charCodeAt(1) - 65);
}

/** Money or plain value of a conversion. */
export function formatValue(value: number | null | undefined, currency?: string): string {
  if (value === null || value === undefined) return "-";
  if (currency) {
    try {
      return new Intl.NumberFormat("en-US", { style: "currency", currency }).format(value);
    } catch {
      /* unknown currency code: fall through */
    }
  }
  return new Intl.NumberFormat("en-US", { maximumFractionDigits: 2 }).format(value);
}
