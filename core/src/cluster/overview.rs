//! The overview's totals read from ClickHouse (page views, visits, visitors, bounces, visit time), with the
//! meaning SQLite's rollups give them: visits, visitors, bounces and time are counted on the range their visit
//! started in, page views on their own time. Closed hours are read from the rollups.

use super::clickhouse::join;
use super::events::Events;
use super::rollups::{self, Span};
use super::visits::{first_visits_sql, sites_condition, visits_sql};
use crate::analytics::{ACTIVE_WINDOW_MS, Dimension, Overview, PageViews, TimeRange, Totals};
use crate::error::{Error, Result};
use crate::model::{WebsiteId, now_ms};

/// Pages on the overview.
const TOP_PAGES: i64 = 10;

impl Events {
    /// `GET /api/dashboard/overview` in cluster mode: the figures SQLite's overview gives on the same hits.
    /// Its imported-history marker is PostgreSQL's (`None` here; `Tracker::overview` adds it).
    pub fn overview(&self, site: WebsiteId, range: TimeRange) -> Result<Overview> {
        let (db, node) = (self.database(), &self.nodes()[0]);
        let active = || {
            node.query_value::<i64>(&format!(
                "SELECT uniqExact(visit_id) FROM {db}.hits WHERE website_id = {site} AND visit_id != 0 AND ts >= {}",
                now_ms() - ACTIVE_WINDOW_MS
            ))
        };
        // Top pages by page views, ties by path, as SQLite's page rollup orders them.
        let top = || self.top_values(site, range, Dimension::Page, TOP_PAGES);
        let ((current, previous), (active_sessions, top_pages)) =
            join(|| join(|| self.totals(site, range), || self.totals(site, range.previous())), || join(active, top))?;
        let top_pages = top_pages.into_iter().map(|(url, views)| PageViews { url, views }).collect();
        Ok(Overview::of(current, previous, active_sessions, top_pages, None))
    }

    /// The totals of a site over a range: its rolled-up hours from the rollups, the others from the hits, and
    /// its imported days from their aggregates.
    pub fn totals(&self, site: WebsiteId, range: TimeRange) -> Result<Totals> {
        self.totals_of(&[site], range)
    }

    /// The totals of `sites` together over a range, each site's figures added (a visitor is a site's own, so
    /// visitors add up too), in as many queries as one site's; the sites' rollups must be keyed by the range's
    /// zone.
    pub fn totals_of(&self, sites: &[WebsiteId], range: TimeRange) -> Result<Totals> {
        if sites.is_empty() {
            return Ok(Totals::default());
        }
        let (rolled, live) = self.split(range.tz, range.start, range.end)?;
        let tables = rollups::hour_tables(rolled, (range.start, range.end), range.tz);
        let (rolled, live) = join(
            || if tables.is_empty() { Ok(Totals::default()) } else { self.rolled_totals(sites, &tables) },
            || live.map_or(Ok(Totals::default()), |span| self.hit_totals(sites, range.tz, span)),
        )?;
        Ok(rolled + live)
    }

