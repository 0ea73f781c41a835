//! The retention run in cluster mode: every site's expired hits and heatmap data deleted on every shard (and
//! months every site has expired dropped whole), by one daemon at a time across the cluster. Called by
//! `Tracker::apply_retention` (serve's periodic job).

use std::collections::BTreeMap;

use super::Cluster;
use super::events::{Expiry, TYPES};
use super::rollups::{CLOSED_AFTER_MS, HOUR_MS};
use crate::error::Result;
use crate::model::Millis;
use crate::privacy::{RetentionReport, SiteRetention};
use crate::store::meta::Metadata;

/// The advisory lock held by the daemon running retention. Its first key is this constant, its second the hash
/// of the metadata's schema, as the rollups' lock: advisory locks are the database's, and clusters whose
/// metadata shares a PostgreSQL database in schemas of their own (the tests' do) run retention of their own.
const RETENTION_LOCK: i32 = 0x7265_746e;

const DAY_MS: i64 = 86_400_000;

/// The start of the UTC day holding `cutoff`: where the cluster cuts a site's hits. Its rollups count a
/// visitor once a day, in the hour of their first visit that day, found among the day's hits: hits deleted
/// from the middle of a day would let a visitor seen before and after the cut count again in the hours after
/// it. So a day's hits go together, once all of them are past the retention (at most a day after SQLite,
/// whose writer counts visitors as it stores them).
fn day_of(cutoff: Millis) -> Millis {
    cutoff.div_euclid(DAY_MS) * DAY_MS
}

/// The report's key of expired recordings (SQLite's rule's name).
const RECORDINGS: &str = "recordings";

impl Cluster {
    /// Applies every site's retention days (read from `meta`) as if it were `now`: what it deleted, or `None`
    /// when another daemon is running it (it holds the PostgreSQL advisory lock this takes, for the length of
    /// its run; a daemon that dies lets go of it with its connection). A failed run leaves some of the expired
    /// rows, which the next run deletes.
    ///
    /// Expired heatmap data is deleted too (not counted in the report yet), and expired recordings in PostgreSQL.
    /// Sessions are not stored in the cluster: visits are made of their hits here.
    pub fn apply_retention(&self, meta: &dyn Metadata, now: Millis) -> Result<Option<RetentionReport>> {
        self.pg.with(|lock| {
            let locked: bool = lock
                .query_one("SELECT pg_try_advisory_lock($1, hashtext(current_schema()))", &[&RETENTION_LOCK])?
                .get(0);
            if !locked {
                return Ok(None);
            }
            let report = self.expire(meta, now);
            // Let go even after a failure, so the next run (here or on another daemon) can take it.
            let unlocked =
                lock.execute("SELECT pg_advisory_unlock($1, hashtext(current_schema()))", &[&RETENTION_LOCK]);
            let report = report?;
            unlocked?;
            Ok(Some(report))
        })
    }

