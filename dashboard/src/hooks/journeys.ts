//! Customer journeys of one site for a period and filter, and the site's most common paths.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { api } from "../api";
import type { CustomerJourneys, JourneyFilter, JourneyPaths, JourneyPeriod } from "../api/funnels";
import { keys } from "../api/keys";
import { useUser } from "./auth";

export function useCustomerJourneys(site: number, period: JourneyPeriod, filter: JourneyFilter) {
  const user = useUser();
  return useQuery({
    queryKey: keys.journeys.list(site, period, filter),
    queryFn: () =>
      api.get<CustomerJourneys>(`/api/analytics/customer-journeys?period=${period}&filter=${filter}&website_id=${site}`),
    enabled: !!user.data,
    placeholderData: keepPreviousData,
  });
}

export function useJourneyPaths(site: number, period: JourneyPeriod) {
  const user = useUser();
  return useQuery({
    queryKey: keys.journeys.paths(site, period),
    queryFn: () => api.get<JourneyPaths>(`/api/analytics/journeys?period=${period}&website_id=${site}`),
    enabled: !!user.data,
  });
}
