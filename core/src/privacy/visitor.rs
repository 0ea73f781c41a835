//! One visitor's data (GDPR article 15 access, article 17 erasure): found by the script's session id or by
//! the id the site gave `identify()` (traits `id`, `userId` or `email`), across every table that holds
//! something about a visit: sessions, page views and events, heatmap interactions, scroll depths,
//! recordings and consent choices. Allowed only while the site's `dataSubjectRights` is on, access also
//! needs `dataPortability` and erasure `dataDeletion`.

use std::io::Read;

use flate2::read::MultiGzDecoder;
use rusqlite::{Connection, TransactionBehavior, params};
use serde::Serialize;
use serde_json::{Map, Value, json};

use super::Privacy;
use super::deletion::rebuild_rollups;
use crate::error::{Error, Result};
use crate::ingest::replay::MAX_INFLATED_BYTES;
use crate::model::{WebsiteId, iso};

const DAY_MS: i64 = 86_400_000;

/// The sessions of a visitor: by session id (its current visit, and the earlier ones a later visit retired as
/// `key~<row id>`), or by the identify() id in the visit's latest traits.
const MATCH_SESSIONS: &str = "SELECT id FROM sessions WHERE website_id = ?1 AND (session_key = ?2
    OR session_key = ?2 || '~' || id
    OR (traits IS NOT NULL AND json_valid(traits) AND ?2 IN (
        json_extract(traits, '$.id'), json_extract(traits, '$.userId'), json_extract(traits, '$.email'))))";

/// Which right a request exercises.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Right {
    Access,
    Erasure,
}

/// Rows removed by a visitor's erasure, per table.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct VisitorDeletion {
    pub sessions: u64,
    pub events: u64,
    pub interactions: u64,
    pub scroll_depths: u64,
    pub recordings: u64,
    pub consent_logs: u64,
}

impl VisitorDeletion {
    /// Every row removed (the API's `recordsDeleted`).
    pub fn records_deleted(&self) -> u64 {
        self.sessions + self.events + self.interactions + self.scroll_depths + self.recordings + self.consent_logs
    }
}

/// A visitor id as given: trimmed, 1 to 200 characters.
pub fn visitor_id(raw: &str) -> Result<String> {
    let id = raw.trim();
    if id.is_empty() {
        return Err(Error::invalid("visitorId is required"));
    }
    if id.chars().count() > 200 {
        return Err(Error::invalid("visitorId must be at most 200 characters"));
    }
    crate::model::check_line("visitorId", id)?;
    Ok(id.to_string())
}

impl Privacy {
    /// Refuses a visitor request the site's settings do not allow.
    pub(crate) fn check_right(&self, site: WebsiteId, right: Right) -> Result<()> {
        let s = self.settings(site)?;
        if !s.data_subject_rights {
            return Err(Error::Forbidden("data subject rights are turned off for this website".into()));
        }
        match right {
            Right::Access if !s.data_portability => {
                Err(Error::Forbidden("data portability is turned off for this website".into()))
            }
            Right::Erasure if !s.data_deletion => {
                Err(Error::Forbidden("data deletion is turned off for this website".into()))
            }
            _ => Ok(()),
        }
    }

