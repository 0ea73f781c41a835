//! Deleting a site's data on the owner's request (`POST /api/privacy/delete-data`, `tracker privacy delete`).
//!
//! Rollups stay consistent by recomputation: the whole UTC days touched by the deleted rows (from the first
//! day of an affected visit to the day of the last deleted row) have their hourly and daily rollup rows
//! rebuilt from the raw rows that remain, in the same transaction as the deletion. Deleting `all` without a
//! cut-off clears the site's sessions, rollups and visitor state outright. No byte of a deleted row stays in
//! the data folder: connections delete with secure_delete, and the log is emptied after each deletion.

use rusqlite::{Connection, TransactionBehavior, params};
use serde::Serialize;

use super::Privacy;
use crate::analytics::{Dimension, local_time};
use crate::error::{Error, Result};
use crate::model::{Millis, WebsiteId};

const DAY_MS: i64 = 86_400_000;

/// What a deletion removes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DataType {
    /// Page views (rows of kind `pageview`).
    Pageviews,
    /// Every other event: custom events, conversions, outbound links, downloads, identify, consent.
    Events,
    /// Page views, events and the sessions (and, without a cut-off, the rollups) of the site.
    All,
}

impl DataType {
    /// Parses `pageviews`, `events` or `all`.
    pub fn parse(s: &str) -> Result<DataType> {
        match s {
            "pageviews" => Ok(DataType::Pageviews),
            "events" => Ok(DataType::Events),
            "all" => Ok(DataType::All),
            _ => Err(Error::invalid("dataType must be pageviews, events or all")),
        }
    }

    /// The name as parsed.
    pub fn as_str(self) -> &'static str {
        match self {
            DataType::Pageviews => "pageviews",
            DataType::Events => "events",
            DataType::All => "all",
        }
    }

    /// SQL condition on `kind` (fixed text).
    fn condition(self) -> &'static str {
        match self {
            DataType::Pageviews => "kind = 'pageview'",
            DataType::Events => "kind <> 'pageview'",
            DataType::All => "1",
        }
    }
}

/// Exact counts of what a deletion removed, per table.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DeletionReport {
    /// Rows of `events` that were page views.
    pub pageviews: u64,
    /// Other rows of `events`.
    pub events: u64,
    /// Rows of `sessions` (visits left without any page view or event, or all of them for `all`).
    pub sessions: u64,
    /// Rollup rows removed (`all` without cut-off) or rebuilt (otherwise), in the engine's own rollup layout,
    /// so the two engines give different numbers for the same data: SQLite counts its hourly and daily rows
    /// (rebuilt: of the whole days touched), a cluster its hourly (dimension, hour, value) keys with a non-zero
    /// count (rebuilt: of the hours it had rolled up).
    pub rollup_rows: u64,
}

impl DeletionReport {
    /// Raw records deleted: page views, events and sessions (the API's `recordsDeleted`).
    pub fn records_deleted(&self) -> u64 {
        self.pageviews + self.events + self.sessions
    }
}

impl Privacy {
    /// Deletes a site's data of one type, optionally only rows before `before`; callers check ownership.
    pub(crate) fn delete_data(
        &self,
        site: WebsiteId,
        data: DataType,
        before: Option<Millis>,
    ) -> Result<DeletionReport> {
        // A connection of its own: a big deletion must not hold the shared write connection's mutex.
        let mut conn = self.db.connect()?;
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let report = delete_in(&tx, site, data, before)?;
        tx.commit()?;
        // The deleted rows are zeroed in the database (secure_delete); their earlier copies in the log go too.
        crate::db::empty_log(&conn)?;
        Ok(report)
    }
}

