//! Breakdowns by any rollup dimension (pages, referrers, countries, devices, browsers, OS, UTM sources):
//! the CLI's `tracker stats` tables, and any dashboard panel that needs one.

use serde::Serialize;

use super::overview::top_values;
use super::{Analytics, TimeRange};
use crate::error::{Error, Result};
use crate::model::WebsiteId;

/// A rollup dimension a range can be broken down by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dimension {
    Page,
    Referrer,
    Country,
    Device,
    Browser,
    Os,
    UtmSource,
}

impl Dimension {
    /// Every dimension, in the order reports show them.
    pub const ALL: [Dimension; 7] = [
        Dimension::Page,
        Dimension::Referrer,
        Dimension::Country,
        Dimension::Device,
        Dimension::Browser,
        Dimension::Os,
        Dimension::UtmSource,
    ];

    /// The `dim` column value in the rollup tables.
    pub fn as_str(self) -> &'static str {
        match self {
            Dimension::Page => "page",
            Dimension::Referrer => "referrer",
            Dimension::Country => "country",
            Dimension::Device => "device",
            Dimension::Browser => "browser",
            Dimension::Os => "os",
            Dimension::UtmSource => "utm_source",
        }
    }

    /// Parses a dimension name as [`Dimension::as_str`] writes it.
    pub fn parse(s: &str) -> Result<Dimension> {
        Dimension::ALL.into_iter().find(|d| d.as_str() == s).ok_or_else(|| {
            Error::invalid("dimension must be page, referrer, country, device, browser, os or utm_source")
        })
    }

    /// What the count means: page views for pages, visits for the rest.
    pub fn measure(self) -> &'static str {
        match self {
            Dimension::Page => "pageviews",
            _ => "visits",
        }
    }
}

/// One row of a breakdown: a value ('' = unknown, or Direct for referrers) and its count.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct DimensionCount {
    pub value: String,
    pub count: i64,
}

impl Analytics {
    /// The `limit` most frequent values of `dim` over a range (page views for pages, visits otherwise).
    pub fn breakdown(
        &self,
        site: WebsiteId,
        range: TimeRange,
        dim: Dimension,
        limit: i64,
    ) -> Result<Vec<DimensionCount>> {
        let rows = self.db.read(|conn| top_values(conn, site, range, dim.as_str(), limit))?;
        Ok(rows.into_iter().map(|(value, count)| DimensionCount { value, count }).collect())
    }
}
