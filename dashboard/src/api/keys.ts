//! Query keys, one factory for the whole dashboard, so reads and invalidations name the same keys. Every
//! read about one website sits under `site(id).all`, so dropping or refreshing a site is one call:
//! `client.invalidateQueries({ queryKey: keys.site(id).all })`.
import type { SiteMetric } from "./types";

export const keys = {
  user: ["user"] as const,
  registration: ["registration"] as const,
  accountSettings: ["account-settings"] as const,
  /** The account's API keys (GET /api/user/api-keys). */
  apiKeys: ["api-keys"] as const,
  /** A recording's rrweb events (GET /api/replays/{id}/events). */
  replayEvents: (id: number) => ["replay-events", id] as const,
  /** One recording and its site (GET /api/replays/{id}), for a link that opens it. */
  replay: (id: number) => ["replay", id] as const,
  websites: ["websites"] as const,
  /** The open invitations to the signed-in account (GET /api/user/invitations). */
  invitations: ["invitations"] as const,
  sitesPeriods: {
    all: ["sites-periods"] as const,
    metric: (metric: SiteMetric) => ["sites-periods", metric] as const,
  },
  funnels: {
    all: ["funnels"] as const,
    list: (range: string, filters: string | null) => ["funnels", range, filters] as const,
    dropOffs: (id: number, range: string, filters: string | null) => ["funnels", "drop-offs", id, range, filters] as const,
  },
  journeys: {
    all: ["journeys"] as const,
    list: (site: number, period: string, filter: string, filters: string | null) =>
      ["journeys", site, period, filter, filters] as const,
    paths: (site: number, period: string, filters: string | null) => ["journeys", site, "paths", period, filters] as const,
  },
  site(id: number) {
    const all = ["site", id] as const;
    return {
      all,
      /** `filters` is the `filters=` text (null for none): each slice of the site is its own cache entry. */
      overview: (range: string, filters: string | null = null) => [...all, "overview", range, filters] as const,
      timeseries: (range: string, filters: string | null = null) => [...all, "timeseries", range, filters] as const,
      recentActivity: (limit: number, filters: string | null = null) => [...all, "recent-activity", limit, filters] as const,
      advanced: (range: string, filters: string | null = null) => [...all, "advanced", range, filters] as const,
      aiIntent: (range: string, filters: string | null = null) => [...all, "ai-intent", range, filters] as const,
      /** A per-site read named by its path segment (`/api/websites/{id}/{name}`), with its query if any. */
      read: (name: string, params: Record<string, string | number | null> = {}) => [...all, name, params] as const,
    };
  },
};
