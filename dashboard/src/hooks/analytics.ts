//! One query hook per dashboard read endpoint (daemon/API.md "Dashboard reads").
import { createContext, useContext } from "react";
import { useQuery } from "@tanstack/react-query";
import type { QueryKey } from "@tanstack/react-query";
import { api } from "../api";
import { keys } from "../api/keys";
import type {
  ActivityEvent,
  Breakdown,
  BreakdownDimension,
  ConversionsResponse,
  IdentifiedVisitor,
  Overview,
  Revenue,
  SiteMetric,
  SitePeriods,
  Timeseries,
  TrafficSource,
} from "../api/types";
import type { ShareScope } from "../api/share";
import { sharePath } from "../api/share";
import { breakdownSegment, filtersQuery } from "../lib/filters";
import { useUser } from "./auth";

function useSignedIn(): boolean {
  return !!useUser().data;
}

/** Set by a share page (/share/:slug): the site reads below then go to its link's /api/share/{slug}/…. */
export const ShareContext = createContext<ShareScope | null>(null);

/**
 * How this screen reads its site: through the signed-in client, or on a share page through the link's client
 * with each path rewritten to its share read. `ready` is whether reads may start (a sign-in, or a share page).
 */
export function useSiteReader(): { ready: boolean; get: <T>(path: string) => Promise<T> } {
  const share = useContext(ShareContext);
  const signedIn = useSignedIn();
  if (share) return { ready: true, get: <T>(path: string) => share.client.get<T>(sharePath(path, share.slug)) };
  return { ready: signedIn, get: <T>(path: string) => api.get<T>(path) };
}

/**
 * A read about one website: off until a user is signed in and a website is chosen. `key` and `path` get the
 * chosen id; new per-site screens add their hooks with this (key from api/keys.ts).
 */
export function useSiteQuery<T>(
  websiteId: number | undefined,
  key: (id: number) => QueryKey,
  path: (id: number) => string,
  options: { refetchInterval?: number } = {},
) {
  const reader = useSiteReader();
  const id = websiteId ?? -1;
  return useQuery({
    queryKey: key(id),
    queryFn: () => reader.get<T>(path(id)),
    enabled: reader.ready && websiteId !== undefined,
    refetchInterval: options.refetchInterval,
  });
}

/** The reads that take `filters` get the screen's `filters=` text (hooks/filters.ts), null for none; those that
 * take a period get its query text (`range=30d`, `from=…&to=…`, lib/period.ts), which keys their caches too. */
export function useOverview(
  websiteId: number | undefined,
  options: { period?: string; refetchInterval?: number; filters?: string | null } = {},
) {
  const period = options.period ?? "range=30d";
  const filters = options.filters ?? null;
  return useSiteQuery<Overview>(
    websiteId,
    (id) => keys.site(id).overview(period, filters),
    (id) => `/api/dashboard/overview?website_id=${id}&${period}${filtersQuery(filters)}`,
    { refetchInterval: options.refetchInterval },
  );
}

export function useTimeseries(websiteId: number | undefined, period: string, filters: string | null = null) {
  return useSiteQuery<Timeseries>(
    websiteId,
    (id) => keys.site(id).timeseries(period, filters),
    (id) => `/api/dashboard/timeseries?website_id=${id}&${period}${filtersQuery(filters)}`,
  );
}

export function useRecentActivity(websiteId: number | undefined, limit = 10, filters: string | null = null) {
  return useSiteQuery<ActivityEvent[]>(
    websiteId,
    (id) => keys.site(id).recentActivity(limit, filters),
    (id) => `/api/dashboard/recent-activity?website_id=${id}&limit=${limit}${filtersQuery(filters)}`,
  );
}

export function useSitesPeriods(metric: SiteMetric) {
  const signedIn = useSignedIn();
  return useQuery({
    queryKey: keys.sitesPeriods.metric(metric),
    queryFn: () => api.get<SitePeriods[]>(`/api/dashboard/sites?metric=${metric}`),
    enabled: signedIn,
  });
}

function useSiteRead<T>(name: string, websiteId: number | undefined) {
  return useSiteQuery<T>(websiteId, (id) => keys.site(id).read(name), (id) => `/api/websites/${id}/${name}`);
}

export function useConversions(websiteId: number | undefined, period: string, filters: string | null = null) {
  return useSiteQuery<ConversionsResponse>(
    websiteId,
    (id) => keys.site(id).read("conversions", { period, filters }),
    (id) => `/api/websites/${id}/conversions?${period}${filtersQuery(filters)}`,
  );
}
export const useIdentifiedVisitors = (id: number | undefined) => useSiteRead<IdentifiedVisitor[]>("identified-visitors", id);
export function useTrafficSources(websiteId: number | undefined, period: string, filters: string | null = null) {
  return useSiteQuery<TrafficSource[]>(
    websiteId,
    (id) => keys.site(id).read("traffic-sources", { period, filters }),
    (id) => `/api/websites/${id}/traffic-sources?${period}${filtersQuery(filters)}`,
  );
}

/** Any dimension of a site over a period (`period` its query text: the breakdown widgets, one config record each;
 * the filter menu's suggestions), among what `filters` admits. */
export function useBreakdown(
  websiteId: number | undefined,
  dimension: BreakdownDimension,
  period: string,
  limit: number,
  filters: string | null = null,
  options: { enabled?: boolean } = {},
) {
  const reader = useSiteReader();
  const id = websiteId ?? -1;
  return useQuery({
    queryKey: keys.site(id).read(`breakdown/${dimension}`, { period, limit, filters }),
    queryFn: () =>
      reader.get<Breakdown>(`/api/websites/${id}/breakdown/${breakdownSegment(dimension)}?${period}&limit=${limit}${filtersQuery(filters)}`),
    enabled: reader.ready && websiteId !== undefined && (options.enabled ?? true),
  });
}

/** The revenue of the site's conversions with a value by a breakdown dimension (`source`, `goal`, ...). */
export function useRevenue(websiteId: number | undefined, dimension: BreakdownDimension, period: string, filters: string | null = null) {
  return useSiteQuery<Revenue>(
    websiteId,
    (id) => keys.site(id).read(`revenue/${dimension}`, { period, filters }),
    (id) => `/api/websites/${id}/revenue/${breakdownSegment(dimension)}?${period}&limit=20${filtersQuery(filters)}`,
  );
}

/** Downloads the site's CSV export as analytics-{id}.csv: the rows the screen's filters admit (`filters` is their
 * text, null for every row). */
export async function downloadCsvExport(websiteId: number, filters: string | null): Promise<void> {
  const text = await api.text(`/api/websites/${websiteId}/export?format=csv${filtersQuery(filters)}`);
  const blob = new Blob([text], { type: "text/csv;charset=utf-8" });
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = `analytics-${websiteId}.csv`;
  document.body.appendChild(a);
  a.click();
  a.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 1000);
}
