//! Tests of `point_hours`.

use super::*;
use crate::analytics::heatmap::{ClickCell, ElementClick, Heatmap, MAX_CELLS, MAX_MOVES, Position};
use crate::analytics::stored_hours::LATE_HIT_MS;
use crate::ingest::interactions::{ClickIn, MoveIn, Size};
use crate::ingest::{InteractionsRequest, Submitted};
use crate::model::{TrackingLevel, now_ms};
use crate::store::websites::NewWebsite;
use crate::testing::{client, one_site, rows};
use crate::tracker::Tracker;

const PAGES: [&str; 3] = ["/", "/pricing", "/signup"];
const SELECTORS: [&str; 4] = ["#buy", "nav > a:nth-child(2)", "footer a", ""];

/// One interactions body of visitor `v` on a page, its clicks stamped `clicked` (ms, client time).
fn body(key: &str, v: i64, clicked: Millis) -> InteractionsRequest {
    let (w, h) = if v % 3 == 0 { (390.0, 4200.0 + v as f64) } else { (1400.0, 2600.0 + v as f64) };
    InteractionsRequest {
        tracking_key: key.into(),
        session_id: format!("visitor-{v:03}"),
        url: format!("https://p.example.com{}", PAGES[(v % 3) as usize]),
        viewport: Size { w, h: 800.0 },
        page: Size { w, h },
        clicks: (0..(v % 4 + 1))
            .map(|c| ClickIn {
                x: ((v * 37 + c * 11) % w as i64) as f64,
                y: ((v * 53 + c * 7) % 900) as f64,
                selector: Some(SELECTORS[((v + c) % 4) as usize].into()),
                ox: (v % 5 != 0).then(|| ((v + c) % 10) as f64 / 10.0),
                oy: (v % 5 != 0).then(|| ((v * c) % 7) as f64 / 7.0),
                t: Some(clicked + c * 1_000),
            })
            .collect(),
        moves: (0..(v % 3)).map(|m| MoveIn { x: (m * 40 + v) as f64, y: (v * 9) as f64 }).collect(),
        submits: Vec::new(),
        fields: Vec::new(),
        scroll_depth: Some(((v * 17) % 101) as f64),
    }
}

fn send(tracker: &Tracker, bodies: impl IntoIterator<Item = InteractionsRequest>) {
    let commits: Vec<_> = bodies
        .into_iter()
        .map(|b| match tracker.ingest.interactions(b, &client("198.18.0.4", "Mozilla/5.0 Chrome/1")).unwrap() {
            Submitted::Queued(commit) => commit,
            Submitted::Ignored => panic!("a test body was ignored"),
        })
        .collect();
    for commit in commits {
        commit.wait_blocking().unwrap();
    }
}

