//! Session hooks: the current user (/api/user, null on 401), login, register and logout.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../api";
import { keys } from "../api/keys";
import type { AuthResponse, Credentials, User } from "../api/types";

export const userKey = keys.user;

export function useUser() {
  return useQuery({
    queryKey: userKey,
    queryFn: async (): Promise<User | null> => {
      if (!api.accessToken() && !localStorage.getItem("refreshToken")) return null;
      return (await api.get<User | null>("/api/user", { nullOn401: true })) ?? null;
    },
  });
}

function useAuthMutation(path: "/api/login" | "/api/register") {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (credentials: Credentials) => api.post<AuthResponse>(path, credentials),
    onSuccess: (data) => {
      api.setTokens(data.accessToken, data.refreshToken);
      client.setQueryData(userKey, data.user);
    },
  });
}

export const useLogin = () => useAuthMutation("/api/login");
export const useRegister = () => useAuthMutation("/api/register");

/** Logout: drops both tokens and every cached query; no server call. */
export function useLogout() {
  const client = useQueryClient();
  return () => {
    api.clearTokens();
    client.clear();
    client.setQueryData(userKey, null);
  };
}
