//! Heatmap points, form-field events and scroll depths: the ingest writer stores a validated interactions body.

use rusqlite::{Connection, OptionalExtension, params};

use crate::ingest::interactions::Interactions;

/// Stores the points of one body for a visit, and raises the scroll depth of the page view they belong to
/// (the visit's latest page view of that path).
pub(crate) fn insert(tx: &Connection, session: i64, interactions: &Interactions) -> rusqlite::Result<()> {
    let visit = &interactions.visit;
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