/// The point figures of a page straight from the raw rows, as API.md defines them.
#[allow(clippy::type_complexity)]
fn raw(
    conn: &Connection,
    site: WebsiteId,
    path: &str,
    range: TimeRange,
) -> (Vec<ClickCell>, Vec<ElementClick>, Vec<(i64, i64)>, i64, Vec<Position>) {
    let args = params![site, path, range.start, range.end];
    let mut stmt = conn
        .prepare(
            "SELECT MIN(x * 1280 / page_w, 1279) / 10 * 10 + 5 AS cx, y / 10 * 10 + 5 AS cy, COUNT(*) AS n
             FROM heatmap_points WHERE website_id = ?1 AND path = ?2 AND ts >= ?3 AND ts < ?4 AND kind = 'click'
             GROUP BY cx, cy ORDER BY n DESC, cy, cx",
        )
        .unwrap();
    let mut cells: Vec<ClickCell> = stmt
        .query_map(args, |r| Ok(ClickCell { x: r.get(0)?, y: r.get(1)?, count: r.get(2)? }))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    cells.truncate(MAX_CELLS as usize);
    let mut stmt = conn
        .prepare(
            "SELECT selector, COALESCE(CAST(ROUND(offset_x * 20) AS INTEGER), -1) AS bx,
                    COALESCE(CAST(ROUND(offset_y * 20) AS INTEGER), -1) AS by,
                    CASE WHEN offset_x IS NULL THEN CAST(x * 200.0 / page_w AS INTEGER) ELSE -1 END AS px,
                    CASE WHEN offset_x IS NULL THEN CAST(y * 200.0 / page_h AS INTEGER) ELSE -1 END AS py,
                    SUM(CAST(ROUND(MIN(CAST(x AS REAL) / page_w, 1.0) * 1000000) AS INTEGER)),
                    SUM(CAST(ROUND(MIN(CAST(y AS REAL) / page_h, 1.0) * 1000000) AS INTEGER)), COUNT(*) AS n
             FROM heatmap_points WHERE website_id = ?1 AND path = ?2 AND ts >= ?3 AND ts < ?4 AND kind = 'click'
             GROUP BY selector, bx, by, px, py ORDER BY n DESC, selector, bx, by, px, py",
        )
        .unwrap();
    let mut elements: Vec<ElementClick> = stmt
        .query_map(args, |r| {
            let (bx, by, n): (i64, i64, i64) = (r.get(1)?, r.get(2)?, r.get(7)?);
            Ok(ElementClick {
                selector: r.get(0)?,
                offset_x: (bx >= 0).then(|| bx as f64 / 20.0),
                offset_y: (by >= 0).then(|| by as f64 / 20.0),
                page_x: r.get::<_, i64>(5)? as f64 / n as f64 / 1e6,
                page_y: r.get::<_, i64>(6)? as f64 / n as f64 / 1e6,
                count: n,
            })
        })
        .unwrap()
        .map(Result::unwrap)
        .collect();
    elements.truncate(MAX_CELLS as usize);
    let mut stmt = conn
        .prepare(
            "SELECT depth / 10 * 10, COUNT(*) FROM scroll_depths
             WHERE website_id = ?1 AND path = ?2 AND ts >= ?3 AND ts < ?4 GROUP BY depth / 10 ORDER BY 1",
        )
        .unwrap();
    let deciles = stmt.query_map(args, |r| Ok((r.get(0)?, r.get(1)?))).unwrap().map(Result::unwrap).collect();
    let height = conn
        .query_row(
            "SELECT COALESCE(MAX(page_h * 1280 / page_w), 0) FROM heatmap_points
             WHERE website_id = ?1 AND path = ?2 AND ts >= ?3 AND ts < ?4",
            args,
            |r| r.get(0),
        )
        .unwrap();
    let mut stmt = conn
        .prepare(
            "SELECT MIN(x * 1280 / page_w, 1280), y FROM heatmap_points
             WHERE website_id = ?1 AND path = ?2 AND ts >= ?3 AND ts < ?4 AND kind = 'move'
             ORDER BY ts DESC, id DESC LIMIT ?5",
        )
        .unwrap();
    let moves = stmt
        .query_map(params![site, path, range.start, range.end, MAX_MOVES], |r| {
            Ok(Position { x: r.get(0)?, y: r.get(1)? })
        })
        .unwrap()
        .map(Result::unwrap)
        .collect();
    (cells, elements, deciles, height, moves)
}

fn assert_matches_raw(tracker: &Tracker, site: WebsiteId, what: &str) {
    assert_ranges_match_raw(tracker, site, &["1d", "7d"], what);
}

fn assert_ranges_match_raw(tracker: &Tracker, site: WebsiteId, ranges: &[&str], what: &str) {
    for &name in ranges {
        let range = TimeRange::parse(name, now_ms()).unwrap();
        for path in PAGES {
            // Twice: the first read may store hours, the second reads them.
            for _ in 0..2 {
                let Heatmap { clicks, element_clicks, scroll_depth, mouse_movements, reference_height, .. } =
                    tracker.analytics().heatmap(site, path, range).unwrap();
                let (cells, elements, deciles, height, moves) =
                    tracker.db().read(|c| Ok(raw(c, site, path, range))).unwrap();
                assert_eq!(clicks, cells, "{what}, {name}, {path}: click cells");
                assert_eq!(element_clicks, elements, "{what}, {name}, {path}: element clicks");
                assert_eq!(reference_height, height, "{what}, {name}, {path}: reference height");
                assert_eq!(mouse_movements, moves, "{what}, {name}, {path}: moves");
                // Reach at each decile is the views at it or deeper.
                let total: i64 = deciles.iter().map(|d| d.1).sum();
                let reach: Vec<(i64, i64)> = (0..=10)
                    .map(|d| (d * 10, total - deciles.iter().filter(|x| x.0 < d * 10).map(|x| x.1).sum::<i64>()))
                    .filter(|_| total > 0)
                    .collect();
                let got: Vec<(i64, i64)> = scroll_depth.iter().map(|s| (s.depth, s.visitors)).collect();
                assert_eq!(got, reach, "{what}, {name}, {path}: scroll reach");
            }
        }
    }
}

