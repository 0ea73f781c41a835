//! Pure helpers of the privacy panel: the compliance status (spec part 2 §4, thresholds §9) and the
//! validation of values typed into its inputs (§5), so a partial value is never sent.
import type { FullPrivacySettings } from "../api/privacy";

/** The six settings the compliance status counts (API.md, privacy panel). */
export const COMPLIANCE_SETTINGS = [
  "cookieConsent",
  "anonymizeIPs",
  "respectDoNotTrack",
  "dataSubjectRights",
  "dataPortability",
  "dataDeletion",
] as const satisfies readonly (keyof FullPrivacySettings)[];

export type ComplianceLevel = "excellent" | "good" | "fair" | "poor";

/** Share of the six settings turned on (percent, whole) and its level: 90 / 70 / 50. */
export function complianceStatus(settings: Pick<FullPrivacySettings, (typeof COMPLIANCE_SETTINGS)[number]>): {
  score: number;
  level: ComplianceLevel;
  enabled: number;
} {
  const enabled = COMPLIANCE_SETTINGS.filter((k) => settings[k]).length;
  const score = Math.round((enabled / COMPLIANCE_SETTINGS.length) * 100);
  const level: ComplianceLevel = score >= 90 ? "excellent" : score >= 70 ? "good" : score >= 50 ? "fair" : "poor";
  return { score, level, enabled };
}

/** A retention day count typed by the user: a whole number 1 to 365, else null (not sent). */
export function parseDays(text: string): number | null {
  if (!/^\d{1,3}$/.test(text.trim())) return null;
  const n = Number(text.trim());
  return n >= 1 && n <= 365 ? n : null;
}

/** A privacy policy URL typed by the user: empty, or an http(s) URL; else null (not sent). */
export function parsePolicyUrl(text: string): string | null {
  const t = text.trim();
  if (t === "") return "";
  try {
    const u = new URL(t);
    return u.protocol === "http:" || u.protocol === "https:" ? t : null;
  } catch {
    return null;
  }
}
