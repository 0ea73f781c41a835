//! The Advanced Analytics screen's reads: one hook per endpoint. AI intent refetches every 30 s (spec §9).
import type { AdvancedAnalytics, AdvancedRange, AiIntent } from "../api/advanced";
import { keys } from "../api/keys";
import { useSiteQuery } from "./analytics";

export const AI_INTENT_REFETCH_MS = 30_000;

export function useAdvancedAnalytics(websiteId: number | undefined, range: AdvancedRange) {
  return useSiteQuery<AdvancedAnalytics>(
    websiteId,
    (id) => keys.site(id).advanced(range),
    (id) => `/api/analytics/advanced?website_id=${id}&time_range=${range}`,
  );
}

export function useAiIntent(websiteId: number | undefined, range: string) {
  return useSiteQuery<AiIntent>(
    websiteId,
    (id) => keys.site(id).aiIntent(range),
    (id) => `/api/analytics/ai-intent?website_id=${id}&time_range=${encodeURIComponent(range)}`,
    { refetchInterval: AI_INTENT_REFETCH_MS },
  );
}