/// Clicks stamped over the last day (as a client sends them), moves and scroll depths now: the stored hours
/// plus the open ones equal a raw read, before and after late clicks into stored hours and an erasure.
#[test]
fn stored_point_hours_equal_a_raw_read() {
    let fixture = one_site();
    let tracker = &fixture.tracker;
    let new =
        NewWebsite { name: "P".into(), domain: "p.example.com".into(), tracking_level: Some(TrackingLevel::Enhanced) };
    let website = tracker.websites.create(fixture.user.id, new).unwrap();
    let (site, key) = (website.id, website.tracking_key.as_str());
    let now = now_ms();
    send(tracker, (0..120).map(|v| body(key, v, now - 23 * HOUR_MS + v * 11 * 60_000)));
    assert_matches_raw(tracker, site, "seeded");
    let stored = rows(tracker, "point_hours_stored");
    assert!(stored >= 20, "{stored} hours stored");
    assert!(rows(tracker, "click_cell_hours") > 0 && rows(tracker, "element_click_hours") > 0);

    // Late clicks of new visitors into stored hours (the interactions ingest forgets those hours).
    let late = now - 5 * HOUR_MS;
    assert!(late + 40 * 60_000 < now - LATE_HIT_MS);
    send(tracker, (200..240).map(|v| body(key, v, late + (v - 200) * 60_000)));
    assert_matches_raw(tracker, site, "after late clicks");

    // A visitor erased: their clicks in stored hours go (forget_stored_hours).
    tracker.privacy.delete_visitor(site, "visitor-013").unwrap();
    assert_matches_raw(tracker, site, "after an erasure");
}

/// Retention deletes the points before its cut-off: only the hours it could have changed are forgotten, the
/// later stored hours stay (each is a day's worth of counting at 10M events).
#[test]
fn retention_forgets_only_the_point_hours_before_its_cutoff() {
    let fixture = one_site();
    let tracker = &fixture.tracker;
    let new =
        NewWebsite { name: "P".into(), domain: "p.example.com".into(), tracking_level: Some(TrackingLevel::Enhanced) };
    let website = tracker.websites.create(fixture.user.id, new).unwrap();
    let (site, key) = (website.id, website.tracking_key.as_str());
    let now = now_ms();
    send(tracker, (0..60).map(|v| body(key, v, now - 23 * HOUR_MS + v * 22 * 60_000)));
    let range = TimeRange::parse("1d", now).unwrap();
    tracker.analytics().heatmap(site, PAGES[0], range).unwrap();
    let stored_from = |from: Millis| -> Vec<Millis> {
        let sql = "SELECT hour FROM point_hours_stored WHERE website_id = ?1 AND hour >= ?2 ORDER BY hour";
        tracker
            .db()
            .read(|c| {
                Ok(c.prepare(sql)?.query_map(params![site, from], |r| r.get(0))?.collect::<rusqlite::Result<_>>()?)
            })
            .unwrap()
    };
    // Heatmaps are kept 30 days: a run 30 days less 12 hours from now cuts 12 hours back.
    let cutoff = now - 12 * HOUR_MS;
    let after_cutoff = stored_from((cutoff.div_euclid(HOUR_MS) + 1) * HOUR_MS);
    assert!(after_cutoff.len() >= 10, "{} hours stored after the cut-off", after_cutoff.len());
    let report = tracker.privacy.apply_retention_at(cutoff + 30 * 24 * HOUR_MS).unwrap();
    assert!(report.total["heatmaps"] > 0, "{report:?}");
    assert_eq!(stored_from((cutoff.div_euclid(HOUR_MS) + 1) * HOUR_MS), after_cutoff, "hours after the cut-off");
    assert!(stored_from(Millis::MIN).len() < 24 - 2, "the hours before the cut-off are forgotten");
    assert_matches_raw(tracker, site, "after retention");
}

/// The stored days of a site, oldest first.
fn days_stored(tracker: &Tracker, site: WebsiteId) -> Vec<Millis> {
    let sql = "SELECT day FROM point_days_stored WHERE website_id = ?1 ORDER BY day";
    tracker
        .db()
        .read(|c| Ok(c.prepare(sql)?.query_map([site], |r| r.get(0))?.collect::<rusqlite::Result<_>>()?))
        .unwrap()
}

