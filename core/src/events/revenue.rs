//! Revenue: the values that conversions carry (`value` with its `currency`), summed per currency and per group of
//! any dimension among what a filter admits. Each engine sums whole cents (`filtered_revenue` of
//! `FilteredReads`: a value times 100 plus a half, truncated, the same arithmetic on both), so both give the
//! same figures to the cent; the dashboard's panel and the Stats API's
//! `total_revenue` are assembled from those sums here.

use serde::Serialize;

use super::EventStore;
use super::filtered::{BreakdownBy, CountOf, GroupBy, Rank};
use super::filters::Filters;
use crate::analytics::TimeRange;
use crate::error::Result;
use crate::model::WebsiteId;

/// The admitted conversions with a value in one group and one currency.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RevenueSum {
    /// The group's keys (its fields' values, then the bucket's start in seconds), as `filtered_groups` gives them.
    pub keys: Vec<String>,
    /// The ISO 4217 code; '' for values sent without one.
    pub currency: String,
    /// The sum of the values, in hundredths.
    pub cents: i64,
    /// How many conversions carried those values.
    pub conversions: i64,
}

/// One row of the revenue panel: a value of the dimension ('' = unknown, Direct for sources), a currency, the
/// sum of the conversions' values in it and how many there were.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
pub struct RevenueRow {
    pub value: String,
    /// ISO 4217 code; '' when the conversions' values came without one.
    pub currency: String,
    /// The sum, to the cent.
    pub amount: f64,
    pub conversions: i64,
}

impl RevenueSum {
    /// The sum as a number of the currency's units.
    pub fn amount(&self) -> f64 {
        self.cents as f64 / 100.0
    }
}

impl dyn EventStore {
    /// The revenue of what `filters` admits by `by`'s values: per value and currency, the `limit` greatest sums
    /// first. Per-visit values count the conversions of the visits started in the range; event values (goal,
    /// name, page, property) the conversions timed in it.
    pub fn revenue_where(
        &self,
        site: WebsiteId,
        range: TimeRange,
        filters: &Filters,
        by: &BreakdownBy,
        limit: i64,
    ) -> Result<Vec<RevenueRow>> {
        let group = GroupBy { fields: vec![by.field.clone()], bucket: false, rank: Rank::Count(CountOf::Events) };
        let sums = self.filtered_revenue(site, range, filters, &group, limit)?;
        Ok(sums
            .into_iter()
            .map(|mut s| RevenueRow {
                amount: s.amount(),
                value: s.keys.swap_remove(0),
                currency: s.currency,
                conversions: s.conversions,
            })
            .collect())
    }
}
