//! Website list and its writes; writes refresh the list and the per-site figures, a deletion drops the
//! site's cached reads.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../api";
import { keys } from "../api/keys";
import type { Website, WebsiteInput, WebsiteUpdate } from "../api/types";
import { useUser } from "./auth";

/** The signed-in account's role on a site, from the website list (undefined while it loads). */
export function useSiteRole(site: number) {
  return useWebsites().data?.find((w) => w.id === site)?.role;
}

export function useWebsites() {
  const user = useUser();
  return useQuery({
    queryKey: keys.websites,
    queryFn: () => api.get<Website[]>("/api/websites"),
    enabled: !!user.data,
  });
}

export function useCreateWebsite() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: WebsiteInput) => api.post<Website>("/api/websites", input),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: keys.websites });
      void client.invalidateQueries({ queryKey: keys.sitesPeriods.all });
    },
  });
}

export function useUpdateWebsite() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...input }: WebsiteUpdate & { id: number }) => api.put<Website>(`/api/websites/${id}`, input),
    onSuccess: () => void client.invalidateQueries({ queryKey: keys.websites }),
  });
}

export function useDeleteWebsite() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.del(`/api/websites/${id}`),
    onSuccess: (_data, id) => {
      client.setQueryData<Website[]>(keys.websites, (old) => old?.filter((w) => w.id !== id));
      client.removeQueries({ queryKey: keys.site(id).all });
      void client.invalidateQueries({ queryKey: keys.websites });
      void client.invalidateQueries({ queryKey: keys.sitesPeriods.all });
    },
  });
}
