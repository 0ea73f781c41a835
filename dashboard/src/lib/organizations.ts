//! Pure shaping for the Organizations screen: sort orders, the cards and insights, confidence colours,
//! the Visit link, and the edit form's domain check.
import type { Organization } from "../api/organizations";

export type OrganizationSort = "sessions" | "recent" | "name" | "confidence";
/** Confidence at or above which an organization counts as high-confidence (spec §9). */
export const HIGH_CONFIDENCE = 80;

export function sortOrganizations(list: readonly Organization[], sort: OrganizationSort): Organization[] {
  const out = [...list];
  switch (sort) {
    case "sessions":
      return out.sort((a, b) => b.sessionCount - a.sessionCount || a.organizationName.localeCompare(b.organizationName));
    case "recent":
      return out.sort((a, b) => Date.parse(b.lastSeen) - Date.parse(a.lastSeen));
    case "name":
      return out.sort((a, b) => a.organizationName.localeCompare(b.organizationName, undefined, { sensitivity: "base" }));
    case "confidence":
      return out.sort((a, b) => b.confidence - a.confidence || b.sessionCount - a.sessionCount);
  }
}

export interface OrganizationStats {
  total: number;
  /** Sessions of organizations the owner marked enterprise. */
  enterpriseVisitors: number;
  /** Sum of every organization's sessions. */
  b2bSessions: number;
  /** Mean confidence, rounded. */
  averageConfidence: number;
  /** Share of organizations marked enterprise, percent with one decimal. */
  enterpriseShare: number;
  highConfidence: number;
  industries: number;
}

export function organizationStats(list: readonly Organization[]): OrganizationStats {
  const enterprise = list.filter((o) => o.size === "enterprise");
  const total = list.length;
  return {
    total,
    enterpriseVisitors: enterprise.reduce((n, o) => n + o.sessionCount, 0),
    b2bSessions: list.reduce((n, o) => n + o.sessionCount, 0),
    averageConfidence: total ? Math.round(list.reduce((n, o) => n + o.confidence, 0) / total) : 0,
    enterpriseShare: total ? Math.round((enterprise.length / total) * 1000) / 10 : 0,
    highConfidence: list.filter((o) => o.confidence >= HIGH_CONFIDENCE).length,
    industries: new Set(list.map((o) => o.industry?.trim().toLowerCase()).filter(Boolean)).size,
  };
}

/** Green at 90 or more, yellow from 75, red below (spec §4). */
export function confidenceTone(confidence: number): "green" | "yellow" | "red" {
  return confidence >= 90 ? "green" : confidence >= 75 ? "yellow" : "red";
}

/** Size badge text: the owner's size, or 'other' when unknown. */
export function sizeLabel(size?: string | null): string {
  return size || "other";
}

/** A bare host name as the server stores it, or null. Mirrors the server's check (an https:// prefix is taken off). */
export function normaliseDomain(raw: string): string | null {
  const lower = raw.trim().toLowerCase().replace(/^https?:\/\//, "").replace(/\/$/, "");
  if (lower === "") return "";
  if (lower.length > 253 || !lower.includes(".")) return null;
  const ok = lower.split(".").every((l) => l.length > 0 && l.length <= 63 && /^[a-z0-9-]+$/.test(l) && !l.startsWith("-") && !l.endsWith("-"));
  return ok ? lower : null;
}

/** The https URL the Visit button opens, only for a valid host name. */
export function visitUrl(domain?: string | null): string | null {
  if (!domain) return null;
  const host = normaliseDomain(domain);
  return host ? `https://${host}/` : null;
}
