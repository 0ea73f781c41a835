//! A site's privacy settings (GET/PUT /api/privacy/settings): read and changed from the website edit dialog.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../api";
import type { PrivacySettings } from "../api/types";

const privacyKey = (id: number) => ["privacy-settings", id] as const;

export function usePrivacySettings(id: number | undefined) {
  return useQuery({
    queryKey: privacyKey(id ?? 0),
    queryFn: () => api.get<PrivacySettings>(`/api/privacy/settings?website_id=${id}`),
    enabled: id !== undefined,
  });
}

export function useUpdatePrivacySettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ websiteId, ...changes }: Partial<PrivacySettings> & { websiteId: number }) =>
      api.put<PrivacySettings>("/api/privacy/settings", { websiteId, ...changes }),
    onSuccess: (settings, { websiteId }) => client.setQueryData(privacyKey(websiteId), settings),
  });
}
