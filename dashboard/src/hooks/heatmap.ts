//! The heatmap panel's reads: the site's page URLs, and one page's heatmap for a range (only once a URL is
//! chosen, spec §7).
import { useQuery } from "@tanstack/react-query";
import { api } from "../api";
import type { HeatmapData, PageRendering } from "../api/heatmap";
import { keys } from "../api/keys";

export function usePageUrls(id: number) {
  return useQuery({
    queryKey: keys.site(id).read("heatmap-urls"),
    queryFn: () => api.get<string[]>(`/api/analytics/urls?website_id=${id}`),
  });
}

export function useHeatmap(id: number, url: string | undefined, range: string) {
  return useQuery({
    queryKey: keys.site(id).read("heatmap", { url: url ?? "", range }),
    queryFn: () => api.get<HeatmapData>(`/api/analytics/heatmap?website_id=${id}&url=${encodeURIComponent(url ?? "")}&time_range=${encodeURIComponent(range)}`),
    enabled: url !== undefined && url !== "",
  });
}

/** The page's latest recorded snapshot (null without a recording of it), drawn under the heat. */
export function usePageSnapshot(id: number, url: string | undefined) {
  return useQuery({
    queryKey: keys.site(id).read("heatmap-page", { url: url ?? "" }),
    queryFn: () => api.get<PageRendering>(`/api/analytics/heatmap/page?website_id=${id}&url=${encodeURIComponent(url ?? "")}`),
    enabled: url !== undefined && url !== "",
    // A recording does not change once stored: no refetch on focus.
    staleTime: 5 * 60_000,
  });
}
