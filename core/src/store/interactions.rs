//! Heatmap points, form-field events and scroll depths: the ingest writer stores a validated interactions body.

use rusqlite::{Connection, OptionalExtension, params};

use crate::analytics::stored_hours::{LATE_HIT_MS, forget_point_hours};
use crate::ingest::interactions::Interactions;
use crate::model::now_ms;

/// Stores the points of one body for a visit, and raises the scroll depth of the page view they belong to
/// (the visit's latest page view of that path). Points stamped late (clicks and submits carry the client's
/// time, up to a day back) forget the stored heatmap hours they fall in.
pub(crate) fn insert(tx: &Connection, session: i64, interactions: &Interactions) -> rusqlite::Result<()> {
    let visit = &interactions.visit;
    let late_before = now_ms() - LATE_HIT_MS;
    let forget_if_late =
        |ts: i64| if ts < late_before { forget_point_hours(tx, visit.website_id, ts, ts + 1) } else { Ok(()) };
    for point in &interactions.points {
        forget_if_late(point.ts)?;
    }
    let (page_w, page_h) = interactions.page;
    let (viewport_w, viewport_h) = interactions.viewport;
    let mut stmt = tx.prepare_cached(
        "INSERT INTO heatmap_points (website_id, session_id, path, ts, kind, x, y, page_w, page_h, viewport_w,
            viewport_h, selector, offset_x, offset_y)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)",
    )?;
    for point in &interactions.points {
        stmt.execute(params![
            visit.website_id,
            session,
            visit.path,
            point.ts,
            point.kind.as_str(),
            point.x,
            point.y,
            page_w,
            page_h,
            viewport_w,
            viewport_h,
            point.selector,
            point.offset.map(|o| o.0),
            point.offset.map(|o| o.1),
        ])?;
    }
    let mut stmt = tx.prepare_cached(
        "INSERT INTO form_field_events (website_id, session_id, path, ts, form, field, kind, filled)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
    )?;
    for f in &interactions.fields {
        stmt.execute(params![visit.website_id, session, visit.path, f.ts, f.form, f.field, f.kind.as_str(), f.filled])?;
    }
    if let Some(depth) = interactions.scroll_depth {
        let pageview: i64 = tx
            .prepare_cached(
                "SELECT id FROM events WHERE session_id = ?1 AND kind = 'pageview' AND path = ?2
                 ORDER BY ts DESC, id DESC LIMIT 1",
            )?
            .query_row(params![session, visit.path], |r| r.get(0))
            .optional()?
            .unwrap_or(0);
        // Raising a page view's depth moves its row to the current hour: the hour it leaves changes too.
        let earlier: Option<i64> = tx
            .prepare_cached("SELECT ts FROM scroll_depths WHERE session_id = ?1 AND path = ?2 AND pageview_id = ?3")?
            .query_row(params![session, visit.path, pageview], |r| r.get(0))
            .optional()?;
        for ts in earlier.into_iter().chain([visit.ts]) {
            forget_if_late(ts)?;
        }
        tx.prepare_cached(
            "INSERT INTO scroll_depths (website_id, session_id, pageview_id, path, ts, depth)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)
             ON CONFLICT (session_id, path, pageview_id) DO UPDATE SET
                depth = MAX(depth, excluded.depth), ts = excluded.ts",
        )?
        .execute(params![visit.website_id, session, pageview, visit.path, visit.ts, depth])?;
    }
    Ok(())
}
