//! One query hook per call of the privacy panel (spec part 2 §7 and API.md): settings, retention, consent
//! logs (a page of 10), audit logs (a page of 10), and the mutations that change or export data.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../api";
import { keys } from "../api/keys";
import type {
  AuditPage,
  ConsentLogEntry,
  DeleteDataType,
  DeleteResult,
  ExportDataType,
  FullPrivacySettings,
  RetentionDays,
} from "../api/privacy";

export const PAGE_SIZE = 10;

const q = (id: number) => `website_id=${encodeURIComponent(id)}`;

export function usePanelPrivacySettings(id: number) {
  return useQuery({
    queryKey: keys.site(id).read("privacy-settings"),
    queryFn: () => api.get<FullPrivacySettings>(`/api/privacy/settings?${q(id)}`),
  });
}

export function useRetention(id: number) {
  return useQuery({
    queryKey: keys.site(id).read("privacy-retention"),
    queryFn: () => api.get<RetentionDays>(`/api/privacy/retention?${q(id)}`),
  });
}

/** A page of the consent log; one row more than shown tells whether a next page exists. */
export function useConsentLogs(id: number, page: number) {
  return useQuery({
    queryKey: keys.site(id).read("consent-logs", { page }),
    queryFn: () => api.get<ConsentLogEntry[]>(`/api/privacy/consent-logs?${q(id)}&offset=${page * PAGE_SIZE}&limit=${PAGE_SIZE + 1}`),
    placeholderData: keepPreviousData,
  });
}

export function useAuditLogs(id: number, page: number) {
  return useQuery({
    queryKey: keys.site(id).read("privacy-audit", { page }),
    queryFn: () => api.get<AuditPage>(`/api/privacy/audit-logs?${q(id)}&offset=${page * PAGE_SIZE}&limit=${PAGE_SIZE}`),
    placeholderData: keepPreviousData,
  });
}

/** PUT /api/privacy/settings with the changed field(s); settings (and the audit log) are refetched after. */
export function useSavePrivacySettings(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (changes: Partial<FullPrivacySettings>) => api.put<FullPrivacySettings>("/api/privacy/settings", { websiteId: id, ...changes }),
    onSettled: () => {
      void client.invalidateQueries({ queryKey: keys.site(id).read("privacy-settings") });
      void client.invalidateQueries({ queryKey: [...keys.site(id).all, "privacy-audit"] });
    },
  });
}

export function useSaveRetention(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (changes: Partial<RetentionDays>) => api.put<RetentionDays>("/api/privacy/retention", { websiteId: id, ...changes }),
    onSettled: () => {
      void client.invalidateQueries({ queryKey: keys.site(id).read("privacy-retention") });
      void client.invalidateQueries({ queryKey: [...keys.site(id).all, "privacy-audit"] });
    },
  });
}

/** Everything about the site may have changed after a deletion: every read of it is refetched. */
export function useDeleteData(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (dataType: DeleteDataType) => api.post<DeleteResult>("/api/privacy/delete-data", { websiteId: id, dataType }),
    onSettled: () => void client.invalidateQueries({ queryKey: keys.site(id).all }),
  });
}

export function useDeleteVisitor(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (visitorId: string) => api.post<DeleteResult>("/api/privacy/delete-visitor", { websiteId: id, visitorId }),
    onSettled: () => void client.invalidateQueries({ queryKey: keys.site(id).all }),
  });
}

/** Saves text as a file through a temporary object URL. */
export function saveFile(text: string, name: string, type = "application/json") {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** GET /api/privacy/export-data, saved as `{type}-export-{date}.json` (spec §7). */
export function useExportData(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (dataType: ExportDataType) => {
      const text = await api.text(`/api/privacy/export-data?${q(id)}&data_type=${dataType}`);
      saveFile(text, `${dataType}-export-${new Date().toISOString().slice(0, 10)}.json`);
      return dataType;
    },
    onSettled: () => void client.invalidateQueries({ queryKey: [...keys.site(id).all, "privacy-audit"] }),
  });
}

/** GET /api/privacy/visitor-data: one visitor's data (GDPR art. 15), saved as `visitor-{id}.json`. */
export function useExportVisitor(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (visitorId: string) => {
      const text = await api.text(`/api/privacy/visitor-data?${q(id)}&visitor_id=${encodeURIComponent(visitorId)}`);
      saveFile(text, `visitor-${visitorId.replace(/[^A-Za-z0-9-]/g, "_").slice(0, 40)}.json`);
      return visitorId;
    },
    onSettled: () => void client.invalidateQueries({ queryKey: [...keys.site(id).all, "privacy-audit"] }),
  });
}

/** The server's `{"error":{"message"}}` text of a failed call, else the error's own message. */
export function errorMessage(error: unknown): string {
  if (error && typeof error === "object" && "body" in error && typeof (error as { body: unknown }).body === "string") {
    try {
      const parsed = JSON.parse((error as { body: string }).body) as { error?: { message?: string } };
      if (parsed.error?.message) return parsed.error.message;
    } catch {
      // not JSON: fall through
    }
  }
  return error instanceof Error ? error.message : String(error);
}
