//! The Settings screen's types and calls (/api/user/*, spec part 2 §7 and API.md).
import { api } from ".";
import type { components } from "./generated";
import type { AuthResponse } from "./types";

export interface Profile {
  name: string;
  email: string;
  /** Whether reports and alerts may go to the address: its owner followed the link mailed to it. Read only. */
  emailVerified: boolean;
  company: string;
  timezone: string;
}

/** The notification preferences a user can change. */
export interface NotificationToggles {
  emailAlerts: boolean;
  weeklyReports: boolean;
  realTimeAlerts: boolean;
  marketingEmails: boolean;
}

export interface Notifications extends NotificationToggles {
  /** Whether the server can send email at all (the operator set smtp_url); read only. */
  emailConfigured: boolean;
}

export interface SecuritySettings {
  twoFactorEnabled: boolean;
  /** minutes */
  sessionTimeout: number;
  loginNotifications: boolean;
}

export interface SignIn {
  at: string;
  ipAddress: string;
  browser: string;
}

/** GET /api/user/settings */
export interface AccountSettings {
  profile: Profile;
  notifications: Notifications;
  security: SecuritySettings;
  recentSignIns: SignIn[];
}

export interface TwoFactorSetup {
  secret: string;
  otpauthUrl: string;
  qrSvg: string;
}

/** The account's email and whether it is verified, after a change or a confirmation. */
export type EmailAnswer = components["schemas"]["EmailAnswer"];
export type EmailConfirmation = components["schemas"]["EmailConfirmation"];

export type TwoFactorSetupRequest = components["schemas"]["TwoFactorSetupRequest"];
export type TwoFactorEnableRequest = components["schemas"]["TwoFactorEnableRequest"];
/** `code`: a code from the app or an unused recovery code (needed while two-factor is on). */
export type TwoFactorDisableRequest = components["schemas"]["TwoFactorDisableRequest"];

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
};
