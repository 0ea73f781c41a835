//! The rollup dimensions, defined once: their names in the rollup tables, which of them every visit is counted
//! under and how a visit's value is found (from the writer's memory and, in SQL, from its stored row, for the
//! rebuild after a deletion), and breakdowns by any of them (the CLI's `tracker stats`, dashboard panels).
//! Besides these, the rollups hold the site totals (dim '') and per event name ('event') and visits with a
//! conversion ('converted'), which the writer and the rebuild count from events, not visits.

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
    /// The visit's one traffic source, named at ingest from the referrer list (`ingest::sources`: Google for a
    /// google.com referrer and for utm_source=google; '' = direct), so traffic sources add up to the visits
    /// without double counting and one source is one row.
    Source,
}

impl Dimension {
    /// The dimensions every visit is counted under (its visits, and the page views of its pages), each with one
    /// value per visit.
    pub(crate) const PER_VISIT: [Dimension; 7] = [
        Dimension::Referrer,
        Dimension::Country,
        Dimension::Device,
        Dimension::Browser,
        Dimension::Os,
        Dimension::UtmSource,
        Dimension::Source,
    ];

    /// Every dimension of `tracker stats` and `parse`, in the order reports show them.
    pub const ALL: [Dimension; 8] = [
        Dimension::Page,
        Dimension::Referrer,
        Dimension::Source,
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
            Dimension::Source => "source",
        }
    }

    /// The value of a per-visit dimension over the stored visit row `s` (fixed SQL text), as
    /// [`VisitDims::value`] gives it from memory; `None` for pages, counted per page view.
    pub(crate) fn visit_sql(self) -> Option<&'static str> {
        Some(match self {
            Dimension::Page => return None,
            Dimension::Referrer => "s.referrer_host",
            Dimension::Country => "s.country",
            Dimension::Device => "s.device",
            Dimension::Browser => "s.browser",
            Dimension::Os => "s.os",
            Dimension::UtmSource => "s.utm_source",
            Dimension::Source => "s.source",
        })
    }

    /// Parses a dimension name as [`Dimension::as_str`] writes it.
    pub fn parse(s: &str) -> Result<Dimension> {
        Dimension::ALL.into_iter().find(|d| d.as_str() == s).ok_or_else(|| {
            Error::invalid("dimension must be page, referrer, source, country, device, browser, os or utm_source")
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

/// A visit's values of the per-visit dimensions, as the ingest writer keeps them with the visit (the stored
/// columns of the same names).
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct VisitDims {
    pub referrer_host: String,
    pub country: String,
    pub device: String,
    pub browser: String,
    pub os: String,
    pub utm_source: String,
    /// The visit's source as named at ingest (`ingest::sources::source_of`).
    pub source: String,
}

impl VisitDims {
    /// The visit's value of a dimension ('' for pages, which are not per visit).
    pub fn value(&self, dim: Dimension) -> &str {
        match dim {
            Dimension::Page => "",
            Dimension::Referrer => &self.referrer_host,
            Dimension::Country => &self.country,
            Dimension::Device => &self.device,
            Dimension::Browser => &self.browser,
            Dimension::Os => &self.os,
            Dimension::UtmSource => &self.utm_source,
            Dimension::Source => &self.source,
        }
    }

    /// The per-visit dimensions' names and this visit's values.
    pub fn pairs(&self) -> impl Iterator<Item = (&'static str, &str)> {
        Dimension::PER_VISIT.into_iter().map(|dim| (dim.as_str(), self.value(dim)))
    }
}

/// One row of a breakdown: a value ('' = unknown, or Direct for referrers) and its count.
#[derive(Debug, Clone, Serialize, PartialEq, utoipa::ToSchema)]
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
        let rows = self.db.read(|conn| top_values(conn, site, range, dim, limit))?;
        Ok(rows.into_iter().map(|(value, count)| DimensionCount { value, count }).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The SQL over a stored visit row gives what the writer takes from memory, for every per-visit dimension.
    #[test]
    fn a_visits_values_in_sql_and_in_memory_agree() {
        let conn = rusqlite::Connection::open_in_memory().unwrap();
        conn.execute_batch(
            "CREATE TABLE sessions (referrer_host, country, device, browser, os, utm_source, source);
             INSERT INTO sessions VALUES ('t.co', 'DE', 'mobile', 'Firefox', 'Android', '', 'Twitter');
             INSERT INTO sessions VALUES ('t.co', '', 'desktop', 'Chrome', 'Windows', 'newsletter', 'newsletter');",
        )
        .unwrap();
        let visits = [
            VisitDims {
                referrer_host: "t.co".into(),
                country: "DE".into(),
                device: "mobile".into(),
                browser: "Firefox".into(),
                os: "Android".into(),
                utm_source: "".into(),
                source: "Twitter".into(),
            },
            VisitDims {
                referrer_host: "t.co".into(),
                country: "".into(),
                device: "desktop".into(),
                browser: "Chrome".into(),
                os: "Windows".into(),
                utm_source: "newsletter".into(),
                source: "newsletter".into(),
            },
        ];
        for dim in Dimension::PER_VISIT {
            let sql = format!("SELECT {} FROM sessions s ORDER BY rowid", dim.visit_sql().unwrap());
            let stored: Vec<String> =
                conn.prepare(&sql).unwrap().query_map([], |r| r.get(0)).unwrap().map(Result::unwrap).collect();
            let remembered: Vec<&str> = visits.iter().map(|v| v.value(dim)).collect();
            assert_eq!(stored, remembered, "{}", dim.as_str());
        }
        assert_eq!(visits[0].value(Dimension::Source), "Twitter", "the stored name, not the host");
    }
}
