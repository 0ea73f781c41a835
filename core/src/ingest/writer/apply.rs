//! What each kind of job stores: hits (with the consent check), consent choices, heatmap data and recording
//! chunks, each on its visit.

use rusqlite::{Connection, OptionalExtension, params};

use super::Job;
use super::memory::Memory;
use super::rollups::Rollups;
use super::session::{Touch, touch_session};
use super::visits::Visit;
use crate::analytics::Dimension;
use crate::error::Result;
use crate::ingest::hit::{EventKind, Hit};
use crate::ingest::interactions::Interactions;
use crate::ingest::replay::ReplayChunk;
use crate::model::{Millis, now_ms};
use crate::store;
use crate::store::meta::{insert_consent, latest_analytics_choice};

/// Stores one job in the open transaction, updating the writer's memory and the batch's rollup deltas.
pub(super) fn apply(tx: &Connection, memory: &mut Memory, rollups: &mut Rollups, job: &Job) -> Result<()> {
    match job {
        Job::Hit(hit) => apply_hit(tx, memory, rollups, hit),
        Job::Consent(record) => {
            insert_consent(tx, record)?;
            let mut visit = memory.visits.take(record.website_id, &record.session_key);
            visit.known.consent = Some(Some(record.data.analytics));
            memory.visits.put(record.website_id, visit);
            Ok(())
        }
        Job::Interactions(interactions) => apply_interactions(tx, memory, rollups, interactions),
        Job::Replay(chunk) => apply_replay(tx, memory, rollups, chunk),
    }
}

/// Whether a visit may be tracked in full: its latest analytics choice if it made one, otherwise only when
/// the site does not require consent. A visitor who declined is never tracked in full.
fn analytics_allowed(tx: &Connection, visit: &mut Visit, hit: &Hit) -> rusqlite::Result<bool> {
    let choice = match visit.known.consent {
        Some(choice) => choice,
        None => *visit.known.consent.insert(latest_analytics_choice(tx, hit.website_id, &hit.session_key)?),
    };
    Ok(choice.unwrap_or(!hit.consent_required))
}

/// The visit's start when the conversion just stored is its first one, else `None`.
fn first_conversion_of(tx: &Connection, session: i64) -> rusqlite::Result<Option<Millis>> {
    tx.prepare_cached(
        "SELECT first_seen FROM sessions WHERE id = ?1
           AND (SELECT COUNT(*) FROM events WHERE session_id = ?1 AND kind = 'conversion') = 1",
    )?
    .query_row([session], |r| r.get(0))
    .optional()
}

/// Stores a hit (an identify also sets the visit's traits). Without analytics consent (where the site requires
/// it, or where the visitor declined) only an anonymous page count is kept: the rollups' page views, no visit,
/// no event, nothing about the visitor.
fn apply_hit(tx: &Connection, memory: &mut Memory, rollups: &mut Rollups, hit: &Hit) -> Result<()> {
    let site = hit.website_id;
    let kind = hit.kind();
    let mut visit = memory.visits.take(site, &hit.session_key);
    if !analytics_allowed(tx, &mut visit, hit)? {
        memory.visits.put(site, visit);
        if kind == EventKind::Pageview {
            rollups.at(site, "", "", hit.ts).pageviews += 1;
            rollups.at(site, Dimension::Page.as_str(), &hit.path, hit.ts).pageviews += 1;
        }
        return Ok(());
    }
    let touch = match kind {
        EventKind::Pageview => Touch::Pageview,
        EventKind::Custom | EventKind::Conversion | EventKind::Outbound | EventKind::Download | EventKind::Identify => {
            Touch::Event
        }
        EventKind::Consent => Touch::Quiet,
    };
    let session = touch_session(tx, memory, rollups, &mut visit, hit, touch)?;
    memory.visits.put(site, visit);
    if touch == Touch::Quiet {
        return Ok(());
    }
    // The visit keeps its latest traits; the identify event itself stays for the identified-visitors list.
    if kind == EventKind::Identify {
        tx.prepare_cached("UPDATE sessions SET traits = ?2 WHERE id = ?1")?
            .execute(params![session, hit.properties])?;
    }

    tx.prepare_cached(
        "INSERT INTO events (website_id, session_id, ts, kind, name, url, path, referrer, properties, value, currency)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
    )?
    .execute(params![
        site,
        session,
        hit.ts,
        kind.as_str(),
        hit.name,
        hit.url,
        hit.path,
        hit.referrer,
        hit.properties,
        hit.value,
        hit.currency,
    ])?;

    match kind {
        EventKind::Pageview => {
            rollups.at(site, "", "", hit.ts).pageviews += 1;
            rollups.at(site, Dimension::Page.as_str(), &hit.path, hit.ts).pageviews += 1;
        }
        EventKind::Conversion => {
            rollups.at(site, "", "", hit.ts).conversions += 1;
            rollups.at(site, "event", &hit.name, hit.ts).conversions += 1;
            // dim `converted` counts visits with at least one conversion, bucketed by the visit's start like
            // the totals' visits, so the two divide into a conversion rate.
            if let Some(first_seen) = first_conversion_of(tx, session)? {
                rollups.at(site, "converted", "", first_seen).visits += 1;
            }
        }
        EventKind::Custom | EventKind::Outbound | EventKind::Download => {
            let name = if hit.name.is_empty() { kind.as_str() } else { hit.name.as_str() };
            rollups.at(site, "", "", hit.ts).events += 1;
            rollups.at(site, "event", name, hit.ts).events += 1;
        }
        EventKind::Identify | EventKind::Consent => {}
    }
    Ok(())
}

/// Stores heatmap points and scroll depth of a visit that may be tracked in full; drops them otherwise.
fn apply_interactions(
    tx: &Connection,
    memory: &mut Memory,
    rollups: &mut Rollups,
    interactions: &Interactions,
) -> Result<()> {
    if let Some(session) = touch_quietly(tx, memory, rollups, &interactions.visit)? {
        store::interactions::insert(tx, session, interactions)?;
    }
    Ok(())
}

/// Appends a recording chunk of a visit that may be tracked in full; drops it otherwise.
fn apply_replay(tx: &Connection, memory: &mut Memory, rollups: &mut Rollups, chunk: &ReplayChunk) -> Result<()> {
    match touch_quietly(tx, memory, rollups, &chunk.visit)? {
        Some(session) => store::meta::append_chunk(tx, session, chunk, now_ms()),
        None => Ok(()),
    }
}

/// Keeps a visit that may be tracked in full alive for data that is neither a page view nor an event;
/// `None` when the visit may not be tracked.
fn touch_quietly(
    tx: &Connection,
    memory: &mut Memory,
    rollups: &mut Rollups,
    hit: &Hit,
) -> rusqlite::Result<Option<i64>> {
    let mut visit = memory.visits.take(hit.website_id, &hit.session_key);
    let session = match analytics_allowed(tx, &mut visit, hit)? {
        true => Some(touch_session(tx, memory, rollups, &mut visit, hit, Touch::Quiet)?),
        false => None,
    };
    memory.visits.put(hit.website_id, visit);
    Ok(session)
}
