//! The visit (session row) of each stored hit: found in the writer's memory or the database, continued or
//! started (a new visit is where the visitor hash and the per-day visitor count come in), with the visit
//! counters of the rollups.

use rusqlite::{Connection, OptionalExtension, params};

use super::memory::Memory;
use super::rollups::Rollups;
use super::visits::{SessionState, Visit};
use crate::analytics::VisitDims;
use crate::analytics::stored_hours::LATE_HIT_MS;
use crate::analytics::stored_hours::forget_visit_hours;
use crate::ingest::enrich::Organization;
use crate::ingest::hit::{EventKind, Hit};
use crate::model::{Millis, WebsiteId, now_ms};
use crate::store;

/// A visit ends after this long without a hit; the next hit starts a new one.
pub(crate) const SESSION_TIMEOUT_MS: Millis = 30 * 60 * 1000;

/// What a write counts on its visit.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Touch {
    /// A page view: counted, and the page becomes the exit page.
    Pageview,
    /// An event (custom, conversion, outbound, download).
    Event,
    /// Data about the visit that is neither (identify, interactions, recordings): keeps it alive only.
    Quiet,
}

/// The stored session of a visit the writer does not remember.
fn load_session(tx: &Connection, site: WebsiteId, session_key: &str) -> rusqlite::Result<Option<SessionState>> {
    tx.prepare_cached(
        "SELECT id, first_seen, last_seen, page_views, referrer_host, country, device, browser, os, utm_source,
            organization_id, source
         FROM sessions WHERE website_id = ?1 AND session_key = ?2",
    )?
    .query_row(params![site, session_key], |r| {
        Ok(SessionState {
            id: r.get(0)?,
            first_seen: r.get(1)?,
            last_seen: r.get(2)?,
            page_views: r.get(3)?,
            dims: VisitDims {
                referrer_host: r.get(4)?,
                country: r.get(5)?,
                device: r.get(6)?,
                browser: r.get(7)?,
                os: r.get(8)?,
                utm_source: r.get(9)?,
                source: r.get(11)?,
            },
            organization: r.get(10)?,
        })
    })
    .optional()
}