fn delete_in(tx: &Connection, site: WebsiteId, data: DataType, before: Option<Millis>) -> Result<DeletionReport> {
    let cut = before.unwrap_or(i64::MAX);
    let cond = data.condition();
    let mut report = DeletionReport::default();
    let (pageviews, events, min_ts, max_ts): (i64, i64, Option<Millis>, Option<Millis>) = tx.query_row(
        &format!(
            "SELECT COALESCE(SUM(kind = 'pageview'), 0), COALESCE(SUM(kind <> 'pageview'), 0), MIN(ts), MAX(ts)
                 FROM events WHERE website_id = ?1 AND ts < ?2 AND {cond}"
        ),
        params![site, cut],
        |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
    )?;
    report.pageviews = pageviews as u64;
    report.events = events as u64;

    if data == DataType::All && before.is_none() {
        let deleted = tx.execute("DELETE FROM events WHERE website_id = ?1", [site])?;
        debug_assert_eq!(deleted as u64, report.pageviews + report.events);
        report.sessions = tx.execute("DELETE FROM sessions WHERE website_id = ?1", [site])? as u64;
        report.rollup_rows = (tx.execute("DELETE FROM rollup_hours WHERE website_id = ?1", [site])?
            + tx.execute("DELETE FROM rollup_days WHERE website_id = ?1", [site])?) as u64;
        // Imported history goes with everything else (its aggregates cascade), and may be imported again.
        tx.execute("DELETE FROM imports WHERE website_id = ?1", [site])?;
        crate::analytics::forget_stored_hours(tx, site, Millis::MIN, Millis::MAX)?;
        return Ok(report);
    }
    let (Some(min_ts), Some(max_ts)) = (min_ts, max_ts) else {
        return Ok(report);
    };

    tx.execute_batch(
        "CREATE TEMP TABLE IF NOT EXISTS deletion_sessions (id INTEGER PRIMARY KEY);
         DELETE FROM temp.deletion_sessions;",
    )?;
    tx.execute(
        &format!(
            "INSERT INTO temp.deletion_sessions SELECT DISTINCT session_id FROM events
             WHERE website_id = ?1 AND ts < ?2 AND {cond}"
        ),
        params![site, cut],
    )?;
    let first_seen: Millis = tx.query_row(
        "SELECT COALESCE(MIN(first_seen), ?1) FROM sessions WHERE id IN (SELECT id FROM temp.deletion_sessions)",
        [min_ts],
        |r| r.get(0),
    )?;
    let deleted =
        tx.execute(&format!("DELETE FROM events WHERE website_id = ?1 AND ts < ?2 AND {cond}"), params![site, cut])?;
    if deleted as u64 != report.pageviews + report.events {
        return Err(Error::Internal("deletion counts changed under a write lock".into()));
    }
    // The visits that lost rows: recount them, and drop those left empty.
    tx.execute(
        "UPDATE sessions SET
            page_views = (SELECT COUNT(*) FROM events e WHERE e.session_id = sessions.id AND e.kind = 'pageview'),
            events = (SELECT COUNT(*) FROM events e WHERE e.session_id = sessions.id AND e.kind <> 'pageview'),
            is_converted = EXISTS (SELECT 1 FROM events e WHERE e.session_id = sessions.id AND e.kind = 'conversion'),
            conversion_value = (SELECT COALESCE(SUM(e.value), 0) FROM events e
                                WHERE e.session_id = sessions.id AND e.kind = 'conversion')
         WHERE id IN (SELECT id FROM temp.deletion_sessions)",
        [],
    )?;
    // A visit that still has heatmap points or a recording keeps them unless everything goes.
    let keep_captured = if data == DataType::All {
        ""
    } else {
        "AND NOT EXISTS (SELECT 1 FROM heatmap_points h WHERE h.session_id = sessions.id)
         AND NOT EXISTS (SELECT 1 FROM form_field_events f WHERE f.session_id = sessions.id)
         AND NOT EXISTS (SELECT 1 FROM scroll_depths d WHERE d.session_id = sessions.id)
         AND NOT EXISTS (SELECT 1 FROM replays r WHERE r.session_id = sessions.id)"
    };
    report.sessions = tx.execute(
        &format!(
            "DELETE FROM sessions WHERE id IN (SELECT id FROM temp.deletion_sessions) AND page_views = 0
             AND events = 0 {keep_captured}"
        ),
        [],
    )? as u64;
    tx.execute("DELETE FROM temp.deletion_sessions", [])?;

    let from = min_ts.min(first_seen).div_euclid(DAY_MS) * DAY_MS;
    let to = (max_ts.div_euclid(DAY_MS) + 1) * DAY_MS;
    report.rollup_rows = rebuild_rollups(tx, site, from, to)?;
    // The visits that lost rows started in [from, to) too.
    crate::analytics::forget_stored_hours(tx, site, from, to)?;
    Ok(report)
}

/// Adds counters to a rollup row; shared tail of the rebuild inserts.
const UPSERT: &str = "ON CONFLICT (website_id, dim, bucket, value) DO UPDATE SET
    pageviews = pageviews + excluded.pageviews, visits = visits + excluded.visits,
    visitors = visitors + excluded.visitors, events = events + excluded.events,
    conversions = conversions + excluded.conversions, bounces = bounces + excluded.bounces,
    duration_s = duration_s + excluded.duration_s";

