//! The Advanced Analytics screen's reads: one hook per endpoint, each of the visits the URL's filters admit
//! (`filters`: the text sent, null for none). AI intent refetches every 30 s (spec §9).
import type { AdvancedAnalytics, AdvancedRange, AiIntent } from "../api/advanced";
import { keys } from "../api/keys";
import { filtersQuery } from "../lib/filters";
import { useSiteQuery } from "./analytics";

export const AI_INTENT_REFETCH_MS = 30_000;

export function useAdvancedAnalytics(websiteId: number | undefined, range: AdvancedRange, filters: string | null = null) {
  return useSiteQuery<AdvancedAnalytics>(
    websiteId,
    (id) => keys.site(id).advanced(range, filters),
    (id) => `/api/analytics/advanced?website_id=${id}&time_range=${range}${filtersQuery(filters)}`,
  );
}

export function useAiIntent(websiteId: number | undefined, range: string, filters: string | null = null) {
  return useSiteQuery<AiIntent>(
    websiteId,
    (id) => keys.site(id).aiIntent(range, filters),
    (id) => `/api/analytics/ai-intent?website_id=${id}&time_range=${encodeURIComponent(range)}${filtersQuery(filters)}`,
    { refetchInterval: AI_INTENT_REFETCH_MS },
  );
}