/// Finds or starts the visit of `hit` and updates it and the visit rollups; returns the session id.
pub(super) fn touch_session(
    tx: &Connection,
    memory: &mut Memory,
    rollups: &mut Rollups,
    visit: &mut Visit,
    hit: &Hit,
    touch: Touch,
) -> rusqlite::Result<i64> {
    let site = hit.website_id;
    let is_pageview = touch == Touch::Pageview;
    let is_event = touch == Touch::Event;
    let conversion = is_event && hit.kind() == EventKind::Conversion;
    let existing = match visit.known.session.take() {
        Some(state) => Some(state),
        None => load_session(tx, site, &hit.session_key)?,
    };
    // A late hit (imports, the seeder, queued offline hits) may change a visit of an hour a read has stored;
    // live hits never can (see stored_hours::SETTLED_MS).
    if hit.ts < now_ms() - LATE_HIT_MS {
        let first_seen = existing.as_ref().map_or(hit.ts, |s| s.first_seen);
        forget_visit_hours(tx, site, first_seen.min(hit.ts), first_seen.max(hit.ts) + 1)?;
    }

    // A visit idle for longer than the timeout is over: keep it under a retired key, start a new one.
    let existing = match existing {
        Some(state) if hit.ts - state.last_seen > SESSION_TIMEOUT_MS => {
            tx.prepare_cached("UPDATE sessions SET session_key = session_key || '~' || id WHERE id = ?1")?
                .execute([state.id])?;
            None
        }
        other => other,
    };

    let mut state = match existing {
        Some(mut state) => {
            let last_seen = state.last_seen.max(hit.ts);
            // A hit older than its visit's start is rare (queued offline hits). Naming first_seen in the common
            // UPDATE makes SQLite rewrite its index entry on every hit (about 4 of ~50 pages a commit writes).
            if hit.ts < state.first_seen {
                tx.prepare_cached("UPDATE sessions SET first_seen = ?2 WHERE id = ?1")?
                    .execute(params![state.id, hit.ts])?;
            }
            tx.prepare_cached(
                "UPDATE sessions SET
                    last_seen = ?2,
                    exit_page = CASE WHEN ?4 AND ?3 >= last_seen THEN ?5 ELSE exit_page END,
                    entry_page = CASE WHEN ?4 AND page_views = 0 THEN ?5 ELSE entry_page END,
                    page_views = page_views + ?4,
                    events = events + ?6,
                    is_converted = is_converted OR ?7,
                    conversion_value = conversion_value + ?8
                 WHERE id = ?1",
            )?
            .execute(params![
                state.id,
                last_seen,
                hit.ts,
                is_pageview,
                hit.path,
                is_event,
                conversion,
                if conversion { hit.value.unwrap_or(0.0) } else { 0.0 },
            ])?;
            let totals = rollups.at(site, "", "", state.first_seen);
            // The visit's whole seconds so far, as a rebuild counts them (not the sum of each step's whole
            // seconds, which loses a fraction at every hit).
            totals.duration_s += (last_seen - state.first_seen) / 1000 - (state.last_seen - state.first_seen) / 1000;
            if is_pageview {
                match state.page_views {
                    // The visit was started by quiet data: its first page view makes it a bounce so far.
                    0 => totals.bounces += 1,
                    1 => totals.bounces -= 1,
                    _ => {}
                }
                for (dim, value) in state.dims.pairs() {
                    rollups.at(site, dim, value, hit.ts).pageviews += 1;
                }
            }
            // The row as just updated.
            state.last_seen = last_seen;
            state.first_seen = state.first_seen.min(hit.ts);
            state.page_views += is_pageview as i64;
            state
        }
        None => {
            // Before the session is stored: a first load of the day's visitors would find it.
            let (visitor, new_visitor) = memory.visitor(tx, site, hit.ts, &hit.visitor_seed)?;
            let dims = dims_of(hit);
            tx.prepare_cached(
                "INSERT INTO sessions (website_id, session_key, visitor_hash, first_seen, last_seen, entry_page,
                    exit_page, page_views, events, country, region, city, device, browser, os, referrer,
                    referrer_host, utm_source, utm_medium, utm_campaign, utm_term, utm_content, screen, ip_address,
                    is_converted, conversion_value, source, browser_version, os_version)
                 VALUES (?1, ?2, ?3, ?4, ?4, ?5, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18,
                    ?19, ?20, ?21, ?22, ?23, ?24, ?25, ?26, ?27)",
            )?
            .execute(params![
                site,
                hit.session_key,
                visitor,
                hit.ts,
                hit.path,
                is_pageview,
                is_event,
                hit.country,
                hit.region,
                hit.city,
                hit.device,
                hit.browser,
                hit.os,
                hit.referrer,
                hit.referrer_host,
                hit.utm.source,
                hit.utm.medium,
                hit.utm.campaign,
                hit.utm.term,
                hit.utm.content,
                hit.screen,
                hit.ip_address,
                conversion,
                if conversion { hit.value.unwrap_or(0.0) } else { 0.0 },
                dims.source,
                hit.browser_version,
                hit.os_version,
            ])?;
            let id = tx.last_insert_rowid();
            let totals = rollups.at(site, "", "", hit.ts);
            totals.visits += 1;
            totals.visitors += new_visitor as i64;
            totals.bounces += is_pageview as i64;
            for (dim, value) in dims.pairs() {
                let counters = rollups.at(site, dim, value, hit.ts);
                counters.visits += 1;
                counters.pageviews += is_pageview as i64;
            }
            SessionState {
                id,
                first_seen: hit.ts,
                last_seen: hit.ts,
                page_views: is_pageview as i64,
                organization: None,
                dims,
            }
        }
    };
    match (state.organization, &hit.organization) {
        (Some(org), _) => store::organizations::seen(tx, org, hit.ts)?,
        (None, Some(org)) => state.organization = Some(link_organization(tx, state.id, hit, org)?),
        (None, None) => {}
    }
    let id = state.id;
    visit.known.session = Some(state);
    Ok(id)
}

/// Counts the visit for its organization and links the two.
fn link_organization(tx: &Connection, session: i64, hit: &Hit, org: &Organization) -> rusqlite::Result<i64> {
    let org_id = store::organizations::record_visit(tx, hit.website_id, org, &hit.country, hit.ts)?;
    tx.prepare_cached("UPDATE sessions SET organization_id = ?2 WHERE id = ?1")?.execute(params![session, org_id])?;
    Ok(org_id)
}

/// A new visit's values of the per-visit dimensions, from its first hit.
fn dims_of(hit: &Hit) -> VisitDims {
    VisitDims {
        referrer_host: hit.referrer_host.clone(),
        country: hit.country.clone(),
        device: hit.device.clone(),
        browser: hit.browser.clone(),
        os: hit.os.clone(),
        utm_source: hit.utm.source.clone(),
        source: crate::ingest::sources::source_of(&hit.utm.source, &hit.referrer_host),
    }
}