/// A site's timezone as saved (UTC for a site that is gone).
pub(crate) fn site_zone(conn: &Connection, site: WebsiteId) -> rusqlite::Result<chrono_tz::Tz> {
    use rusqlite::OptionalExtension;
    let name: Option<String> =
        conn.query_row("SELECT timezone FROM websites WHERE id = ?1", [site], |r| r.get(0)).optional()?;
    Ok(name.map_or(chrono_tz::Tz::UTC, |n| local_time::zone(&n)))
}

/// Keys a site's rollups by its changed timezone, counting them again from the raw rows, unless that would
/// lose history: retention keeps the rollups of the hours it emptied, which no raw row is left to count again.
/// Such a site keeps its rollups as they are (its past in the old zone's hours, nothing lost); the writer keys
/// what comes next by the new zone. Answers whether the rollups were counted again.
pub(crate) fn rekey_rollups(tx: &Connection, site: WebsiteId) -> Result<bool> {
    let first_raw: Option<Millis> = tx.query_row(
        "SELECT MIN(t) FROM (SELECT MIN(first_seen) AS t FROM sessions WHERE website_id = ?1
         UNION ALL SELECT MIN(ts) FROM events WHERE website_id = ?1)",
        [site],
        |r| r.get(0),
    )?;
    // History is what the rollups hold before the raw rows begin (two days' margin for any offset) beyond what
    // an import gives back (the rebuild restores imported days from `imported_rollups`).
    let before = first_raw.unwrap_or(Millis::MAX / 2) / 1000 - 2 * 86_400;
    let (rolled, imported): (i64, i64) = tx.query_row(
        "SELECT (SELECT COALESCE(SUM(pageviews + visits + events + conversions), 0) FROM rollup_hours
                 WHERE website_id = ?1 AND dim = '' AND bucket < ?2),
                (SELECT COALESCE(SUM(pageviews + visits + events), 0) FROM imported_rollups
                 WHERE website_id = ?1 AND dim = '' AND bucket < ?2 + 86400)",
        params![site, before],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?;
    if rolled > imported {
        tracing::info!(site, "the site's rollups older than its raw rows stay in the old timezone's hours");
        return Ok(false);
    }
    rebuild_rollups(tx, site, Millis::MIN / 2, Millis::MAX / 2)?;
    Ok(true)
}