    fn expire(&self, meta: &dyn Metadata, now: Millis) -> Result<RetentionReport> {
        let retention = meta.all_retention()?;
        let recording_cutoffs: Vec<Millis> = retention.iter().map(|(_, days)| now - days.recordings * DAY_MS).collect();
        let mut expiries: Vec<Expiry> = retention
            .into_iter()
            .map(|(website_id, days)| Expiry {
                website_id,
                pageviews: day_of(now - days.pageviews * DAY_MS),
                events: day_of(now - days.events * DAY_MS),
                conversions: day_of(now - days.conversions * DAY_MS),
                heatmaps: now - days.heatmaps * DAY_MS,
            })
            .collect();
        // Hours are rolled up before their hits go: the rollups keep them on the dashboard, as SQLite's do. The
        // closed hours as the periodic roll-up takes them (a run "as if it were" later takes no hour open now),
        // and, for sites keeping hits less than the three days before an hour closes, every hour they expire.
        let closed = (now.min(crate::model::now_ms()) - CLOSED_AFTER_MS).div_euclid(HOUR_MS) * HOUR_MS;
        let latest_cutoff = expiries.iter().map(|e| e.pageviews.max(e.events).max(e.conversions)).max().unwrap_or(0);
        let mark = self.roll_up_before(closed.max(latest_cutoff), now)?;
        // A hit goes only once a rollup counts it: never past the mark the shards report, whatever was asked.
        for expiry in &mut expiries {
            expiry.pageviews = expiry.pageviews.min(mark);
            expiry.events = expiry.events.min(mark);
            expiry.conversions = expiry.conversions.min(mark);
        }
        // Counted before: the rows in dropped months are gone without a count of their own.
        let expired = self.events.expired_rows(&expiries)?;
        self.events.expire(&expiries)?;
        let mut report = RetentionReport::default();
        for data in TYPES.into_iter().chain([RECORDINGS]) {
            report.total.insert(data, 0);
        }
        for (expiry, recording_cutoff) in expiries.iter().zip(recording_cutoffs) {
            let counts = expired.get(&expiry.website_id).copied().unwrap_or_default();
            let mut deleted: BTreeMap<&'static str, u64> = TYPES.into_iter().zip(counts).collect();
            // Recordings (PostgreSQL) that got no chunk since their cutoff, as SQLite's rule takes them.
            deleted.insert(RECORDINGS, meta.delete_replays_before(expiry.website_id, recording_cutoff)?);
            for (data, n) in &deleted {
                *report.total.entry(data).or_default() += n;
            }
            report.sites.push(SiteRetention { website_id: expiry.website_id, deleted });
        }
        Ok(report)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::auth::Auth;
    use crate::cluster::events::{HitRow, InteractionRow, month_of};
    use crate::cluster::testing::fresh;
    use crate::privacy::{Privacy, RetentionUpdate};
    use crate::store::websites::{NewWebsite, Websites};

    const NOW: i64 = 1_794_312_000_000; // 2026-11-10 12:00 UTC

    fn row(site: i64, visitor: u64, ts: i64, kind: &'static str) -> HitRow {
        HitRow {
            month: month_of(ts),
            website_id: site,
            ts,
            visit_id: visitor as i64 + 1,
            visitor: visitor * 7919,
            session_key: format!("visitor-{visitor}"),
            kind,
            path: "/".into(),
            ..HitRow::default()
        }
    }

    #[test]
    fn one_daemon_at_a_time_deletes_each_types_expired_rows_on_every_shard() {
        let Some(cluster) = fresh() else { return };
        let meta = cluster.meta();
        let settings = crate::settings::Settings::new(crate::Config::default());
        let owner = Auth::new(meta.clone(), b"a test signing secret of 32 bytes or more", settings, None)
            .create_user("owner@example.com", "secret1")
            .unwrap()
            .id;
        let websites = Websites::new(meta.clone());
        let new =
            |name: &str| NewWebsite { name: name.into(), domain: format!("{name}.example.com"), tracking_level: None };
        let (short, default) =
            (websites.create(owner, new("short")).unwrap().id, websites.create(owner, new("default")).unwrap().id);
        let dir = tempfile::tempdir().unwrap();
        let privacy = Privacy::new(crate::db::Db::open(&dir.path().join("t.db")).unwrap(), meta.clone());
        let days = RetentionUpdate {
            pageviews: Some(10),
            events: Some(20),
            conversions: Some(30),
            heatmaps: Some(20),
            recordings: Some(20),
            ..Default::default()
        };
        privacy.update_retention(short, days).unwrap();
        // Each site: a recording whose last chunk came 25 days ago and one 5 days ago.
        for (visit, site, age) in [(9001, short, 25), (9002, short, 5), (9003, default, 25), (9004, default, 5)] {
            let chunk = crate::ingest::ReplayChunk {
                visit: crate::ingest::Hit { website_id: site, ..Default::default() },
                seq: 0,
                data: vec![1, 2, 3],
                is_final: true,
                stats: Default::default(),
            };
            assert!(meta.append_replay_chunk(visit, &chunk, NOW - age * DAY_MS).unwrap());
        }
        let recordings = || -> Vec<i64> {
            cluster
                .pg()
                .with(|c| Ok(c.query("SELECT visit_id FROM replays ORDER BY visit_id", &[])?))
                .unwrap()
                .iter()
                .map(|r| r.get(0))
                .collect()
        };

        // Each site: for each kind, rows of 8 visitors (both shards) 5, 15, 25 and 40 days old.
        let mut rows = Vec::new();
        for site in [short, default] {
            for kind in ["pageview", "custom", "conversion"] {
                for age in [5, 15, 25, 40] {
                    rows.extend((0..8).map(|v| row(site, v, NOW - age * DAY_MS - v as i64, kind)));
                }
            }
        }
        let events = cluster.events();
        events.insert(&rows).unwrap();
        // And a click with each page view.
        let clicks: Vec<InteractionRow> = rows
            .iter()
            .filter(|hit| hit.kind == "pageview")
            .map(|hit| InteractionRow {
                month: hit.month,
                website_id: hit.website_id,
                ts: hit.ts,
                visit_id: hit.visit_id,
                visitor: hit.visitor,
                kind: "click",
                ..InteractionRow::default()
            })
            .collect();
        events.insert_interactions(&clicks).unwrap();
        let clicks_left = |condition: &str| -> u64 {
            (0..2)
                .map(|shard| {
                    events.nodes()[shard]
                        .query_value::<u64>(&format!(
                            "SELECT count() FROM {}.interactions_local WHERE {condition}",
                            cluster.database
                        ))
                        .unwrap()
                })
                .sum()
        };
        let cluster_of = || Cluster { pg: Arc::new(cluster.pg()), events: Arc::new(cluster.events()) };
        let (first, second) = (cluster_of(), cluster_of());

        // While another daemon holds the lock, a run does nothing.
        let mut other = postgres::Client::connect(&cluster.pg_url, postgres::NoTls).unwrap();
        other.execute("SELECT pg_advisory_lock($1, hashtext(current_schema()))", &[&RETENTION_LOCK]).unwrap();
        assert_eq!(first.apply_retention(meta.as_ref(), NOW).unwrap(), None);
        let all = |condition: &str| cluster.local_rows(0, condition) + cluster.local_rows(1, condition);
        assert_eq!(all("1"), 192);
        other.execute("SELECT pg_advisory_unlock($1, hashtext(current_schema()))", &[&RETENTION_LOCK]).unwrap();

        let report = second.apply_retention(meta.as_ref(), NOW).unwrap().expect("the lock is free");
        // Site `short`: page views older than 10 days, events older than 20, conversions older than 30 go.
        let expected = [("conversions", 8), ("events", 16), ("pageviews", 24), ("recordings", 1)];
        assert_eq!(report.sites[0].website_id, short);
        assert_eq!(report.sites[0].deleted, expected.into_iter().collect(), "{report:?}");
        assert_eq!(report.sites[1].deleted.values().sum::<u64>(), 0, "90/90/365 days keep all: {report:?}");
        for shard in 0..2 {
            for (kind, days) in [("pageview", 10), ("custom", 20), ("conversion", 30)] {
                let cutoff = NOW - days * DAY_MS;
                let expired = format!("website_id = {short} AND kind = '{kind}' AND ts < {cutoff}");
                assert_eq!(cluster.local_rows(shard, &expired), 0, "shard {shard}: {expired}");
            }
            assert!(cluster.local_rows(shard, &format!("website_id = {default}")) > 0);
        }
        assert_eq!(all(&format!("website_id = {short}")), 96 - 48);
        assert_eq!(all(&format!("website_id = {default}")), 96, "unexpired rows are all kept");
        // Heatmap data goes by its own cutoff (20 days here, 30 by default) on both shards.
        assert_eq!(clicks_left(&format!("website_id = {short} AND ts < {}", NOW - 20 * DAY_MS)), 0);
        assert_eq!(clicks_left(&format!("website_id = {short}")), 16);
        assert_eq!(
            clicks_left(&format!("website_id = {default} AND ts < {}", NOW - 30 * DAY_MS)),
            0,
            "30 days by default"
        );
        assert_eq!(clicks_left(&format!("website_id = {default}")), 24);
        // Recordings by theirs (20 days here, 30 by default), in PostgreSQL.
        assert_eq!(recordings(), [9002, 9003, 9004]);

        // A repeat finds nothing more; when every site has expired a month, its partition goes whole.
        let again = first.apply_retention(meta.as_ref(), NOW).unwrap().unwrap();
        assert_eq!(again.total.values().sum::<u64>(), 0, "{again:?}");
        let later = NOW + 400 * DAY_MS;
        let last = first.apply_retention(meta.as_ref(), later).unwrap().unwrap();
        assert_eq!(last.total.values().sum::<u64>(), 48 + 96 + 3, "{last:?}");
        assert_eq!(recordings(), [0; 0]);
        assert_eq!(all("1"), 0);
        assert_eq!(clicks_left("1"), 0, "heatmap data past every cutoff is gone");
        let parts = |shard: usize| -> u64 {
            events.nodes()[shard]
                .query_value(&format!(
                    "SELECT count() FROM system.parts WHERE database = '{}' AND table = 'hits_local'",
                    cluster.database
                ))
                .unwrap()
        };
        assert_eq!((parts(0), parts(1)), (0, 0), "no part is left");
    }
}
