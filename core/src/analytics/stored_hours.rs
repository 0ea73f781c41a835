//! The one door for forgetting the per-hour aggregates that reads store from raw rows: `visit_hours` and
//! `funnel_hours` (funnels, journeys), Advanced Analytics' hours and the heatmap's `page_hours`. Whatever
//! changes raw visits or events (the ingest writer's late hits, deletions, visitor erasure, retention,
//! imports) calls [`forget_stored_hours`] for the visits it changed, so no cache is left out.

use rusqlite::{Connection, Transaction, TransactionBehavior};

use super::visit_hours::{self, HOUR_MS, VISIT_IDLE_MS};
use crate::error::Error;
use crate::model::{Millis, WebsiteId};

const DAY_MS: Millis = 86_400_000;

/// A hit or interaction stamped this long before the writer stores it is late: it forgets the stored hours it
/// changes. Later ones forget nothing, which the settledness rule below makes safe.
pub const LATE_HIT_MS: Millis = 10 * 60 * 1000;
/// The one settledness rule of every stored-hour cache: an hour is stored once it ended, and every visit it
/// counts was last seen, this long ago. It exceeds the visit timeout plus [`LATE_HIT_MS`] (with slack for a
/// batch in flight), so a hit that is not late can neither continue a visit of a stored hour nor fall into one.
pub const SETTLED_MS: Millis = 45 * 60 * 1000;
const _: () = assert!(SETTLED_MS > VISIT_IDLE_MS + LATE_HIT_MS);
/// Stores one day of a cache: `store` counts the day from the raw rows and writes the result. Counting takes a
/// while on a big site, so it runs first in a read snapshot without the write lock, which the first write then
/// takes; SQLite refuses that (SQLITE_BUSY, without waiting) when another connection holds the lock or committed
/// since the snapshot, so a forget cannot slip between count and write. Then the day is counted again under the
/// write lock. A pass of many days thus holds the lock only for its writes, and retention and the ingest writer,
/// whose busy handler polls, get their turn while it counts. Returns false when the lock could not be had within
/// the busy timeout: the reads count unstored hours from the raw rows, and the next pass stores them.
pub(crate) fn store_day(
    conn: &Connection,
    mut store: impl FnMut(&Connection) -> Result<(), Error>,
) -> Result<bool, Error> {
    let busy = |e: &Error| matches!(e, Error::Db(rusqlite::Error::SqliteFailure(f, _)) if f.code == rusqlite::ErrorCode::DatabaseBusy);
    let snapshot = Transaction::new_unchecked(conn, TransactionBehavior::Deferred)?;
    match store(&snapshot).and_then(|()| Ok(snapshot.commit()?)) {
        Err(e) if busy(&e) => {}
        done => return done.map(|()| true),
    }
    let locked = match Transaction::new_unchecked(conn, TransactionBehavior::Immediate).map_err(Error::from) {
        Ok(tx) => tx,
        Err(e) if busy(&e) => return Ok(false),
        Err(e) => return Err(e),
    };
    store(&locked)?;
    locked.commit()?;
    Ok(true)
}

/// The hours from `first_hour` (an hour's start) to `until` that `stored` lacks, grouped by UTC day: each
/// cache stores one day per write transaction, so a long first read never holds the write lock for long.
pub(crate) fn missing_by_day(
    stored: &std::collections::HashSet<Millis>,
    first_hour: Millis,
    until: Millis,
) -> std::collections::BTreeMap<Millis, Vec<Millis>> {
    let mut missing: std::collections::BTreeMap<Millis, Vec<Millis>> = std::collections::BTreeMap::new();
    let mut hour = first_hour;
    while hour < until {
        if !stored.contains(&hour) {
            missing.entry(hour.div_euclid(DAY_MS)).or_default().push(hour);
        }
        hour += HOUR_MS;
    }
    missing
}

