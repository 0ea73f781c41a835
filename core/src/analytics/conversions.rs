//! Conversions of a site: the latest ones and the share of visits that converted.

use rusqlite::params;
use serde::Serialize;

use super::overview::percent;
use super::{Analytics, TimeRange};
use crate::error::Result;
use crate::model::{Millis, WebsiteId, ser_iso};

/// Most conversions one call lists.
const CONVERSIONS_LIMIT: i64 = 100;

/// `GET /api/websites/{id}/conversions`.
#[derive(Debug, Clone, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Conversions {
    pub conversions: Vec<Conversion>,
    /// Percentage of the range's visits with at least one conversion, one decimal.
    pub conversion_rate: f64,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Conversion {
    pub id: i64,
    pub goal_name: String,
    pub value: Option<f64>,
    pub currency: Option<String>,
    #[serde(serialize_with = "ser_iso")]
    pub timestamp: Millis,
}

impl Analytics {
    /// Conversions of `range`, newest first, with the conversion rate of the range's visits.
    pub fn conversions(&self, site: WebsiteId, range: TimeRange) -> Result<Conversions> {
        self.db.read(|conn| {
            let mut stmt = conn.prepare_cached(
                "SELECT id, name, value, currency, ts FROM events
                 WHERE website_id = ?1 AND kind = 'conversion' AND ts >= ?2 AND ts < ?3
                 ORDER BY ts DESC, id DESC LIMIT ?4",
            )?;
            let conversions = stmt
                .query_map(params![site, range.start, range.end, CONVERSIONS_LIMIT], |r| {
                    Ok(Conversion {
                        id: r.get(0)?,
                        goal_name: r.get(1)?,
                        value: r.get(2)?,
                        currency: r.get(3)?,
                        timestamp: r.get(4)?,
                    })
                })?
                .collect::<rusqlite::Result<Vec<_>>>()?;
            let (visits, converted): (i64, i64) = conn
                .prepare_cached(
                    "SELECT COUNT(*), COALESCE(SUM(is_converted), 0) FROM sessions
                 WHERE website_id = ?1 AND first_seen >= ?2 AND first_seen < ?3",
                )?
                .query_row(params![site, range.start, range.end], |r| Ok((r.get(0)?, r.get(1)?)))?;
            Ok(Conversions { conversions, conversion_rate: percent(converted, visits) })
        })
    }
}