    /// Everything stored about one visitor of a site, as one JSON document (callers check ownership first).
    /// `NotFound` when nothing matches.
    pub(crate) fn visitor_data(&self, site: WebsiteId, visitor: &str) -> Result<Value> {
        self.check_right(site, Right::Access)?;
        self.db.read(|conn| {
            let sessions = rows(
                conn,
                &format!(
                    "SELECT id, session_key AS sessionId, first_seen AS firstSeen, last_seen AS lastSeen,
                        entry_page AS entryPage, exit_page AS exitPage, page_views AS pageViews, events,
                        country, region, city, device, browser, os, referrer, utm_source AS utmSource,
                        utm_medium AS utmMedium, utm_campaign AS utmCampaign, utm_term AS utmTerm,
                        utm_content AS utmContent, screen, ip_address AS ipAddress, is_converted AS isConverted,
                        conversion_value AS conversionValue, traits
                     FROM sessions WHERE id IN ({MATCH_SESSIONS}) ORDER BY first_seen"
                ),
                params![site, visitor],
            )?;
            let consent = rows(
                conn,
                &format!(
                    "SELECT session_key AS sessionId, ts AS timestamp, consent_type AS consentType,
                        ip_address AS ipAddress, analytics, marketing
                     FROM consent_logs WHERE website_id = ?1 AND (session_key = ?2 OR session_key IN
                        (SELECT session_key FROM sessions WHERE id IN ({MATCH_SESSIONS}))) ORDER BY ts"
                ),
                params![site, visitor],
            )?;
            if sessions.is_empty() && consent.is_empty() {
                return Err(Error::NotFound("visitor"));
            }
            let per_session =
                |sql: &str| rows(conn, &format!("{sql} IN ({MATCH_SESSIONS}) ORDER BY ts"), params![site, visitor]);
            let events = per_session(
                "SELECT session_id AS session, ts AS timestamp, kind AS type, name, url, path, referrer, properties,
                    value, currency FROM events WHERE session_id",
            )?;
            let interactions = per_session(
                "SELECT session_id AS session, ts AS timestamp, kind AS type, path, x, y, page_w AS pageWidth,
                    page_h AS pageHeight, viewport_w AS viewportWidth, viewport_h AS viewportHeight, selector
                 FROM heatmap_points WHERE session_id",
            )?;
            let form_fields = per_session(
                "SELECT session_id AS session, ts AS timestamp, kind AS type, path, form, field, filled
                 FROM form_field_events WHERE session_id",
            )?;
            let scroll = per_session(
                "SELECT session_id AS session, ts AS timestamp, path, depth FROM scroll_depths WHERE session_id",
            )?;
            let recordings = recordings(conn, site, visitor)?;
            Ok(json!({
                "websiteId": site,
                "visitorId": visitor,
                "sessions": sessions,
                "events": events,
                "interactions": interactions,
                "formFields": form_fields,
                "scrollDepths": scroll,
                "recordings": recordings,
                "consentLogs": consent,
            }))
        })
    }

    /// Deletes everything stored about one visitor of a site and recomputes the rollups of the days their
    /// visits touched (callers check ownership first). `NotFound` when nothing matches.
    pub(crate) fn delete_visitor(&self, site: WebsiteId, visitor: &str) -> Result<VisitorDeletion> {
        self.check_right(site, Right::Erasure)?;
        // A connection of its own, as the site-wide deletion: the writer notices and drops its mirrors.
        let mut conn = self.db.connect()?;
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let mut report = VisitorDeletion::default();
        tx.execute_batch(
            "CREATE TEMP TABLE IF NOT EXISTS visitor_sessions (id INTEGER PRIMARY KEY, session_key TEXT);
             DELETE FROM temp.visitor_sessions;",
        )?;
        tx.execute(
            &format!(
                "INSERT INTO temp.visitor_sessions SELECT id, session_key FROM sessions WHERE id IN ({MATCH_SESSIONS})"
            ),
            params![site, visitor],
        )?;
        let (from, to): (Option<i64>, Option<i64>) = tx.query_row(
            "SELECT MIN(first_seen), MAX(last_seen) FROM sessions WHERE id IN (SELECT id FROM temp.visitor_sessions)",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )?;
        let in_visits = "session_id IN (SELECT id FROM temp.visitor_sessions)";
        report.events = tx.execute(&format!("DELETE FROM events WHERE {in_visits}"), [])? as u64;
        // Form-field events are interactions too (one count keeps the report's shape).
        report.interactions = (tx.execute(&format!("DELETE FROM heatmap_points WHERE {in_visits}"), [])?
            + tx.execute(&format!("DELETE FROM form_field_events WHERE {in_visits}"), [])?)
            as u64;
        report.scroll_depths = tx.execute(&format!("DELETE FROM scroll_depths WHERE {in_visits}"), [])? as u64;
        report.recordings = tx.execute(&format!("DELETE FROM replays WHERE {in_visits}"), [])? as u64;
        report.consent_logs = tx.execute(
            "DELETE FROM consent_logs WHERE website_id = ?1
                AND (session_key = ?2 OR session_key IN (SELECT session_key FROM temp.visitor_sessions))",
            params![site, visitor],
        )? as u64;
        report.sessions =
            tx.execute("DELETE FROM sessions WHERE id IN (SELECT id FROM temp.visitor_sessions)", [])? as u64;
        tx.execute("DELETE FROM temp.visitor_sessions", [])?;
        if report.records_deleted() == 0 {
            return Err(Error::NotFound("visitor"));
        }
        if let (Some(from), Some(to)) = (from, to) {
            crate::analytics::forget_stored_hours(&tx, site, from, to + 1)?;
            rebuild_rollups(&tx, site, from.div_euclid(DAY_MS) * DAY_MS, (to.div_euclid(DAY_MS) + 1) * DAY_MS)?;
        }
        tx.commit()?;
        crate::db::empty_log(&conn)?;
        Ok(report)
    }
}

