//! Adds heatmap interactions to a seeded folder (`seed-interactions`): clicks with selectors and offsets, mouse
//! moves, scroll depths and form-field events, in proportion to its page views and stamped just after each,
//! so the heatmap benchmark reads the points a real site would have. The interactions ingest accepts points
//! at most a day old, so history is written straight into the tables, one day per transaction.

use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::Context;
use rusqlite::{Connection, params};
use tracker_core::{Config, Tracker};

const DAY_MS: i64 = 86_400_000;

/// A page view's pseudo-random number 0..1000, fixed by its id (the same folder always gets the same points).
const H: &str = "((e.id * 2654435761) >> 8) % 1000";

/// Per page view: a click for 60% of them and a second one for 20% (selector from a fixed set, 90% with an
/// offset inside the element), a sampled mouse move for 50%, one scroll depth each; on /signup and /contact,
/// half the views fill a form's two fields (focus, change, blur each), a fifth of those leave after the first.
fn statements() -> Vec<String> {
    let views = format!(
        "SELECT e.id, e.website_id, e.session_id, e.path, e.ts, {H} AS h,
                CASE WHEN e.id % 3 = 0 THEN 390 ELSE 1280 END AS w,
                CASE WHEN e.id % 3 = 0 THEN 5200 ELSE 3000 END AS ph,
                CASE WHEN e.id % 3 = 0 THEN 844 ELSE 800 END AS vh
         FROM events e
         WHERE e.website_id IN (SELECT id FROM websites) AND e.ts >= ?1 AND e.ts < ?2 AND e.kind = 'pageview'"
    );
    let selector = "CASE h % 8 WHEN 0 THEN '#buy' WHEN 1 THEN 'nav > a:nth-child(2)' WHEN 2 THEN 'header .logo'
        WHEN 3 THEN 'main h1' WHEN 4 THEN '.plan:nth-child(2) button' WHEN 5 THEN 'footer a' WHEN 6 THEN 'main p'
        ELSE '' END";
    let click = |nth: i64, share: i64| {
        format!(
            "INSERT INTO heatmap_points (website_id, session_id, path, ts, kind, x, y, page_w, page_h, viewport_w,
                 viewport_h, selector, offset_x, offset_y)
             SELECT website_id, session_id, path, ts + 2000 + (h * 37 + {nth} * 4000) % 20000, 'click',
                 (h * 7 + {nth} * 131) % w, (h * 13 + {nth} * 57) % (ph * (1 + h % 3) / 3), w, ph, w, vh, {selector},
                 CASE WHEN h % 10 = 9 THEN NULL ELSE ((h + {nth}) % 20) / 20.0 END,
                 CASE WHEN h % 10 = 9 THEN NULL ELSE ((h / 20 + {nth}) % 20) / 20.0 END
             FROM ({views}) WHERE h % 100 < {share}"
        )
    };
    vec![
        click(0, 60),
        click(1, 20),
        format!(
            "INSERT INTO heatmap_points (website_id, session_id, path, ts, kind, x, y, page_w, page_h, viewport_w,
                 viewport_h)
             SELECT website_id, session_id, path, ts + 1000 + h * 11, 'move', (h * 29) % w, (h * 3) % vh, w, ph, w, vh
             FROM ({views}) WHERE h % 100 BETWEEN 30 AND 79"
        ),
        format!(
            "INSERT OR IGNORE INTO scroll_depths (website_id, session_id, pageview_id, path, ts, depth)
             SELECT website_id, session_id, id, path, ts + 30000, (h * 7) % 101 FROM ({views})"
        ),
        format!(
            "WITH f(field, kind, filled, dt) AS (VALUES ('#email', 'focus', 0, 1000), ('#email', 'change', 1, 4000),
                 ('#email', 'blur', 1, 4500), ('#password', 'focus', 0, 5000), ('#password', 'change', 1, 9000),
                 ('#password', 'blur', 1, 9500))
             INSERT INTO form_field_events (website_id, session_id, path, ts, form, field, kind, filled)
             SELECT v.website_id, v.session_id, v.path, v.ts + f.dt, 'form#signup', f.field, f.kind, f.filled
             FROM ({views}) v, f
             WHERE v.path IN ('/signup', '/contact') AND v.h % 2 = 0 AND (f.dt < 5000 OR v.h % 10 != 0)"
        ),
    ]
}

/// Adds the interactions of every page view in the folder and prints how many rows of each it wrote.
pub fn seed(data_dir: &Path) -> anyhow::Result<Duration> {
    // Opening the tracker brings the folder's schema up to date first.
    drop(Tracker::open(&Config { data_dir: data_dir.to_path_buf(), ..Config::default() })?);
    let started = Instant::now();
    let mut conn = Connection::open(crate::daemon::database(data_dir))?;
    let (first, last): (Option<i64>, Option<i64>) =
        conn.query_row("SELECT MIN(ts), MAX(ts) FROM events", [], |r| Ok((r.get(0)?, r.get(1)?)))?;
    let (Some(first), Some(last)) = (first, last) else { anyhow::bail!("the folder has no events: seed it first") };
    let statements = statements();
    let mut day = first.div_euclid(DAY_MS) * DAY_MS;
    while day <= last {
        let tx = conn.transaction()?;
        for sql in &statements {
            tx.execute(sql, params![day, day + DAY_MS]).with_context(|| format!("adding interactions: {sql}"))?;
        }
        tx.commit()?;
        day += DAY_MS;
    }
    for (what, sql) in [
        ("clicks", "SELECT COUNT(*) FROM heatmap_points WHERE kind = 'click'"),
        ("moves", "SELECT COUNT(*) FROM heatmap_points WHERE kind = 'move'"),
        ("scroll depths", "SELECT COUNT(*) FROM scroll_depths"),
        ("form field events", "SELECT COUNT(*) FROM form_field_events"),
    ] {
        let n: i64 = conn.query_row(sql, [], |r| r.get(0))?;
        println!("{what}: {n}");
    }
    Ok(started.elapsed())
}
