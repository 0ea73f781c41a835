//! Retention days behind the metadata boundary: how long each type of a site's data is kept. They share the
//! privacy settings' row (a site without one has the defaults); `Privacy` validates and calls these, and the
//! retention run (SQLite's and the cluster's) reads every site's days at once.

use rusqlite::{OptionalExtension, params};

use super::{PgMeta, SqliteMeta};
use crate::error::Result;
use crate::model::{Millis, WebsiteId};
use crate::privacy::Retention;

/// Retention days: each method is one statement.
pub trait RetentionStore {
    /// A site's days, the defaults where none are stored.
    fn retention(&self, site: WebsiteId) -> Result<Retention>;
    /// Stores a site's days (all of them) if the site exists; `at` is the change's time. Its other privacy
    /// settings stay as they are.
    fn save_retention(&self, site: WebsiteId, retention: &Retention, at: Millis) -> Result<()>;
    /// Every site's days, by site id.
    fn all_retention(&self) -> Result<Vec<(WebsiteId, Retention)>>;
}

/// A stored row's days (pageviews, events, sessions, heatmaps, recordings, conversions).
fn retention_of(days: [i64; 6]) -> Retention {
    let [pageviews, events, sessions, heatmaps, recordings, conversions] = days;
    Retention { pageviews, events, sessions, heatmaps, recordings, conversions }
}

impl RetentionStore for SqliteMeta {
    fn retention(&self, site: WebsiteId) -> Result<Retention> {
        self.db.read(|conn| {
            let row = conn
                .query_row(
                    "SELECT retention_pageviews, retention_events, retention_sessions, retention_heatmaps,
                        retention_recordings, retention_conversions
                     FROM privacy_settings WHERE website_id = ?1",
                    [site],
                    |r| Ok(retention_of([r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?])),
                )
                .optional()?;
            Ok(row.unwrap_or_default())
        })
    }

    fn save_retention(&self, site: WebsiteId, r: &Retention, at: Millis) -> Result<()> {
        self.db.write(|conn| {
            conn.execute(
                "INSERT INTO privacy_settings (website_id, retention_pageviews, retention_events, retention_sessions,
                    retention_heatmaps, retention_recordings, retention_conversions, updated_at)
                 SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8
                 WHERE EXISTS (SELECT 1 FROM websites WHERE id = ?1)
                 ON CONFLICT (website_id) DO UPDATE SET retention_pageviews = excluded.retention_pageviews,
                    retention_events = excluded.retention_events, retention_sessions = excluded.retention_sessions,
                    retention_heatmaps = excluded.retention_heatmaps,
                    retention_recordings = excluded.retention_recordings,
                    retention_conversions = excluded.retention_conversions, updated_at = excluded.updated_at",
                params![site, r.pageviews, r.events, r.sessions, r.heatmaps, r.recordings, r.conversions, at],
            )?;
            Ok(())
        })
    }

    fn all_retention(&self) -> Result<Vec<(WebsiteId, Retention)>> {
        self.db.read(|conn| {
            let mut stmt = conn.prepare(
                "SELECT w.id, p.website_id IS NOT NULL, p.retention_pageviews, p.retention_events,
                    p.retention_sessions, p.retention_heatmaps, p.retention_recordings, p.retention_conversions
                 FROM websites w LEFT JOIN privacy_settings p ON p.website_id = w.id ORDER BY w.id",
            )?;
            let rows = stmt.query_map([], |r| {
                let retention = match r.get(1)? {
                    true => retention_of([r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?, r.get(6)?, r.get(7)?]),
                    false => Retention::default(),
                };
                Ok((r.get(0)?, retention))
            })?;
            Ok(rows.collect::<rusqlite::Result<_>>()?)
        })
    }
}

impl RetentionStore for PgMeta {
    fn retention(&self, site: WebsiteId) -> Result<Retention> {
        self.pg.with(|c| {
            let row = c.query_opt(
                "SELECT retention_pageviews, retention_events, retention_sessions, retention_heatmaps,
                    retention_recordings, retention_conversions
                 FROM privacy_settings WHERE website_id = $1",
                &[&site],
            )?;
            Ok(row
                .map(|r| retention_of([r.get(0), r.get(1), r.get(2), r.get(3), r.get(4), r.get(5)]))
                .unwrap_or_default())
        })
    }

    fn save_retention(&self, site: WebsiteId, r: &Retention, at: Millis) -> Result<()> {
        self.pg.with(|c| {
            c.execute(
                "INSERT INTO privacy_settings (website_id, retention_pageviews, retention_events, retention_sessions,
                    retention_heatmaps, retention_recordings, retention_conversions, updated_at)
                 SELECT $1::BIGINT, $2::BIGINT, $3::BIGINT, $4::BIGINT, $5::BIGINT, $6::BIGINT, $7::BIGINT, $8::BIGINT
                 WHERE EXISTS (SELECT 1 FROM websites WHERE id = $1)
                 ON CONFLICT (website_id) DO UPDATE SET retention_pageviews = excluded.retention_pageviews,
                    retention_events = excluded.retention_events, retention_sessions = excluded.retention_sessions,
                    retention_heatmaps = excluded.retention_heatmaps,
                    retention_recordings = excluded.retention_recordings,
                    retention_conversions = excluded.retention_conversions, updated_at = excluded.updated_at",
                &[&site, &r.pageviews, &r.events, &r.sessions, &r.heatmaps, &r.recordings, &r.conversions, &at],
            )?;
            Ok(())
        })
    }

    fn all_retention(&self) -> Result<Vec<(WebsiteId, Retention)>> {
        self.pg.with(|c| {
            let rows = c.query(
                "SELECT w.id, p.website_id IS NOT NULL, p.retention_pageviews, p.retention_events,
                    p.retention_sessions, p.retention_heatmaps, p.retention_recordings, p.retention_conversions
                 FROM websites w LEFT JOIN privacy_settings p ON p.website_id = w.id ORDER BY w.id",
                &[],
            )?;
            Ok(rows
                .iter()
                .map(|r| {
                    let retention = match r.get::<_, bool>(1) {
                        true => retention_of([r.get(2), r.get(3), r.get(4), r.get(5), r.get(6), r.get(7)]),
                        false => Retention::default(),
                    };
                    (r.get(0), retention)
                })
                .collect())
        })
    }
}
