//! The Conversions tab: the latest conversions of a range and the share of visits that converted.

use rusqlite::params;
use serde::Serialize;

use super::overview::percent;
use super::{Analytics, TimeRange};
use crate::error::Result;
use crate::model::{Millis, WebsiteId, ser_iso};

/// Most conversions one call lists.
pub(crate) const CONVERSIONS_LIMIT: i64 = 100;

/// `GET /api/websites/{id}/conversions` (spec part 1 §3 "Conversions response").
#[derive(Debug, Clone, Serialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Conversions {
    pub conversions: Vec<Conversion>,
    /// Visits with at least one conversion per 100 visits of the range, one decimal.
    pub conversion_rate: f64,
}

#[derive(Debug, Clone, Serialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Conversion {
    pub id: i64,
    pub goal_name: String,
    /// The conversion's value, null when the hit carried none.
    pub value: Option<f64>,
    /// ISO 4217 code sent with the value, if any.
    pub currency: Option<String>,
    #[serde(serialize_with = "ser_iso")]
    #[schema(value_type = String, format = DateTime)]
    pub timestamp: Millis,
}

impl Conversion {
    /// A conversion from a row of (id, name, value, currency, ts) of `events`.
    pub(crate) fn of_row(r: &rusqlite::Row) -> rusqlite::Result<Conversion> {
        Ok(Conversion {
            id: r.get(0)?,
            goal_name: r.get(1)?,
            value: r.get(2)?,
            currency: r.get(3)?,
            timestamp: r.get(4)?,
        })
    }
}

impl Analytics {
    /// The newest 100 conversions of `range` and its conversion rate.
    pub fn conversions(&self, site: WebsiteId, range: TimeRange) -> Result<Conversions> {
        let (from, to) = range.buckets();
        let rate_sql = format!(
            "SELECT COALESCE(SUM(CASE WHEN dim = 'converted' THEN visits END), 0),
                    COALESCE(SUM(CASE WHEN dim = '' THEN visits END), 0)
             FROM {} WHERE website_id = ?1 AND dim IN ('', 'converted') AND value = ''
               AND bucket >= ?2 AND bucket < ?3",
            range.grain.table()
        );
        self.db.read(|conn| {
            // Searches events_site_conversions (migration 0005): the range's conversions, newest first.
            let mut stmt = conn.prepare_cached(
                "SELECT id, name, value, currency, ts FROM events
                 WHERE website_id = ?1 AND ts >= ?2 AND ts < ?3 AND kind = 'conversion'
                 ORDER BY ts DESC, id DESC LIMIT ?4",
            )?;
            let conversions = stmt
                .query_map(params![site, range.start, range.end, CONVERSIONS_LIMIT], Conversion::of_row)?
                .collect::<rusqlite::Result<_>>()?;
            let (converted, visits): (i64, i64) =
                conn.prepare_cached(&rate_sql)?.query_row(params![site, from, to], |r| Ok((r.get(0)?, r.get(1)?)))?;
            Ok(Conversions { conversions, conversion_rate: percent(converted, visits) })
        })
    }
}