/// Recomputes a site's hourly and daily rollups over `[from, to)` (ms, widened to whole local days of the site's
/// timezone) from the raw sessions and events, with the ingest writer's definitions (the per-visit dimensions
/// from `Dimension::PER_VISIT`, as the writer's; hours and days are the site's local ones, keyed by the UTC
/// second they start); returns the number of rows written.
pub(crate) fn rebuild_rollups(tx: &Connection, site: WebsiteId, from: Millis, to: Millis) -> Result<u64> {
    let tz = site_zone(tx, site)?;
    // The site's whole span when asked for everything: the offsets' SQL names each change within the span.
    let (from, to) = if from <= Millis::MIN / 4 || to >= Millis::MAX / 4 {
        let (first, last) = data_span(tx, site)?;
        (from.max(first - DAY_MS), to.min(last + DAY_MS))
    } else {
        (from, to)
    };
    let from = local_time::day_start(tz, from);
    let to = local_time::midnight(tz, local_time::date_of(tz, to - 1) + chrono::Days::new(1));
    let (b_from, b_to) = (from / 1000, to / 1000);
    tx.execute(
        "DELETE FROM rollup_hours WHERE website_id = ?1 AND bucket >= ?2 AND bucket < ?3",
        params![site, b_from, b_to],
    )?;
    tx.execute(
        "DELETE FROM rollup_days WHERE website_id = ?1 AND bucket >= ?2 AND bucket < ?3",
        params![site, b_from, b_to],
    )?;
    let insert = "INSERT INTO rollup_hours (website_id, dim, bucket, value, pageviews, visits, visitors, events,
        conversions, bounces, duration_s)";
    let hour = local_time::hour_bucket_sql(tz, "ts", from, to);
    let started = local_time::hour_bucket_sql(tz, "first_seen", from, to);
    let started_s = local_time::hour_bucket_sql(tz, "s.first_seen", from, to);
    let viewed = local_time::hour_bucket_sql(tz, "e.ts", from, to);
    let first_of_day = local_time::hour_bucket_sql(tz, "first", from, to);
    let local_day = local_time::day_number_sql(tz, "first_seen", from, to);
    let page = Dimension::Page.as_str();
    let mut statements = vec![
        // Visits, bounces and duration belong to the hour a visit started.
        format!(
            "{insert} SELECT website_id, '', {started} AS b, '', 0, COUNT(*), 0, 0, 0,
                SUM(page_views = 1), SUM((last_seen - first_seen) / 1000)
             FROM sessions WHERE website_id = ?1 AND first_seen >= ?2 AND first_seen < ?3 GROUP BY b {UPSERT}"
        ),
        // A visitor counts once a (local) day, in the hour of their first visit that day.
        format!(
            "{insert} SELECT ?1, '', b, '', 0, 0, COUNT(*), 0, 0, 0, 0 FROM (
                SELECT {first_of_day} AS b FROM (
                    SELECT MIN(first_seen) AS first FROM sessions
                    WHERE website_id = ?1 AND first_seen >= ?2 AND first_seen < ?3
                    GROUP BY {local_day}, visitor_hash)) WHERE true GROUP BY b {UPSERT}"
        ),
        // Page views, events and conversions belong to the hour they happened.
        format!(
            "{insert} SELECT website_id, '', {hour} AS b, '', SUM(kind = 'pageview'), 0, 0,
                SUM(kind IN ('custom', 'outbound', 'download')), SUM(kind = 'conversion'), 0, 0
             FROM events WHERE website_id = ?1 AND ts >= ?2 AND ts < ?3 GROUP BY b {UPSERT}"
        ),
        format!(
            "{insert} SELECT website_id, '{page}', {hour} AS b, path, COUNT(*), 0, 0, 0, 0, 0, 0
             FROM events WHERE website_id = ?1 AND ts >= ?2 AND ts < ?3 AND kind = 'pageview' GROUP BY b, path {UPSERT}"
        ),
        format!(
            "{insert} SELECT website_id, 'event', {hour} AS b, CASE WHEN name = '' THEN kind ELSE name END AS v,
                0, 0, 0, SUM(kind <> 'conversion'), SUM(kind = 'conversion'), 0, 0
             FROM events WHERE website_id = ?1 AND ts >= ?2 AND ts < ?3
                AND kind IN ('custom', 'outbound', 'download', 'conversion') GROUP BY b, v {UPSERT}"
        ),
    ];
    // Visits with a conversion, in the hour the visit started (divides into the conversion rate).
    statements.push(format!(
        "{insert} SELECT website_id, 'converted', {started} AS b, '', 0, COUNT(*), 0, 0, 0, 0, 0
         FROM sessions WHERE website_id = ?1 AND first_seen >= ?2 AND first_seen < ?3 AND is_converted GROUP BY b {UPSERT}"
    ));
    for dim in Dimension::PER_VISIT {
        let value = dim.visit_sql().expect("per-visit dimensions have a visit value");
        let dim = dim.as_str();
        statements.push(format!(
            "{insert} SELECT s.website_id, '{dim}', {started_s} AS b, {value} AS v, 0, COUNT(*),
                0, 0, 0, 0, 0
             FROM sessions s WHERE s.website_id = ?1 AND s.first_seen >= ?2 AND s.first_seen < ?3 GROUP BY b, v {UPSERT}"
        ));
        statements.push(format!(
            "{insert} SELECT e.website_id, '{dim}', {viewed} AS b, {value} AS v, COUNT(*), 0, 0, 0,
                0, 0, 0
             FROM events e JOIN sessions s ON s.id = e.session_id
             WHERE e.website_id = ?1 AND e.ts >= ?2 AND e.ts < ?3 AND e.kind = 'pageview'
             GROUP BY b, v {UPSERT}"
        ));
    }
    // Imported daily aggregates have no raw rows to count again (Plausible's export): they come back as stored.
    // An imported date (keyed by its UTC midnight) goes to the local midnight of the same date.
    let imported_day = match tz {
        chrono_tz::Tz::UTC => "bucket".to_string(),
        _ => format!("(bucket - ({} - bucket * 1000) / 1000)", local_time::local_ms_sql(tz, "bucket * 1000", from, to)),
    };
    statements.push(format!(
        "{insert} SELECT website_id, dim, {imported_day} AS b, value, SUM(pageviews), SUM(visits), SUM(visitors),
            SUM(events), 0, SUM(bounces), SUM(duration_s)
         FROM imported_rollups WHERE website_id = ?1 AND {imported_day} >= ?2 / 1000 AND {imported_day} < ?3 / 1000
         GROUP BY dim, b, value {UPSERT}"
    ));
    let mut rows = 0u64;
    for sql in &statements {
        tx.execute(sql, params![site, from, to])?;
    }
    rows += tx.query_row(
        "SELECT COUNT(*) FROM rollup_hours WHERE website_id = ?1 AND bucket >= ?2 AND bucket < ?3",
        params![site, b_from, b_to],
        |r| r.get::<_, i64>(0),
    )? as u64;
    rows += days_of_hours(tx, site, tz, from, to)?;
    Ok(rows)
}

