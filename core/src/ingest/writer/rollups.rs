//! Rollup deltas of a batch: counted per (site, dim, local hour, value) while the batch's jobs run, then added to
//! `rollup_hours` and `rollup_days` in the batch's transaction with chunked upserts in key order.

use std::collections::HashMap;

use chrono_tz::Tz;
use rusqlite::Connection;

use crate::analytics::local_time::LocalHour;
use crate::model::{Millis, WebsiteId};

/// Counter deltas of one rollup row.
#[derive(Default, Clone, Copy)]
pub(crate) struct Counters {
    pub pageviews: i64,
    pub visits: i64,
    pub visitors: i64,
    pub events: i64,
    pub conversions: i64,
    pub bounces: i64,
    pub duration_s: i64,
}

impl Counters {
    fn add(&mut self, other: Counters) {
        self.pageviews += other.pageviews;
        self.visits += other.visits;
        self.visitors += other.visitors;
        self.events += other.events;
        self.conversions += other.conversions;
        self.bounces += other.bounces;
        self.duration_s += other.duration_s;
    }
}

/// Maps with a faster hash than std's SipHash for the writer's per-hit lookups. Values come from visitors
/// (paths, hosts), but the hash is randomly seeded and each map lives for one batch of bounded size.
type FastMap<K, V> = HashMap<K, V, foldhash::fast::RandomState>;

/// Rollup deltas of a batch keyed by (site, dim, hour), then value; days are derived when flushing. The
/// value is looked up by `&str`, so only a value new to the batch allocates. Hours and days are the site's local
/// ones (keyed by the UTC second they start): UTC for a site absent from `zones`.
#[derive(Default)]
pub(crate) struct Rollups {
    hours: FastMap<(WebsiteId, &'static str, i64), FastMap<String, Counters>>,
    /// The sites of the batch whose timezone is not UTC.
    zones: FastMap<WebsiteId, Tz>,
    /// The local hour each such site's last hit fell in: most hits of a batch share it.
    last_hour: FastMap<WebsiteId, LocalHour>,
    /// The local day (its start, in seconds) of each local hour counted, for such sites.
    day_of: FastMap<(WebsiteId, i64), i64>,
}

impl Rollups {
    /// Empty deltas of a batch whose sites outside UTC have these zones.
    pub fn in_zones(zones: &HashMap<WebsiteId, Tz>) -> Rollups {
        Rollups { zones: zones.iter().map(|(site, tz)| (*site, *tz)).collect(), ..Rollups::default() }
    }

    /// The start (in seconds) of the site's local hour holding `ts`.
    fn hour_of(&mut self, site: WebsiteId, ts: Millis) -> i64 {
        let Some(&tz) = self.zones.get(&site) else { return ts.div_euclid(3_600_000) * 3_600 };
        let local = match self.last_hour.get(&site) {
            Some(known) if known.holds(ts) => *known,
            _ => {
                let local = LocalHour::of(tz, ts);
                self.last_hour.insert(site, local);
                self.day_of.insert((site, local.hour / 1000), local.day / 1000);
                local
            }
        };
        local.hour / 1000
    }

    /// The counters of a row in the (local) hour of `ts`, created at zero.
    pub fn at(&mut self, site: WebsiteId, dim: &'static str, value: &str, ts: Millis) -> &mut Counters {
        let hour = self.hour_of(site, ts);
        let values = self.hours.entry((site, dim, hour)).or_default();
        if !values.contains_key(value) {
            values.insert(value.to_string(), Counters::default());
        }
        values.get_mut(value).expect("just inserted")
    }

    /// Adds another batch's deltas (a job's, kept apart until its savepoint is released).
    pub fn merge(&mut self, other: Rollups) {
        self.day_of.extend(other.day_of);
        for (key, values) in other.hours {
            let mine = self.hours.entry(key).or_default();
            for (value, counters) in values {
                mine.entry(value).or_default().add(counters);
            }
        }
    }

    /// Adds the deltas to both rollup tables.
    pub fn flush(self, tx: &Connection) -> rusqlite::Result<()> {
        let mut days: FastMap<(WebsiteId, &'static str, i64), FastMap<&str, Counters>> = FastMap::default();
        for (&(site, dim, hour), values) in &self.hours {
            let day = self.day_of.get(&(site, hour)).copied().unwrap_or(hour.div_euclid(86_400) * 86_400);
            let day = days.entry((site, dim, day)).or_default();
            for (value, counters) in values {
                day.entry(value.as_str()).or_default().add(*counters);
            }
        }
        upsert_rows(
            tx,
            "rollup_hours",
            in_key_order(self.hours.iter().map(|(k, v)| (*k, v.iter().map(|(s, c)| (s.as_str(), c))))),
        )?;
        upsert_rows(tx, "rollup_days", in_key_order(days.iter().map(|(k, v)| (*k, v.iter().map(|(s, c)| (*s, c))))))
    }
}

/// Rollup rows in primary-key order, so a batch's upserts walk the tree forwards. Sorting the groups, then
/// the values within each, costs a fraction of comparing whole keys.
fn in_key_order<'a, V>(groups: impl Iterator<Item = ((WebsiteId, &'static str, i64), V)>) -> Vec<RollupRow<'a>>
where
    V: Iterator<Item = (&'a str, &'a Counters)>,
{
    let mut groups: Vec<_> = groups.collect();
    groups.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    let mut rows = Vec::new();
    for ((site, dim, bucket), values) in groups {
        let start = rows.len();
        rows.extend(values.map(|(value, c)| RollupRow { site, dim, bucket, value, counters: *c }));
        rows[start..].sort_unstable_by(|a, b| a.value.cmp(b.value));
    }
    rows
}