    /// The totals of `sites` over [from, to) counted from their hits, read through the Distributed table
    /// (visitors once per local day of `tz`).
    fn hit_totals(&self, sites: &[WebsiteId], tz: chrono_tz::Tz, (from, to): Span) -> Result<Totals> {
        let condition = sites_condition(sites);
        let db = self.database();
        let node = &self.nodes()[0];
        // Page views, events and conversions are counted on their own time, as SQLite's writer adds them to
        // the rollup hour of the hit; its `events` are custom events, outbound links and downloads.
        let counts = || {
            node.query(&format!(
                "SELECT countIf(kind = 'pageview'), countIf(kind IN ('custom', 'outbound', 'download')),
                        countIf(kind = 'conversion')
                 FROM {db}.hits
                 WHERE {condition} AND ts >= {from} AND ts < {to}"
            ))
        };
        let visits = || {
            node.query(&format!(
                "SELECT count(), sum(page_views = 1), sum(intDiv(last - start, 1000)) FROM ({})",
                visits_sql(db, sites, from, to)
            ))
        };
        let visitors = || {
            node.query(&format!(
                "SELECT count() FROM ({}) WHERE first >= {from}",
                first_visits_sql(db, sites, tz, from, to)
            ))
        };
        let (counts, (rows, visitors)) = join(counts, || join(visits, visitors))?;
        let number_of = |rows: &[Vec<String>], i: usize| -> Result<i64> {
            rows.first()
                .and_then(|row| row.get(i))
                .and_then(|v| v.parse().ok())
                .ok_or_else(|| Error::Internal("ClickHouse: unexpected totals row".into()))
        };
        let number = |i: usize| number_of(&rows, i);
        Ok(Totals {
            pageviews: number_of(&counts, 0)?,
            visits: number(0)?,
            visitors: number_of(&visitors, 0)?,
            bounces: number(1)?,
            duration_s: number(2)?,
            events: number_of(&counts, 1)?,
            conversions: number_of(&counts, 2)?,
        })
    }
}

#[cfg(test)]
mod tests {
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    use crate::cluster::testing::{fresh, store_in_both};
    use crate::ingest::{EventKind, Hit};
    use crate::model::now_ms;
    use crate::testing::one_site;

    use super::*;

    /// Seeded visits over the last three hours: 60 visitors, 1 to 6 hits each (page views, custom events,
    /// conversions and outbound links, so some visits bounce), a third coming back after more than 30 minutes (a second visit), all on whole seconds.
    fn seeded_hits(site: WebsiteId, now: i64) -> Vec<Hit> {
        let mut rng = StdRng::seed_from_u64(18);
        let start = (now - 3 * 3_600_000) / 1000 * 1000;
        let mut hits = Vec::new();
        for visitor in 0..60u8 {
            let mut ts = start + rng.random_range(0..3_600) * 1000;
            let returns = visitor % 3 == 0;
            for visit in 0..(1 + returns as u8) {
                if visit == 1 {
                    ts += rng.random_range(31 * 60..60 * 60) * 1000;
                }
                for n in 0..rng.random_range(1..=6) {
                    let kind = if n > 0 && rng.random_bool(0.3) {
                        [EventKind::Custom, EventKind::Conversion, EventKind::Outbound][rng.random_range(0..3)]
                    } else {
                        EventKind::Pageview
                    };
                    let path = format!("/p{}", rng.random_range(0..5));
                    hits.push(Hit {
                        website_id: site,
                        session_key: format!("visitor-{visitor:03}"),
                        ts,
                        kind: Some(kind),
                        name: if kind == EventKind::Pageview { String::new() } else { "signup".into() },
                        url: format!("https://s.example.com{path}"),
                        path,
                        visitor_seed: [visitor; 32],
                        ..Hit::default()
                    });
                    ts += rng.random_range(5..300) * 1000;
                }
            }
        }
        hits.sort_by_key(|h| h.ts);
        hits
    }

    #[test]
    fn overview_totals_equal_sqlites_on_the_same_hits() {
        let Some(cluster) = fresh() else { return };
        let fixture = one_site();
        cluster.add_site(fixture.site);
        let now = now_ms();
        let hits = seeded_hits(fixture.site, now);
        store_in_both(&fixture, &cluster, hits);

        let events = cluster.events();
        for range in ["24h", "7d"] {
            let range = TimeRange::parse(range, now).unwrap();
            let sqlite = fixture.tracker.analytics().totals(fixture.site, range).unwrap();
            let clickhouse = events.totals(fixture.site, range).unwrap();
            assert!(sqlite.visits > 60 && sqlite.bounces > 0, "{sqlite:?}");
            assert!(sqlite.conversions > 0 && sqlite.events > 0, "{sqlite:?}");
            assert_eq!(clickhouse, sqlite, "{range:?}");
        }
    }
}
