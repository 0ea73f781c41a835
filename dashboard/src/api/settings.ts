//! The Settings screen's types and calls (/api/user/*, spec part 2 §7 and API.md): the types are aliases onto
//! the generated contract.
import { api } from ".";
import type { components } from "./generated";
import type { AuthResponse } from "./types";

type Schemas = components["schemas"];

export type Profile = Schemas["Profile"];
/** The notifications answer: the preferences and whether the server can send email at all (read only). */
export type Notifications = Schemas["Notifications"];
/** The notification preferences a user can change. */
export type NotificationToggles = Omit<Notifications, "emailConfigured">;
export type SecuritySettings = Schemas["Security"];
export type SignIn = Schemas["SignIn"];
/** GET /api/user/settings */
export type AccountSettings = Schemas["AccountSettings"];
export type TwoFactorSetup = Schemas["TwoFactorSetup"];

/** The account's email and whether it is verified, after a change or a confirmation. */
export type EmailAnswer = Schemas["EmailAnswer"];
export type EmailConfirmation = Schemas["EmailConfirmation"];

export type TwoFactorSetupRequest = Schemas["TwoFactorSetupRequest"];
export type TwoFactorEnableRequest = Schemas["TwoFactorEnableRequest"];
/** `code`: a code from the app or an unused recovery code (needed while two-factor is on). */
export type TwoFactorDisableRequest = Schemas["TwoFactorDisableRequest"];

/** An API key as listed (never its secret). */
export type ApiKey = Schemas["ApiKey"];
export type ApiKeyScope = Schemas["ApiKeyScope"];
/** A key just created: the one answer holding its secret. */
export type CreatedApiKey = Schemas["CreatedApiKey"];
export type ApiKeyRequest = Schemas["ApiKeyRequest"];

export const settingsApi = {
  get: () => api.get<AccountSettings>("/api/user/settings"),
  profile: (p: { name: string; company: string; timezone: string }) => api.put<Profile>("/api/user/profile", p),
  notifications: (n: NotificationToggles) => api.put<Notifications>("/api/user/notifications", n),
  security: (s: { sessionTimeout?: number; loginNotifications?: boolean }) => api.put<SecuritySettings>("/api/user/security", s),
  email: (b: { newEmail: string; currentPassword: string }) => api.put<EmailAnswer>("/api/user/email", b),
  /** Mails a new verification link to the account's unverified address. */
  resendEmailLink: () => api.post<{ ok: boolean }>("/api/user/email/verification"),
  /** Confirms the address a link was mailed to (no sign-in needed). */
  confirmEmail: (token: string) => api.post<EmailAnswer>("/api/user/email/verify", { token } satisfies EmailConfirmation),
  password: (b: { currentPassword: string; newPassword: string }) => api.put<AuthResponse>("/api/user/password", b),
  deleteAccount: (password: string) => api.request<void>("DELETE", "/api/user/account", { body: { password } }),
  /** The account's data as JSON text (downloaded by the page). */
  exportData: () => api.text("/api/user/export"),
  /** Setup, enable and disable all ask for the current password: a stolen token alone cannot change two-factor. */
  twoFactorSetup: (b: TwoFactorSetupRequest) => api.post<TwoFactorSetup>("/api/user/two-factor/setup", b),
  twoFactorEnable: (b: TwoFactorEnableRequest) => api.post<{ recoveryCodes: string[] }>("/api/user/two-factor/enable", b),
  twoFactorDisable: (b: TwoFactorDisableRequest) => api.post<{ ok: boolean }>("/api/user/two-factor/disable", b),
  apiKeys: () => api.get<ApiKey[]>("/api/user/api-keys"),
  createApiKey: (b: ApiKeyRequest) => api.post<CreatedApiKey>("/api/user/api-keys", b),
  revokeApiKey: (id: number) => api.request<{ ok: boolean }>("DELETE", `/api/user/api-keys/${id}`),
};
