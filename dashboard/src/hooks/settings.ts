//! Settings screen hooks: the settings read (GET /api/user/settings), the API keys read, and one mutation per
//! write; writes put the server's answer into the cached settings (or read the key list again).
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../api";
import { keys } from "../api/keys";
import { settingsApi } from "../api/settings";
import type { AccountSettings } from "../api/settings";
import { useUser, userKey } from "./auth";

export function useAccountSettings() {
  const user = useUser();
  return useQuery({ queryKey: keys.accountSettings, queryFn: settingsApi.get, enabled: !!user.data });
}

function usePatchSettings() {
  const client = useQueryClient();
  return (patch: (s: AccountSettings) => AccountSettings) =>
    client.setQueryData<AccountSettings>(keys.accountSettings, (old) => (old ? patch(old) : old));
}

export function useUpdateProfile() {
  const patch = usePatchSettings();
  return useMutation({ mutationFn: settingsApi.profile, onSuccess: (profile) => patch((s) => ({ ...s, profile })) });
}

export function useUpdateNotifications() {
  const patch = usePatchSettings();
  return useMutation({ mutationFn: settingsApi.notifications, onSuccess: (notifications) => patch((s) => ({ ...s, notifications })) });
}

export function useUpdateSecurity() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: settingsApi.security,
    // Turning login notifications off also forgets the recorded sign-ins: read everything again.
    onSuccess: () => void client.invalidateQueries({ queryKey: keys.accountSettings }),
  });
}

export function useUpdateEmail() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: settingsApi.email,
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: keys.accountSettings });
      void client.invalidateQueries({ queryKey: userKey });
    },
  });
}

/** Mails a new verification link; the settings are unchanged until the link is followed. */
export function useResendEmailLink() {
  return useMutation({ mutationFn: settingsApi.resendEmailLink });
}

/** Changing the password ends every sign-in; the answer carries this browser's new token pair. */
export function useChangePassword() {
  return useMutation({
    mutationFn: settingsApi.password,
    onSuccess: (session) => api.setTokens(session.accessToken, session.refreshToken),
  });
}

export function useDeleteAccount() {
  return useMutation({ mutationFn: settingsApi.deleteAccount });
}

export function useExportAccount() {
  return useMutation({ mutationFn: settingsApi.exportData });
}

export function useTwoFactorSetup() {
  return useMutation({ mutationFn: settingsApi.twoFactorSetup });
}

export function useTwoFactorEnable() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: settingsApi.twoFactorEnable,
    onSuccess: () => void client.invalidateQueries({ queryKey: keys.accountSettings }),
  });
}

export function useTwoFactorDisable() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: settingsApi.twoFactorDisable,
    onSuccess: () => void client.invalidateQueries({ queryKey: keys.accountSettings }),
  });
}

/** The account's API keys, newest first. */
export function useApiKeys() {
  const user = useUser();
  return useQuery({ queryKey: keys.apiKeys, queryFn: settingsApi.apiKeys, enabled: !!user.data });
}

/** Creates a key; its secret is in this mutation's answer only, never in the cached list. */
export function useCreateApiKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: settingsApi.createApiKey,
    onSuccess: () => void client.invalidateQueries({ queryKey: keys.apiKeys }),
  });
}

export function useRevokeApiKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: settingsApi.revokeApiKey,
    onSuccess: () => void client.invalidateQueries({ queryKey: keys.apiKeys }),
  });
}