/// Adds up the rebuilt hours of [from, to) (whole local days) into their local days.
fn days_of_hours(tx: &Connection, site: WebsiteId, tz: chrono_tz::Tz, from: Millis, to: Millis) -> Result<u64> {
    let (b_from, b_to) = (from / 1000, to / 1000);
    if tz == chrono_tz::Tz::UTC {
        return Ok(tx.execute(
            "INSERT INTO rollup_days (website_id, dim, bucket, value, pageviews, visits, visitors, events,
                conversions, bounces, duration_s)
             SELECT website_id, dim, (bucket / 86400) * 86400 AS d, value, SUM(pageviews), SUM(visits), SUM(visitors),
                SUM(events), SUM(conversions), SUM(bounces), SUM(duration_s)
             FROM rollup_hours WHERE website_id = ?1 AND bucket >= ?2 AND bucket < ?3 GROUP BY dim, d, value",
            params![site, b_from, b_to],
        )? as u64);
    }
    // Each local day's [start, end) in seconds: a DST day is 23 or 25 hours, so days are matched by their span.
    tx.execute_batch(
        "CREATE TEMP TABLE IF NOT EXISTS rebuild_days (start INTEGER PRIMARY KEY, end INTEGER NOT NULL);
         DELETE FROM temp.rebuild_days;",
    )?;
    {
        let mut insert = tx.prepare_cached("INSERT INTO temp.rebuild_days (start, end) VALUES (?1, ?2)")?;
        let mut day = local_time::date_of(tz, from);
        let mut start = from;
        while start < to {
            day = day + chrono::Days::new(1);
            let end = local_time::midnight(tz, day);
            insert.execute(params![start / 1000, end / 1000])?;
            start = end;
        }
    }
    let rows = tx.execute(
        "INSERT INTO rollup_days (website_id, dim, bucket, value, pageviews, visits, visitors, events,
            conversions, bounces, duration_s)
         SELECT h.website_id, h.dim, d.start, h.value, SUM(h.pageviews), SUM(h.visits), SUM(h.visitors),
            SUM(h.events), SUM(h.conversions), SUM(h.bounces), SUM(h.duration_s)
         FROM rollup_hours h JOIN temp.rebuild_days d ON h.bucket >= d.start AND h.bucket < d.end
         WHERE h.website_id = ?1 AND h.bucket >= ?2 AND h.bucket < ?3 GROUP BY h.dim, d.start, h.value",
        params![site, b_from, b_to],
    )? as u64;
    tx.execute("DELETE FROM temp.rebuild_days", [])?;
    Ok(rows)
}

