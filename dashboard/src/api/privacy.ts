//! Types of the privacy panel's calls (GET/PUT /api/privacy/settings and /retention, consent-logs,
//! audit-logs, export-data, visitor-data, delete-data, delete-visitor): spec part 2 §3 plus API.md. Read
//! answers are aliases onto the generated contract; the settings form and parameter values are written here.

import type { components } from "./generated";

type Schemas = components["schemas"];

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

export type RetentionDays = Schemas["Retention"];
export type ConsentLogEntry = Schemas["ConsentLog"];
export type AuditEntry = Schemas["AuditEntry"];
export type AuditPage = Schemas["AuditPage"];

export type ExportDataType = "pageviews" | "events" | "sessions";
export type DeleteDataType = "pageviews" | "events" | "all";

export interface DeleteResult {
  recordsDeleted: number;
}
