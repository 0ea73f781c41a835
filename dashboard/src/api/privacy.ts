//! Types of the privacy panel's calls (GET/PUT /api/privacy/settings and /retention, consent-logs,
//! audit-logs, export-data, visitor-data, delete-data, delete-visitor): spec part 2 §3 plus API.md.

export type ProcessingBasis = "consent" | "legitimate_interest" | "contract";

export interface FullPrivacySettings {
  gdprCompliant: boolean;
  cookieConsent: boolean;
  anonymizeIPs: boolean;
  respectDoNotTrack: boolean;
  dataSubjectRights: boolean;
  dataPortability: boolean;
  dataDeletion: boolean;
  dataRetentionDays: number;
  dataProcessingBasis: ProcessingBasis;
  consentMessage: string;
  privacyPolicyUrl: string;
}

export interface RetentionDays {
  pageviews: number;
  events: number;
  sessions: number;
  heatmaps: number;
  recordings: number;
  conversions: number;
}

export interface ConsentLogEntry {
  id: number;
  consentType: "accepted" | "declined" | "partial" | string;
  timestamp: string;
  ipAddress: string | null;
  sessionId: string;
  consentData: { analytics: boolean; marketing: boolean };
}

export interface AuditEntry {
  id: number;
  timestamp: string;
  actor: string;
  action: string;
  detail: Record<string, unknown> | null;
}

export interface AuditPage {
  entries: AuditEntry[];
  total: number;
}

export type ExportDataType = "pageviews" | "events" | "sessions";
export type DeleteDataType = "pageviews" | "events" | "all";

export interface DeleteResult {
  recordsDeleted: number;
}