/// The first and last instants of a site's raw rows and imported days (now, when it has none).
fn data_span(tx: &Connection, site: WebsiteId) -> Result<(Millis, Millis)> {
    let (first, last): (Option<Millis>, Option<Millis>) = tx.query_row(
        "SELECT MIN(t), MAX(t) FROM (
            SELECT MIN(first_seen) AS t FROM sessions WHERE website_id = ?1
            UNION ALL SELECT MAX(last_seen) FROM sessions WHERE website_id = ?1
            UNION ALL SELECT MIN(ts) FROM events WHERE website_id = ?1
            UNION ALL SELECT MAX(ts) FROM events WHERE website_id = ?1
            UNION ALL SELECT MIN(bucket) * 1000 FROM imported_rollups WHERE website_id = ?1
            UNION ALL SELECT MAX(bucket) * 1000 FROM imported_rollups WHERE website_id = ?1
            UNION ALL SELECT MIN(bucket) * 1000 FROM rollup_hours WHERE website_id = ?1
            UNION ALL SELECT MAX(bucket) * 1000 FROM rollup_hours WHERE website_id = ?1)",
        [site],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?;
    let now = crate::model::now_ms();
    Ok((first.unwrap_or(now), last.unwrap_or(now)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Config;
    use crate::Tracker;
    use crate::ingest::{Client, EventKind, Hit, Submitted};
    use crate::store::websites::NewWebsite;

    type Row = (String, i64, String, [i64; 7]);

    fn rollups(conn: &Connection, table: &str) -> Vec<Row> {
        let mut stmt = conn
            .prepare(&format!(
                "SELECT dim, bucket, value, pageviews, visits, visitors, events, conversions, bounces, duration_s
                 FROM {table} WHERE pageviews + visits + visitors + events + conversions + bounces + duration_s <> 0
                 ORDER BY dim, bucket, value"
            ))
            .unwrap();
        stmt.query_map([], |r| {
            let mut c = [0i64; 7];
            for (i, v) in c.iter_mut().enumerate() {
                *v = r.get(3 + i)?;
            }
            Ok((r.get(0)?, r.get(1)?, r.get(2)?, c))
        })
        .unwrap()
        .map(Result::unwrap)
        .collect()
    }

    /// The rebuild reproduces, from raw rows, exactly what the ingest writer accumulated hit by hit.
    #[test]
    fn rebuilt_rollups_equal_the_writers() {
        let dir = tempfile::tempdir().unwrap();
        let config = Config { data_dir: dir.path().to_path_buf(), ..Config::default() };
        let tracker = Tracker::open(&config).unwrap();
        let user = tracker.auth.create_user("a@example.com", "secret1").unwrap();
        let site = tracker
            .websites
            .create(user.id, NewWebsite { name: "S".into(), domain: "s.example.com".into(), tracking_level: None })
            .unwrap();
        let day0 = 1_700_000_000_000 / DAY_MS * DAY_MS;
        let mut commits = Vec::new();
        for s in 0..40i64 {
            let client = Client {
                ip: format!("198.18.0.{}", s % 7).parse().unwrap(),
                user_agent: if s % 2 == 0 { "Mozilla/5.0 Chrome/1" } else { "Mozilla/5.0 Mobile Firefox/1" }.into(),
                do_not_track: false,
            };
            let mut ts = day0 + (s % 3) * DAY_MS + s * 1_731_000;
            for step in 0..(s % 4 + 1) {
                let kind = match (s + step) % 5 {
                    _ if step == 0 => EventKind::Pageview,
                    1 => EventKind::Custom,
                    2 => EventKind::Conversion,
                    3 => EventKind::Outbound,
                    _ => EventKind::Pageview,
                };
                let hit = Hit {
                    website_id: site.id,
                    session_key: format!("session{s:04}"),
                    ts,
                    kind: Some(kind),
                    name: if kind == EventKind::Pageview { String::new() } else { format!("e{}", s % 3) },
                    url: format!("https://s.example.com/p{}", (s + step) % 4),
                    path: format!("/p{}", (s + step) % 4),
                    referrer_host: ["", "google.com", "t.co"][(s % 3) as usize].into(),
                    country: ["US", "DE", ""][(s % 3) as usize].into(),
                    value: (kind == EventKind::Conversion).then_some(10.0),
                    ..Hit::default()
                };
                match tracker.ingest.track_hit(hit, &client).unwrap() {
                    Submitted::Queued(commit) => commits.push(commit),
                    Submitted::Ignored => panic!("not a bot"),
                }
                ts += 47_000;
            }
        }
        for commit in commits {
            commit.wait_blocking().unwrap();
        }
        let mut conn = tracker.db().connect().unwrap();
        let written = (rollups(&conn, "rollup_hours"), rollups(&conn, "rollup_days"));
        assert!(written.0.len() > 50);
        let tx = conn.transaction().unwrap();
        rebuild_rollups(&tx, site.id, day0 - DAY_MS, day0 + 5 * DAY_MS).unwrap();
        tx.commit().unwrap();
        let rebuilt = (rollups(&conn, "rollup_hours"), rollups(&conn, "rollup_days"));
        assert_eq!(written, rebuilt);

        // Deleting every page view of a day and rebuilding agrees with the raw rows left.
        let report = tracker.privacy.delete_data(site.id, DataType::Pageviews, Some(day0 + DAY_MS)).unwrap();
        assert!(report.pageviews > 0 && report.events == 0);
        let left: i64 =
            conn.query_row("SELECT COUNT(*) FROM events WHERE kind = 'pageview'", [], |r| r.get(0)).unwrap();
        let rolled: i64 =
            conn.query_row("SELECT SUM(pageviews) FROM rollup_days WHERE dim = ''", [], |r| r.get(0)).unwrap();
        assert_eq!(left, rolled);
    }
}
