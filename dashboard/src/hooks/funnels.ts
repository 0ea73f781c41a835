//! Funnel list (all of the user's sites, figures for a range) and its writes; every write refreshes the list.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../api";
import { type Funnel, type FunnelDropOffs, type FunnelInput, type FunnelStatus, dropOffsPath } from "../api/funnels";
import { keys } from "../api/keys";
import { filtersQuery } from "../lib/filters";
import { useUser } from "./auth";

/** The funnels with their figures over `range`, of the visits `filters` (the URL's, as sent) admit. */
export function useFunnels(range: string, filters: string | null = null) {
  const user = useUser();
  return useQuery({
    queryKey: keys.funnels.list(range, filters),
    queryFn: () => api.get<Funnel[]>(`/api/funnels?range=${encodeURIComponent(range)}${filtersQuery(filters)}`),
    enabled: !!user.data,
  });
}

/** The visits that dropped off at each step, read when the drop-off list is opened. */
export function useFunnelDropOffs(id: number, range: string, enabled: boolean, filters: string | null = null) {
  const user = useUser();
  return useQuery({
    queryKey: keys.funnels.dropOffs(id, range, filters),
    queryFn: () => api.get<FunnelDropOffs>(dropOffsPath(id, range, filters)),
    enabled: !!user.data && enabled,
  });
}

function useFunnelWrite<T, R>(write: (input: T) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: write,
    onSuccess: () => void client.invalidateQueries({ queryKey: keys.funnels.all }),
  });
}

export function useCreateFunnel() {
  return useFunnelWrite((input: FunnelInput) => api.post<Funnel>("/api/funnels", input));
}

/** An edit of the steps or site answers before its figures are counted (figuresPending): the cached lists
 *  show the new definition as counting until their refetch brings the figures. */
export function useUpdateFunnel() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...input }: Partial<FunnelInput> & { id: number; status?: FunnelStatus }) =>
      api.put<Funnel>(`/api/funnels/${id}`, input),
    onSuccess: (next) => {
      if (next.figuresPending) {
        client.setQueriesData<Funnel[]>({ queryKey: keys.funnels.all }, (list) =>
          Array.isArray(list) ? list.map((f) => (f.id === next.id ? next : f)) : list,
        );
      }
      void client.invalidateQueries({ queryKey: keys.funnels.all });
    },
  });
}

export function useDeleteFunnel() {
  return useFunnelWrite((id: number) => api.del(`/api/funnels/${id}`));
}
