//! The rows of the account export (`Account::export`) that are written out as SQLite's tables hold them: a
//! user's sites' privacy settings and funnels, keyed by SQLite's column names, flags as 0/1, JSON-looking text
//! as JSON. SQLite reads its tables' rows whatever their columns; PostgreSQL names SQLite's columns and turns
//! its booleans into SQLite's integers, so the file is the same on either engine.

use rusqlite::Connection;
use serde_json::{Map, Value};

use super::{PgMeta, SqliteMeta};
use crate::error::Result;
use crate::model::UserId;

/// The account export's table rows: each method is one statement.
pub trait AccountExportStore {
    /// The privacy settings rows of the user's sites (sites without a stored row have none), by site id.
    fn exported_privacy_settings(&self, user: UserId) -> Result<Vec<Value>>;
    /// The funnels of the user's sites (without their steps), by id.
    fn exported_funnels(&self, user: UserId) -> Result<Vec<Value>>;
}

impl AccountExportStore for SqliteMeta {
    fn exported_privacy_settings(&self, user: UserId) -> Result<Vec<Value>> {
        self.db.read(|conn| {
            rows_as_json(
                conn,
                "SELECT p.* FROM privacy_settings p JOIN websites w ON w.id = p.website_id
                 WHERE w.user_id = ?1 ORDER BY p.website_id",
                user,
            )
        })
    }

    fn exported_funnels(&self, user: UserId) -> Result<Vec<Value>> {
        self.db.read(|conn| {
            rows_as_json(
                conn,
                "SELECT f.* FROM funnels f JOIN websites w ON w.id = f.website_id WHERE w.user_id = ?1 ORDER BY f.id",
                user,
            )
        })
    }
}

/// SQLite's privacy settings columns that hold a flag (0 or 1; `recording_mask_all_text` may be NULL).
const PRIVACY_FLAGS: [&str; 9] = [
    "gdpr_compliant",
    "cookie_consent",
    "anonymize_ips",
    "respect_do_not_track",
    "data_subject_rights",
    "data_portability",
    "data_deletion",
    "recording_mask_all_text",
    "replay_remote_assets",
];

/// SQLite's privacy settings columns that hold a number.
const PRIVACY_NUMBERS: [&str; 9] = [
    "website_id",
    "data_retention_days",
    "retention_pageviews",
    "retention_events",
    "retention_sessions",
    "retention_heatmaps",
    "retention_recordings",
    "retention_conversions",
    "updated_at",
];

/// SQLite's privacy settings columns that hold text.
const PRIVACY_TEXTS: [&str; 3] = ["data_processing_basis", "consent_message", "privacy_policy_url"];

impl AccountExportStore for PgMeta {
    fn exported_privacy_settings(&self, user: UserId) -> Result<Vec<Value>> {
        // Column names are the fixed lists above, never input.
        let columns = [&PRIVACY_FLAGS[..], &PRIVACY_NUMBERS[..], &PRIVACY_TEXTS[..]].concat();
        let sql = format!(
            "SELECT {} FROM privacy_settings p JOIN websites w ON w.id = p.website_id
             WHERE w.user_id = $1 ORDER BY p.website_id",
            columns.iter().map(|c| format!("p.{c}")).collect::<Vec<_>>().join(", ")
        );
        self.pg.with(|c| {
            Ok(c.query(&sql, &[&user])?
                .iter()
                .map(|r| {
                    let mut row = Map::new();
                    for (i, name) in columns.iter().enumerate() {
                        let value = if i < PRIVACY_FLAGS.len() {
                            r.get::<_, Option<bool>>(i).map_or(Value::Null, |flag| i64::from(flag).into())
                        } else if i < PRIVACY_FLAGS.len() + PRIVACY_NUMBERS.len() {
                            r.get::<_, i64>(i).into()
                        } else {
                            text_json(r.get(i))
                        };
                        row.insert(name.to_string(), value);
                    }
                    Value::Object(row)
                })
                .collect())
        })
    }

    fn exported_funnels(&self, user: UserId) -> Result<Vec<Value>> {
        self.pg.with(|c| {
            Ok(c.query(
                "SELECT f.id, f.website_id, f.name, f.status, f.created_at, f.updated_at
                 FROM funnels f JOIN websites w ON w.id = f.website_id WHERE w.user_id = $1 ORDER BY f.id",
                &[&user],
            )?
            .iter()
            .map(|r| {
                serde_json::json!({
                    "id": r.get::<_, i64>(0),
                    "website_id": r.get::<_, i64>(1),
                    "name": text_json(r.get(2)),
                    "status": text_json(r.get(3)),
                    "created_at": r.get::<_, i64>(4),
                    "updated_at": r.get::<_, i64>(5),
                })
            })
            .collect())
        })
    }
}

/// Text as exported: JSON kept as text goes out as JSON, anything else as a string.
pub(crate) fn text_json(text: &str) -> Value {
    match text.starts_with(['[', '{']).then(|| serde_json::from_str(text).ok()).flatten() {
        Some(json) => json,
        None => text.into(),
    }
}

/// Rows of a query taking the user id as JSON objects keyed by column name (blobs are left out).
pub(crate) fn rows_as_json(conn: &Connection, sql: &str, user: UserId) -> Result<Vec<Value>> {
    let mut stmt = conn.prepare(sql)?;
    let names: Vec<String> = stmt.column_names().map(|n| n.to_string()).collect();
    let mut rows = stmt.query([user])?;
    let mut out = Vec::new();
    while let Some(row) = rows.next()? {
        let mut object = Map::new();
        for (i, name) in names.iter().enumerate() {
            let value = match row.get_ref(i)? {
                rusqlite::types::ValueRef::Null => Value::Null,
                rusqlite::types::ValueRef::Integer(n) => n.into(),
                rusqlite::types::ValueRef::Real(f) => f.into(),
                rusqlite::types::ValueRef::Text(t) => text_json(&String::from_utf8_lossy(t)),
                rusqlite::types::ValueRef::Blob(_) => continue,
            };
            object.insert(name.clone(), value);
        }
        out.push(Value::Object(object));
    }
    Ok(out)
}
