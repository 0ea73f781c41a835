//! Customer journeys of one site for a period and filter, and the site's most common paths.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { api } from "../api";
import type { CustomerJourneys, JourneyFilter, JourneyPaths, JourneyPeriod } from "../api/funnels";
import { keys } from "../api/keys";
import { filtersQuery } from "../lib/filters";
import { useUser } from "./auth";

/** `filters`: the URL's filters as sent (null for none); the journeys of the visits they admit. */
export function useCustomerJourneys(site: number, period: JourneyPeriod, filter: JourneyFilter, filters: string | null = null) {
  const user = useUser();
  return useQuery({
    queryKey: keys.journeys.list(site, period, filter, filters),
    queryFn: () =>
      api.get<CustomerJourneys>(
        `/api/analytics/customer-journeys?period=${period}&filter=${filter}&website_id=${site}${filtersQuery(filters)}`,
      ),
    enabled: !!user.data,
    placeholderData: keepPreviousData,
  });
}

export function useJourneyPaths(site: number, period: JourneyPeriod, filters: string | null = null) {
  const user = useUser();
  return useQuery({
    queryKey: keys.journeys.paths(site, period, filters),
    queryFn: () => api.get<JourneyPaths>(`/api/analytics/journeys?period=${period}&website_id=${site}${filtersQuery(filters)}`),
    enabled: !!user.data,
  });
}