/// One rollup row's key and counter deltas.
struct RollupRow<'a> {
    site: WebsiteId,
    dim: &'a str,
    bucket: i64,
    value: &'a str,
    counters: Counters,
}

/// Rows per rollup upsert statement. A batch touches dozens to hundreds of rows per table; one statement per
/// chunk instead of per row saves SQLite's per-statement work, and rows in key order walk the tree in order.
const ROLLUP_CHUNKS: [usize; 4] = [64, 16, 4, 1];

/// Adds counter deltas to a rollup table (`rollup_hours` or `rollup_days`), creating rows as needed.
fn upsert_rows(tx: &Connection, table: &str, rows: Vec<RollupRow>) -> rusqlite::Result<()> {
    let mut rest = &rows[..];
    for size in ROLLUP_CHUNKS {
        if rest.len() < size {
            continue;
        }
        let mut stmt = tx.prepare_cached(&upsert_sql(table, size))?;
        while rest.len() >= size {
            let (chunk, after) = rest.split_at(size);
            for (i, row) in chunk.iter().enumerate() {
                let c = &row.counters;
                let at = i * 11;
                stmt.raw_bind_parameter(at + 1, row.site)?;
                stmt.raw_bind_parameter(at + 2, row.dim)?;
                stmt.raw_bind_parameter(at + 3, row.bucket)?;
                stmt.raw_bind_parameter(at + 4, row.value)?;
                for (j, delta) in [c.pageviews, c.visits, c.visitors, c.events, c.conversions, c.bounces, c.duration_s]
                    .into_iter()
                    .enumerate()
                {
                    stmt.raw_bind_parameter(at + 5 + j, delta)?;
                }
            }
            stmt.raw_execute()?;
            rest = after;
        }
    }
    Ok(())
}

/// The upsert of `rows` rows into a rollup table. The table name comes from the writer's fixed pair, never
/// from input.
fn upsert_sql(table: &str, rows: usize) -> String {
    let tuples = vec!["(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"; rows].join(", ");
    format!(
        "INSERT INTO {table} (website_id, dim, bucket, value, pageviews, visits, visitors, events,
            conversions, bounces, duration_s)
         VALUES {tuples}
         ON CONFLICT (website_id, dim, bucket, value) DO UPDATE SET
            pageviews = pageviews + excluded.pageviews,
            visits = visits + excluded.visits,
            visitors = visitors + excluded.visitors,
            events = events + excluded.events,
            conversions = conversions + excluded.conversions,
            bounces = bounces + excluded.bounces,
            duration_s = duration_s + excluded.duration_s"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every chunk size is used (150 = 2×64 + 16 + 4 + 2×1) and each row lands on its own key, adding to what
    /// is stored.
    #[test]
    fn chunked_rollup_upserts_add_every_row_once() {
        let dir = tempfile::tempdir().unwrap();
        let mut conn = crate::db::connect(&dir.path().join("t.sqlite")).unwrap();
        crate::db::migrate(&mut conn).unwrap();
        conn.execute("INSERT INTO users (email, password_hash, created_at) VALUES ('a@example.com', 'x', 0)", [])
            .unwrap();
        conn.execute(
            "INSERT INTO websites (user_id, name, domain, tracking_key, created_at) VALUES (1, 'S', 's.example.com', 'k', 0)",
            [],
        )
        .unwrap();
        let batch = |n: i64| {
            let mut rollups = Rollups::default();
            for i in 0..150 {
                let counters = rollups.at(1, "page", &format!("/p{i:03}"), 7_200_000 * (i % 2));
                counters.pageviews += n;
                counters.visits += i;
            }
            rollups
        };
        batch(1).flush(&conn).unwrap();
        batch(2).flush(&conn).unwrap();
        let (rows, pageviews, visits): (i64, i64, i64) = conn
            .query_row("SELECT COUNT(*), SUM(pageviews), SUM(visits) FROM rollup_hours WHERE dim = 'page'", [], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?))
            })
            .unwrap();
        assert_eq!((rows, pageviews, visits), (150, 150 * 3, 2 * (0..150).sum::<i64>()));
        let per_day: (i64, i64) = conn
            .query_row("SELECT COUNT(*), SUM(pageviews) FROM rollup_days WHERE dim = 'page'", [], |r| {
                Ok((r.get(0)?, r.get(1)?))
            })
            .unwrap();
        assert_eq!(per_day, (150, 150 * 3), "two hours of one day fold into one row per page");
    }
}
