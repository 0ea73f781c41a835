//! One hook per events endpoint; writes refresh the site's definitions and summary.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { keys } from "../api/keys";
import { eventsApi } from "../api/events";
import type { EventDefinitionInput, EventRange } from "../api/events";

export function useEventDefinitions(site: number) {
  return useQuery({ queryKey: keys.site(site).read("event-definitions"), queryFn: () => eventsApi.definitions(site) });
}

/** The summary of what `filters` (the URL's, as sent) admits over `range`. */
export function useEventSummary(site: number, range: EventRange, filters: string | null) {
  return useQuery({
    queryKey: keys.site(site).read("events/summary", { range, filters }),
    queryFn: () => eventsApi.summary(site, range, filters),
  });
}

/** The property keys of the events `filters` (as sent) admit over `period` (query text): what a property's
 * breakdown or filter can name. Off until `enabled`; the last list stays up while another loads. */
export function usePropertyKeys(site: number, period: string, filters: string | null, enabled = true) {
  return useQuery({
    queryKey: keys.site(site).read("events/property-keys", { period, filters }),
    queryFn: () => eventsApi.propertyKeys(site, period, filters),
    enabled,
    placeholderData: keepPreviousData,
  });
}

function useRefresh(site: number) {
  const client = useQueryClient();
  return () => {
    void client.invalidateQueries({ queryKey: keys.site(site).read("event-definitions") });
    void client.invalidateQueries({ queryKey: [...keys.site(site).all, "events/summary"] });
  };
}

export function useCreateEventDefinition(site: number) {
  const refresh = useRefresh(site);
  return useMutation({ mutationFn: (input: EventDefinitionInput) => eventsApi.create(site, input), onSuccess: refresh });
}

export function useUpdateEventDefinition(site: number) {
  const refresh = useRefresh(site);
  return useMutation({
    mutationFn: ({ id, changes }: { id: number; changes: Partial<EventDefinitionInput> }) => eventsApi.update(site, id, changes),
    onSuccess: refresh,
  });
}

export function useDeleteEventDefinition(site: number) {
  const refresh = useRefresh(site);
  return useMutation({ mutationFn: (id: number) => eventsApi.remove(site, id), onSuccess: refresh });
}