/// Forgets, in the caller's transaction, every stored hour that counted visits of a site that started in
/// `[from, to)` (ms; `Millis::MIN` / `Millis::MAX` for no bound), or their heatmap points. Each cache widens the
/// span as its own definitions need; the next read counts those hours again from the raw rows.
pub(crate) fn forget_stored_hours(
    conn: &Connection,
    site: WebsiteId,
    from: Millis,
    to: Millis,
) -> rusqlite::Result<()> {
    if from >= to {
        return Ok(());
    }
    // Points are kept by their own time: after their visit's start however long the visit went on, or up to a
    // day before it (clicks carry the client's time, accepted a day back: ingest::accept_timestamp).
    let points_from = if from == Millis::MIN { from } else { (from - DAY_MS).div_euclid(HOUR_MS) * HOUR_MS };
    super::point_hours::forget_hours(conn, site, points_from, Millis::MAX)?;
    forget_visit_hours(conn, site, from, to)
}

/// Forgets the heatmap's point hours of `[from, to)` (ms, the points' own times): for the interactions ingest,
/// whose points may be stamped up to a day back.
pub(crate) fn forget_point_hours(conn: &Connection, site: WebsiteId, from: Millis, to: Millis) -> rusqlite::Result<()> {
    super::point_hours::forget_hours(conn, site, from, to)
}

