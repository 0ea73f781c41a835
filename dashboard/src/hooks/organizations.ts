//! One hook per organizations endpoint; an edit refreshes the list.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { keys } from "../api/keys";
import { organizationsApi } from "../api/organizations";
import type { OrganizationUpdate } from "../api/organizations";

export function useOrganizations(site: number) {
  return useQuery({ queryKey: keys.site(site).read("organizations"), queryFn: () => organizationsApi.list(site) });
}

export function useUpdateOrganization(site: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, changes }: { id: number; changes: OrganizationUpdate }) => organizationsApi.update(site, id, changes),
    onSuccess: () => void client.invalidateQueries({ queryKey: keys.site(site).read("organizations") }),
  });
}
