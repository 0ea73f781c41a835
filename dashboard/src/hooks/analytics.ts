//! One query hook per dashboard read endpoint (daemon/API.md "Dashboard reads").
import { useQuery } from "@tanstack/react-query";
import { api } from "../api";
import type {
  ActivityEvent,
  ConversionsResponse,
  CountryCount,
  IdentifiedVisitor,
  Overview,
  Referrer,
  SiteMetric,
  SitePeriods,
  Timeseries,
  TimeseriesRange,
  TrafficSource,
} from "../api/types";
import { useUser } from "./auth";

function useSignedIn(): boolean {
  return !!useUser().data;
}

export function useOverview(websiteId: number | undefined, options: { range?: string; refetchInterval?: number } = {}) {
  const signedIn = useSignedIn();
  const range = options.range ?? "30d";
  return useQuery({
    queryKey: ["overview", websiteId, range],
    queryFn: () => api.get<Overview>(`/api/dashboard/overview?website_id=${websiteId}&range=${range}`),
    enabled: signedIn && websiteId !== undefined,
    refetchInterval: options.refetchInterval,
  });
}

export function useTimeseries(websiteId: number | undefined, range: TimeseriesRange) {
  const signedIn = useSignedIn();
  return useQuery({
    queryKey: ["timeseries", websiteId, range],
    queryFn: () => api.get<Timeseries>(`/api/dashboard/timeseries?website_id=${websiteId}&range=${range}`),
    enabled: signedIn && websiteId !== undefined,
  });
}

export function useRecentActivity(websiteId: number | undefined, limit = 10) {
  const signedIn = useSignedIn();
  return useQuery({
    queryKey: ["recent-activity", websiteId, limit],
    queryFn: () => api.get<ActivityEvent[]>(`/api/dashboard/recent-activity?website_id=${websiteId}&limit=${limit}`),
    enabled: signedIn && websiteId !== undefined,
  });
}

export function useSitesPeriods(metric: SiteMetric) {
  const signedIn = useSignedIn();
  return useQuery({
    queryKey: ["sites-periods", metric],
    queryFn: () => api.get<SitePeriods[]>(`/api/dashboard/sites?metric=${metric}`),
    enabled: signedIn,
  });
}

function useSiteRead<T>(name: string, websiteId: number | undefined) {
  const signedIn = useSignedIn();
  return useQuery({
    queryKey: [name, websiteId],
    queryFn: () => api.get<T>(`/api/websites/${websiteId}/${name}`),
    enabled: signedIn && websiteId !== undefined,
  });
}

export const useConversions = (id: number | undefined) => useSiteRead<ConversionsResponse>("conversions", id);
export const useIdentifiedVisitors = (id: number | undefined) => useSiteRead<IdentifiedVisitor[]>("identified-visitors", id);
export const useTrafficSources = (id: number | undefined) => useSiteRead<TrafficSource[]>("traffic-sources", id);
export const useReferrers = (id: number | undefined) => useSiteRead<Referrer[]>("referrers", id);
export const useCountries = (id: number | undefined) => useSiteRead<CountryCount[]>("countries", id);

/** Downloads the site's CSV export as analytics-{id}.csv. */
export async function downloadCsvExport(websiteId: number): Promise<void> {
  const text = await api.text(`/api/websites/${websiteId}/export?format=csv`);
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
