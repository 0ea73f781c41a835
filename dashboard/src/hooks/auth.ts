//! Session hooks: the current user (/api/user, null on 401), login, register and logout.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../api";
import { keys } from "../api/keys";
import type { AuthResponse, Credentials, Registration, User } from "../api/types";

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

/** POST /api/login's answer when the password is right and the account asks for a second factor. */
export interface CodeRequired {
  twoFactorRequired: true;
}

function useAuthMutation(path: "/api/login" | "/api/register") {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (credentials: Credentials & { code?: string }) => api.post<AuthResponse | CodeRequired>(path, credentials),
    onSuccess: (data) => {
      if ("twoFactorRequired" in data) return;
      api.setTokens(data.accessToken, data.refreshToken);
      client.setQueryData(userKey, data.user);
    },
  });
}

export const useLogin = () => useAuthMutation("/api/login");
export const useRegister = () => useAuthMutation("/api/register");

/** Logout: ends the sign-in on the server, drops both tokens and every cached query. */
export function useLogout() {
  const client = useQueryClient();
  return () => {
    void api.logout();
    client.clear();
    client.setQueryData(userKey, null);
  };
}

/** Whether the Sign Up tab can create an account on this server (GET /api/registration). */
export function useRegistration() {
  return useQuery({
    queryKey: keys.registration,
    queryFn: () => api.get<Registration>("/api/registration"),
    staleTime: 60_000,
  });
}
