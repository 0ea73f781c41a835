//! Website list and its writes; writes refresh the list and the per-site figures.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../api";
import type { Website, WebsiteInput } from "../api/types";
import { useUser } from "./auth";

export const websitesKey = ["websites"] as const;

export function useWebsites() {
  const user = useUser();
  return useQuery({
    queryKey: websitesKey,
    queryFn: () => api.get<Website[]>("/api/websites"),
    enabled: !!user.data,
  });
}

export function useCreateWebsite() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: WebsiteInput) => api.post<Website>("/api/websites", input),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: websitesKey });
      void client.invalidateQueries({ queryKey: ["sites-periods"] });
    },
  });
}

export function useUpdateWebsite() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...input }: WebsiteInput & { id: number }) => api.put<Website>(`/api/websites/${id}`, input),
    onSuccess: () => void client.invalidateQueries({ queryKey: websitesKey }),
  });
}

export function useDeleteWebsite() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.del(`/api/websites/${id}`),
    onSuccess: (_data, id) => {
      client.setQueryData<Website[]>(websitesKey, (old) => old?.filter((w) => w.id !== id));
      void client.invalidateQueries({ queryKey: websitesKey });
      void client.invalidateQueries({ queryKey: ["sites-periods"] });
    },
  });
}
