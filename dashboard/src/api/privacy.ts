//! Types of the privacy panel's calls (GET/PUT /api/privacy/settings and /retention, consent-logs,
//! audit-logs, export-data, visitor-data, delete-data, delete-visitor): spec part 2 §3 plus API.md. The
//! answers are aliases onto the generated contract; only parameter values are written here.

import type { components } from "./generated";

type Schemas = components["schemas"];

export type ProcessingBasis = "consent" | "legitimate_interest" | "contract";

export type FullPrivacySettings = Schemas["PrivacySettings"];

export type RetentionDays = Schemas["Retention"];
export type ConsentLogEntry = Schemas["ConsentLog"];
export type AuditEntry = Schemas["AuditEntry"];
export type AuditPage = Schemas["AuditPage"];

export type ExportDataType = "pageviews" | "events" | "sessions";
export type DeleteDataType = "pageviews" | "events" | "all";

export type DeleteResult = Schemas["DeleteDataResponse"];
