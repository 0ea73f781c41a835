//! Shaping for the All Sites table: search filter and joining per-period figures to sites.
import type { SitePeriods, Website } from "../api/types";

/** Case-insensitive match on name or domain. */
export function filterWebsites(websites: Website[], query: string): Website[] {
  const q = query.trim().toLowerCase();
  if (!q) return websites;
  return websites.filter((w) => w.name.toLowerCase().includes(q) || w.domain.toLowerCase().includes(q));
}

export function periodsBySite(rows: SitePeriods[] | undefined): Map<number, SitePeriods> {
  return new Map((rows ?? []).map((r) => [r.websiteId, r]));
}