/// As [`forget_stored_hours`], but keeps the heatmap's point hours: for a late hit, which changes a visit and
/// never a point.
pub(crate) fn forget_visit_hours(conn: &Connection, site: WebsiteId, from: Millis, to: Millis) -> rusqlite::Result<()> {
    if from >= to {
        return Ok(());
    }
    let (lower, upper) = ((from != Millis::MIN).then_some(from), (to != Millis::MAX).then_some(to));
    visit_hours::invalidate(conn, site, lower, upper)?;
    let hour_start = lower.map_or(Millis::MIN, |from| from.div_euclid(HOUR_MS) * HOUR_MS);
    let hour_end = upper.map_or(Millis::MAX, |to| ((to - 1).div_euclid(HOUR_MS) + 1) * HOUR_MS);
    super::page_hours::forget_hours(conn, site, hour_start, hour_end)?;
    // Advanced Analytics counts a visit as returning when its visitor had an earlier visit that UTC day, so
    // a changed visit changes the later visits of its day too.
    let day_end = upper.map_or(Millis::MAX, |to| ((to - 1).div_euclid(DAY_MS) + 1) * DAY_MS);
    super::advanced::forget_hours(conn, site, hour_start, day_end).map_err(|e| match e {
        Error::Db(e) => e,
        other => rusqlite::Error::ToSqlConversionFailure(Box::new(other)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analytics::heatmap::PageMetrics;
    use crate::analytics::{Advanced, TimeRange};
    use crate::ingest::{Client, EventKind, Hit};
    use crate::model::now_ms;
    use crate::testing::{OneSite, client, one_site, rows, send_from};
    use crate::tracker::Tracker;

    /// What happened to the site, in order: hits sent, or a visitor erased.
    enum Step {
        Hits(Vec<(Hit, Client)>),
        Erase(&'static str),
    }

    fn apply(tracker: &Tracker, site: WebsiteId, step: &Step) {
        match step {
            Step::Hits(hits) => send_from(
                tracker,
                hits.iter().map(|(hit, client)| (Hit { website_id: site, ..hit.clone() }, client.clone())),
            ),
            Step::Erase(visitor) => {
                tracker.privacy.delete_visitor(site, visitor).unwrap();
            }
        }
    }

    /// A day is counted in a snapshot without the write lock: when another writer commits between the count and
    /// the write (as a forget would), the write is refused and the day counted again under the lock, so what is
    /// stored is what the raw rows hold. The other writer never waited.
    #[test]
    fn a_day_counted_while_another_writer_commits_is_counted_again_under_the_lock() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.db");
        let conn = crate::db::connect(&path).unwrap();
        conn.execute_batch(
            "CREATE TABLE raw (n INTEGER); CREATE TABLE cache (total INTEGER); INSERT INTO raw VALUES (1), (2);",
        )
        .unwrap();
        let other = crate::db::connect(&path).unwrap();
        other.busy_timeout(std::time::Duration::ZERO).unwrap();
        let mut counts = 0;
        let stored = store_day(&conn, |tx| {
            counts += 1;
            let total: i64 = tx.query_row("SELECT SUM(n) FROM raw", [], |r| r.get(0))?;
            if counts == 1 {
                other.execute("DELETE FROM raw WHERE n = 2", []).unwrap();
            }
            tx.execute("INSERT INTO cache (total) VALUES (?1)", [total])?;
            Ok(())
        })
        .unwrap();
        assert!(stored);
        assert_eq!(counts, 2, "counted again under the lock");
        let cached: Vec<i64> = conn
            .prepare("SELECT total FROM cache")
            .unwrap()
            .query_map([], |r| r.get(0))
            .unwrap()
            .map(Result::unwrap)
            .collect();
        assert_eq!(cached, [1]);
    }

    const PAGES: [&str; 5] = ["/", "/pricing", "/docs", "/blog", "/signup"];

    /// The figures of the reads that store hours: Advanced Analytics, and each page's heatmap metrics.
    fn answers(tracker: &Tracker, site: WebsiteId, now: Millis) -> (Advanced, Vec<PageMetrics>) {
        let range = TimeRange::parse("7d", now).unwrap();
        let mut advanced = tracker.analytics().advanced(site, range).unwrap();
        // Scored live from the newest visits and the clock, never stored: not what this test is about.
        advanced.real_time_metrics.active_visitors = 0;
        advanced.high_intent_visitors = 0;
        let pages = PAGES.iter().map(|p| tracker.analytics().heatmap(site, p, range).unwrap().page_metrics).collect();
        (advanced, pages)
    }

    /// The answer of a tracker that went through the same steps without reading in between: every hour is
    /// counted from the raw rows.
    fn raw_answers(steps: &[Step], now: Millis) -> (Advanced, Vec<PageMetrics>) {
        let OneSite { dir: _dir, tracker, site, .. } = one_site();
        for step in steps {
            apply(&tracker, site, step);
        }
        answers(&tracker, site, now)
    }

    /// A visit of `pages` from `start`, 95 s a page, ending in a conversion when `converts`.
    fn visit(key: &str, v: i64, start: Millis, pages: &[&str], converts: bool) -> Vec<(Hit, Client)> {
        let browser = client(
            &format!("198.18.{}.{}", v % 3, v % 11),
            ["Mozilla/5.0 Chrome/1", "Mozilla/5.0 Mobile Firefox/1"][(v % 2) as usize],
        );
        let mut hits: Vec<(Hit, Client)> = pages
            .iter()
            .enumerate()
            .map(|(i, path)| Hit {
                session_key: key.into(),
                ts: start + i as i64 * 95_000,
                kind: Some(EventKind::Pageview),
                url: format!("https://s.example.com{path}"),
                path: path.to_string(),
                referrer_host: ["", "google.com", "t.co", "blog.example.org"][(v % 4) as usize].into(),
                ..Hit::default()
            })
            .map(|hit| (hit, browser.clone()))
            .collect();
        if converts {
            let last = hits.last().unwrap().0.clone();
            hits.push((
                Hit {
                    ts: last.ts + 30_000,
                    kind: Some(EventKind::Conversion),
                    name: "buy".into(),
                    value: Some(9.0),
                    ..last
                },
                browser,
            ));
        }
        hits
    }

    /// A hit stamped 5 minutes ago is not late (it forgets nothing), yet it may continue a visit that was last
    /// seen 32 minutes ago in an hour that ended more than 30 minutes ago: no cache may have stored that hour.
    #[test]
    fn a_hit_minutes_old_continuing_a_visit_of_an_ended_hour_shows_in_every_read() {
        let OneSite { dir: _dir, tracker, site, .. } = one_site();
        let now = now_ms();
        let hour_end = (now - 30 * 60_000).div_euclid(HOUR_MS) * HOUR_MS;
        let page = |ts: Millis, kind: EventKind, path: &str| Hit {
            session_key: "going-on".into(),
            ts,
            kind: Some(kind),
            name: if kind == EventKind::Conversion { "buy".into() } else { String::new() },
            value: (kind == EventKind::Conversion).then_some(9.0),
            url: format!("https://s.example.com{path}"),
            path: path.into(),
            ..Hit::default()
        };
        // The visit starts half an hour before the hour's end and goes on, a page every 20 minutes at most,
        // until 32 minutes ago.
        let mut ts = hour_end - 30 * 60_000;
        let mut hits = Vec::new();
        while ts < now - 32 * 60_000 {
            hits.push((page(ts, EventKind::Pageview, "/"), client("198.18.0.5", "Mozilla/5.0 Chrome/1")));
            ts = (ts + 20 * 60_000).min(now - 32 * 60_000);
        }
        hits.push((page(ts, EventKind::Pageview, "/docs"), client("198.18.0.5", "Mozilla/5.0 Chrome/1")));
        let mut steps = vec![Step::Hits(hits)];
        apply(&tracker, site, &steps[0]);
        let before = answers(&tracker, site, now);

        let continued = vec![
            (page(now - 5 * 60_000, EventKind::Pageview, "/pricing"), client("198.18.0.5", "Mozilla/5.0 Chrome/1")),
            (
                page(now - 5 * 60_000 + 1, EventKind::Conversion, "/pricing"),
                client("198.18.0.5", "Mozilla/5.0 Chrome/1"),
            ),
        ];
        assert!(continued[0].0.ts > now - LATE_HIT_MS, "not a late hit");
        steps.push(Step::Hits(continued));
        apply(&tracker, site, steps.last().unwrap());
        assert_eq!(rows(&tracker, "sessions"), 1, "the hit continued the visit");
        let after = answers(&tracker, site, now);
        assert_ne!(after.0, before.0, "the conversion changes the figures");
        assert_eq!(after, raw_answers(&steps, now));
    }

    /// A late hit (as the seeder or a queued offline hit sends) and a visitor's erasure, both in hours a
    /// read already stored, show in the next read exactly as if nothing had been stored.
    #[test]
    fn late_hits_and_erasures_reach_every_stored_hour() {
        let OneSite { dir: _dir, tracker, site, .. } = one_site();
        let now = now_ms();
        let start = now - 3 * DAY_MS;
        let seed: Vec<(Hit, Client)> = (0..150i64)
            .flat_map(|v| {
                let visited: Vec<&str> = (0..(v % 4 + 1)).map(|i| PAGES[((v + i * 2) % 5) as usize]).collect();
                visit(&format!("visit{v:03}"), v, start + v * 25 * 60_000, &visited, v % 3 == 0)
            })
            .collect();
        let mut steps = vec![Step::Hits(seed)];
        apply(&tracker, site, &steps[0]);
        let before = answers(&tracker, site, now);
        assert!(rows(&tracker, "advanced_hours") >= 48, "the read stored the settled hours");
        assert!(rows(&tracker, "page_hours_stored") >= 48, "the read stored the settled hours");

        // 20 hours ago (today or yesterday): a new converting visit of visit007's visitor, on a page of the top
        // five. Older days would not do: the writer drops a salt older than yesterday after its first batch, so
        // whether a late visit there matches an earlier visitor depends on how the seed was batched.
        steps.push(Step::Hits(visit("late", 7, now - 20 * HOUR_MS, &["/pricing", "/signup"], true)));
        apply(&tracker, site, steps.last().unwrap());
        let after_late = answers(&tracker, site, now);
        assert_ne!(after_late.0, before.0, "the late visit changes the figures");
        assert_ne!(after_late.1, before.1, "the late visit changes the page figures");
        assert_eq!(after_late, raw_answers(&steps, now), "after a late hit");

        // The erasure of a visitor whose visit started in a stored hour.
        steps.push(Step::Erase("visit030"));
        apply(&tracker, site, steps.last().unwrap());
        let after_erasure = answers(&tracker, site, now);
        assert_ne!(after_erasure.1, after_late.1, "the erasure changes the page figures");
        assert_eq!(after_erasure, raw_answers(&steps, now), "after an erasure");
    }
}