/// Rows of a query as JSON objects keyed by column name; `timestamp`-like millisecond columns become ISO text.
fn rows(conn: &Connection, sql: &str, params: impl rusqlite::Params) -> Result<Vec<Value>> {
    let mut stmt = conn.prepare(sql)?;
    let names: Vec<String> = stmt.column_names().map(String::from).collect();
    let mut out = Vec::new();
    let mut q = stmt.query(params)?;
    while let Some(r) = q.next()? {
        let mut object = Map::new();
        for (i, name) in names.iter().enumerate() {
            let value = match r.get_ref(i)? {
                rusqlite::types::ValueRef::Null => Value::Null,
                rusqlite::types::ValueRef::Integer(n) if is_time(name) => Value::String(iso(n)),
                rusqlite::types::ValueRef::Integer(n) => json!(n),
                rusqlite::types::ValueRef::Real(f) => json!(f),
                rusqlite::types::ValueRef::Text(t) => {
                    let text = String::from_utf8_lossy(t).into_owned();
                    // Stored JSON (properties, traits) is given as JSON, not as a string holding JSON.
                    if matches!(name.as_str(), "properties" | "traits") {
                        serde_json::from_str(&text).unwrap_or(Value::String(text))
                    } else {
                        Value::String(text)
                    }
                }
                rusqlite::types::ValueRef::Blob(_) => Value::Null,
            };
            object.insert(name.clone(), value);
        }
        out.push(Value::Object(object));
    }
    Ok(out)
}

fn is_time(column: &str) -> bool {
    matches!(column, "timestamp" | "firstSeen" | "lastSeen" | "startedAt" | "endedAt")
}

/// The visitor's recordings with their rrweb events (each chunk inflated, at most the upload cap each).
fn recordings(conn: &Connection, site: WebsiteId, visitor: &str) -> Result<Vec<Value>> {
    let mut list = rows(
        conn,
        &format!(
            "SELECT id, session_id AS session, started_at AS startedAt, ended_at AS endedAt, screen,
                event_count AS eventCount FROM replays WHERE session_id IN ({MATCH_SESSIONS}) ORDER BY started_at"
        ),
        params![site, visitor],
    )?;
    let mut chunks = conn.prepare("SELECT data FROM replay_chunks WHERE replay_id = ?1 ORDER BY seq")?;
    for recording in &mut list {
        let id = recording["id"].as_i64().unwrap_or_default();
        let mut events = Vec::new();
        let blobs = chunks.query_map([id], |r| r.get::<_, Vec<u8>>(0))?;
        for blob in blobs {
            events.extend(chunk_events(&blob?)?);
        }
        recording["events"] = Value::Array(events);
    }
    Ok(list)
}

/// The rrweb events of one stored chunk for a visitor's copy (inflated to the upload cap at most; a chunk that
/// is not an array gives none).
pub(crate) fn chunk_events(gzip: &[u8]) -> Result<Vec<Value>> {
    let mut text = Vec::new();
    MultiGzDecoder::new(gzip).take(MAX_INFLATED_BYTES).read_to_end(&mut text)?;
    match serde_json::from_slice(&text) {
        Ok(Value::Array(items)) => Ok(items),
        _ => Ok(Vec::new()),
    }
}

#[cfg(test)]
mod tests {
    use crate::ingest::{EventKind, Hit};
    use crate::model::now_ms;
    use crate::testing::{one_site, rows, send};

    /// A visitor who came back after the idle timeout has two visits under one key (the first retired as
    /// `key~id`): the copy lists both and the erasure takes both, leaving another visitor's.
    #[test]
    fn a_visitors_copy_and_erasure_take_every_visit_of_their_key() {
        let fixture = one_site();
        let now = now_ms();
        let hit = |key: &str, ts: i64| Hit {
            website_id: fixture.site,
            session_key: key.into(),
            ts,
            kind: Some(EventKind::Pageview),
            url: "https://s.example.com/".into(),
            path: "/".into(),
            ..Hit::default()
        };
        send(
            &fixture.tracker,
            [hit("back", now - 7_200_000), hit("other", now - 7_000_000), hit("back", now - 60_000)],
        );
        assert_eq!(rows(&fixture.tracker, "sessions"), 3);

        let copy = fixture.tracker.privacy.visitor_data(fixture.site, "back").unwrap();
        assert_eq!(copy["sessions"].as_array().map(Vec::len), Some(2), "{copy}");
        let erased = fixture.tracker.privacy.delete_visitor(fixture.site, "back").unwrap();
        assert_eq!((erased.sessions, erased.events), (2, 2));
        assert_eq!(rows(&fixture.tracker, "sessions"), 1, "the other visitor's visit stays");
    }
}
