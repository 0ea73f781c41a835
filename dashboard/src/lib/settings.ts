//! Settings screen rules (spec part 2 §5, §9): dialog validations with their toast texts, the session
//! timeout input, the timezone list.

export const MIN_PASSWORD_LENGTH = 6;
export const SESSION_TIMEOUT_MIN = 5;
export const SESSION_TIMEOUT_MAX = 480;
export const SESSION_TIMEOUT_DEFAULT = 30;

export interface Problem {
  title: string;
  description: string;
}

/** Change password: the two new entries must match, then be at least 6 characters. */
export function passwordProblem(newPassword: string, confirm: string): Problem | null {
  if (newPassword !== confirm) return { title: "Passwords don't match", description: "Please make sure your new passwords match." };
  if (newPassword.length < MIN_PASSWORD_LENGTH) return { title: "Password too short", description: "Password must be at least 6 characters long." };
  return null;
}

/** Update email: the new address must contain '@'. */
export function emailProblem(email: string): Problem | null {
  return email.includes("@") ? null : { title: "Invalid email", description: "Please enter a valid email address." };
}

/** Delete account: a password is required. */
export function deletionProblem(password: string): Problem | null {
  return password ? null : { title: "Password Required", description: "Please enter your password to confirm account deletion." };
}

/** The session timeout input: a number, falling back to 30 when it is not one (the server checks 5-480). */
export function parseSessionTimeout(value: string): number {
  const n = Number.parseInt(value, 10);
  return Number.isNaN(n) ? SESSION_TIMEOUT_DEFAULT : n;
}

export function sessionTimeoutInRange(minutes: number): boolean {
  return minutes >= SESSION_TIMEOUT_MIN && minutes <= SESSION_TIMEOUT_MAX;
}

/** IANA zone names the browser knows, UTC first (the server checks them against its own tz database). */
export function timezones(): string[] {
  const intl = Intl as unknown as { supportedValuesOf?: (key: string) => string[] };
  const zones = intl.supportedValuesOf ? intl.supportedValuesOf("timeZone") : [];
  return ["UTC", ...zones.filter((z) => z !== "UTC")];
}

/** The file name of the account export download. */
export function exportFileName(now: Date = new Date()): string {
  return `account-export-${now.toISOString().slice(0, 10)}.json`;
}

/** The token of a verification link's `#token=...` (the part browsers never send to a server), or null. */
export function tokenFromHash(hash: string): string | null {
  const token = new URLSearchParams(hash.replace(/^#/, "")).get("token")?.trim();
  return token ? token : null;
}