/// Page views over the last six days and points written beside them (as the load generator does: the
/// interactions ingest takes points a day old at most). Reads over whole stored days equal a raw read, and a
/// late point, an erasure and retention each forget the days they change.
#[test]
fn stored_point_days_equal_a_raw_read_and_go_with_their_hours() {
    let fixture = one_site();
    let tracker = &fixture.tracker;
    let new =
        NewWebsite { name: "P".into(), domain: "p.example.com".into(), tracking_level: Some(TrackingLevel::Enhanced) };
    let site = tracker.websites.create(fixture.user.id, new).unwrap().id;
    let now = now_ms();
    crate::testing::send_from(
        tracker,
        (0..160i64).map(|v| {
            let path = PAGES[(v % 3) as usize];
            let hit = crate::ingest::Hit {
                website_id: site,
                session_key: format!("visitor-{v:03}"),
                ts: now - 6 * DAY_MS + v * 53 * 60_000,
                kind: Some(crate::ingest::EventKind::Pageview),
                url: format!("https://p.example.com{path}"),
                path: path.into(),
                ..crate::ingest::Hit::default()
            };
            (hit, client(&format!("198.18.{}.{}", v % 7, v % 13), "Mozilla/5.0 Chrome/1"))
        }),
    );
    let views = "FROM events WHERE website_id = ?1 AND kind = 'pageview'";
    tracker
        .db()
        .write(|c| {
            for nth in 0..3 {
                c.execute(
                    &format!(
                        "INSERT INTO heatmap_points (website_id, session_id, path, ts, kind, x, y, page_w, page_h,
                             viewport_w, viewport_h, selector, offset_x, offset_y)
                         SELECT website_id, session_id, path, ts + 2000 + ?2 * 4000,
                             CASE WHEN (id + ?2) % 4 = 3 THEN 'move' ELSE 'click' END, (id * 37 + ?2 * 11) % 1400,
                             (id * 53 + ?2 * 7) % 900, CASE WHEN id % 3 = 0 THEN 390 ELSE 1400 END, 2600 + id % 7,
                             1400, 800, CASE (id + ?2) % 4 WHEN 0 THEN '#buy' WHEN 1 THEN 'footer a' ELSE '' END,
                             CASE WHEN id % 5 = 0 THEN NULL ELSE ((id + ?2) % 10) / 10.0 END,
                             CASE WHEN id % 5 = 0 THEN NULL ELSE (id % 7) / 7.0 END
                         {views}"
                    ),
                    params![site, nth],
                )?;
            }
            c.execute(
                &format!(
                    "INSERT INTO scroll_depths (website_id, session_id, pageview_id, path, ts, depth)
                     SELECT website_id, session_id, id, path, ts + 30000, (id * 17) % 101 {views}"
                ),
                [site],
            )?;
            Ok(())
        })
        .unwrap();
    let ranges = ["7d", "30d"];
    assert_ranges_match_raw(tracker, site, &ranges, "seeded");
    let days = days_stored(tracker, site);
    assert!(days.len() >= 20, "{} days stored", days.len());
    assert!(rows(tracker, "point_days") >= 3 * 4, "the pages' days with points");
    let day_of = |ts: Millis| ts.div_euclid(DAY_MS) * DAY_MS;

    // A late click three days back (stored by the ingest writer's own insert, which forgets what it changes).
    let late = now - 3 * DAY_MS;
    assert!(days.contains(&day_of(late)));
    tracker
        .db()
        .write(|c| {
            let tx = c.transaction()?;
            let session: i64 =
                tx.query_row("SELECT MIN(id) FROM sessions WHERE website_id = ?1", [site], |r| r.get(0))?;
            let point = crate::ingest::interactions::Point {
                kind: crate::ingest::interactions::PointKind::Click,
                x: 700,
                y: 420,
                ts: late,
                selector: "#late".into(),
                offset: Some((0.5, 0.5)),
            };
            let interactions = crate::ingest::interactions::Interactions {
                visit: crate::ingest::Hit { website_id: site, path: "/pricing".into(), ts: late, ..Default::default() },
                viewport: (1400, 800),
                page: (1400, 2600),
                points: vec![point],
                fields: Vec::new(),
                scroll_depth: None,
            };
            crate::store::interactions::insert(&tx, session, &interactions)?;
            tx.commit()?;
            Ok(())
        })
        .unwrap();
    assert!(!days_stored(tracker, site).contains(&day_of(late)), "the late click's day is forgotten");
    assert_ranges_match_raw(tracker, site, &ranges, "after a late click");
    assert!(days_stored(tracker, site).contains(&day_of(late)), "and stored again by the next read");

    // A visitor erased: their points' days go (forget_stored_hours).
    let erased = now - 6 * DAY_MS + 40 * 53 * 60_000;
    tracker.privacy.delete_visitor(site, "visitor-040").unwrap();
    assert!(!days_stored(tracker, site).contains(&day_of(erased)), "the erased visitor's day is forgotten");
    assert_ranges_match_raw(tracker, site, &ranges, "after an erasure");

    // Retention cuts in the middle of a stored day (heatmaps are kept 30 days): that day goes, later ones stay.
    let days = days_stored(tracker, site);
    let cutoff = day_of(now - 2 * DAY_MS) + DAY_MS / 2;
    let report = tracker.privacy.apply_retention_at(cutoff + 30 * DAY_MS).unwrap();
    assert!(report.total["heatmaps"] > 0, "{report:?}");
    let kept = days_stored(tracker, site);
    assert!(!kept.contains(&day_of(cutoff)), "the cut-off's day is forgotten");
    assert_eq!(kept, days.into_iter().filter(|day| *day > cutoff).collect::<Vec<_>>(), "the later days stay");
    assert_ranges_match_raw(tracker, site, &ranges, "after retention");
}
