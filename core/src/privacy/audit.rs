//! The privacy audit log: who changed a site's privacy settings or retention, deleted or exported its data,
//! or answered a visitor's access or erasure request, and when. Written by the daemon's privacy routes and
//! the CLI, read by the privacy panel's Audit Logs tab.

use serde::Serialize;
use serde_json::Value;

use super::Privacy;
use crate::error::Result;
use crate::model::{Millis, UserId, WebsiteId, now_ms, ser_iso};

/// Most audit entries one call returns.
pub const AUDIT_PAGE_LIMIT: i64 = 100;

/// Who took a privacy action.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Actor {
    /// A signed-in account (through the API).
    User(UserId),
    /// The operator's command line.
    Cli,
}

/// What was done (the stored and served names).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AuditAction {
    SettingsChanged,
    RetentionChanged,
    DataDeleted,
    DataExported,
    VisitorExported,
    VisitorDeleted,
}

impl AuditAction {
    /// The stored name.
    pub fn as_str(self) -> &'static str {
        match self {
            AuditAction::SettingsChanged => "settings_changed",
            AuditAction::RetentionChanged => "retention_changed",
            AuditAction::DataDeleted => "data_deleted",
            AuditAction::DataExported => "data_exported",
            AuditAction::VisitorExported => "visitor_exported",
            AuditAction::VisitorDeleted => "visitor_deleted",
        }
    }
}

/// `GET /api/privacy/audit-logs` item.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AuditEntry {
    pub id: i64,
    #[schema(value_type = String, format = DateTime)]
    #[serde(serialize_with = "ser_iso")]
    pub timestamp: Millis,
    /// The account's email at the time, or `cli`.
    pub actor: String,
    pub action: String,
    pub detail: Value,
}

/// One page of a site's audit log, newest first, and how many entries there are in all.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AuditPage {
    pub entries: Vec<AuditEntry>,
    pub total: i64,
}

impl Privacy {
    /// Records a privacy action on a site (callers check ownership first).
    pub fn record_audit(&self, site: WebsiteId, actor: Actor, action: AuditAction, detail: Value) -> Result<()> {
        let user = match actor {
            Actor::User(id) => Some(id),
            Actor::Cli => None,
        };
        self.meta.insert_audit(site, now_ms(), user, action.as_str(), &detail)
    }

    /// A page of a site's audit log, newest first (`limit` is clamped to 1..=100).
    pub fn audit_logs(&self, site: WebsiteId, offset: i64, limit: i64) -> Result<AuditPage> {
        let limit = limit.clamp(1, AUDIT_PAGE_LIMIT);
        let offset = offset.max(0);
        self.meta.audit_page(site, offset, limit)
    }
}
