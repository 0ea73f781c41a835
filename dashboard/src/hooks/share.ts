//! A site's share links (issue 37) for its owner: the list, creation and deletion; writes refresh the list.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../api";
import { keys } from "../api/keys";
import type { NewSharedLink, SharedLink } from "../api/share";

const linksKey = (site: number) => keys.site(site).read("shared-links");

export function useSharedLinks(site: number | undefined, enabled = true) {
  return useQuery({
    queryKey: linksKey(site ?? -1),
    queryFn: () => api.get<SharedLink[]>(`/api/websites/${site}/shared-links`),
    enabled: enabled && site !== undefined,
  });
}

export function useCreateSharedLink(site: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: NewSharedLink) => api.post<SharedLink>(`/api/websites/${site}/shared-links`, input),
    onSuccess: () => void client.invalidateQueries({ queryKey: linksKey(site) }),
  });
}

export function useDeleteSharedLink(site: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.del(`/api/websites/${site}/shared-links/${id}`),
    onSuccess: () => void client.invalidateQueries({ queryKey: linksKey(site) }),
  });
}
