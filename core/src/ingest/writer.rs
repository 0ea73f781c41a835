//! The one ingest writer: drains the bounded queue in batches, commits each batch in one transaction
//! (group commit), updates the rollups in the same transaction, then answers every waiting hit.

use std::collections::{HashMap, HashSet};
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::thread::JoinHandle;

use rand::RngCore;
use rusqlite::{Connection, ErrorCode, OptionalExtension, TransactionBehavior, params};
use sha2::{Digest, Sha256};
use tokio::sync::oneshot;

use super::day_visitors::DayVisitors;
use super::hit::{EventKind, Hit};
use super::interactions::Interactions;
use super::live::LiveHub;
use super::replay::ReplayChunk;
use super::visits::{Visit, Visits};
use crate::error::{Error, Result};
use crate::model::{Millis, WebsiteId, now_ms};
use crate::privacy::{ConsentRecord, insert_consent, latest_analytics_choice};
use crate::store;

/// A visit ends after this long without a hit; the next hit starts a new one.
pub const SESSION_TIMEOUT_MS: Millis = 30 * 60 * 1000;

/// One unit of work for the writer.
pub(crate) enum Job {
    /// A page view, event, conversion or identify from `POST /api/track`.
    Hit(Box<Hit>),
    /// A visitor's consent choice.
    Consent(Box<ConsentRecord>),
    /// Clicks, moves and scroll depth from `POST /api/interactions`.
    Interactions(Box<Interactions>),
    /// A chunk of a session recording from `POST /api/replay`.
    Replay(Box<ReplayChunk>),
}

impl Job {
    fn website_id(&self) -> WebsiteId {
        match self {
            Job::Hit(hit) => hit.website_id,
            Job::Consent(record) => record.website_id,
            Job::Interactions(interactions) => interactions.visit.website_id,
            Job::Replay(chunk) => chunk.visit.website_id,
        }
    }
}

pub(crate) struct Queued {
    pub job: Job,
    pub done: oneshot::Sender<std::result::Result<(), JobError>>,
}

/// Why a job was not stored.
#[derive(Debug)]
pub(crate) enum JobError {
    /// The website was deleted after the hit was accepted.
    SiteGone,
    /// The job itself is not acceptable (e.g. a recording past its cap); told to the client as is.
    Refused(Error),
    /// Another process held the database for longer than the busy timeout; worth a retry.
    Busy,
    Failed(String),
}

impl JobError {
    fn of(e: &rusqlite::Error) -> JobError {
        match e.sqlite_error() {
            Some(err) if err.extended_code == rusqlite::ffi::SQLITE_CONSTRAINT_FOREIGNKEY => JobError::SiteGone,
            Some(err) if matches!(err.code, ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked) => JobError::Busy,
            _ => JobError::Failed(format!("could not store the hit: {e}")),
        }
    }

    fn from_error(e: Error) -> JobError {
        match e {
            Error::Db(e) => JobError::of(&e),
            refused => JobError::Refused(refused),
        }
    }
}

/// Joins the writer thread when the last `Ingest` handle goes away, so queued hits are committed first.
pub(crate) struct WriterHandle {
    thread: Option<JoinHandle<()>>,
}

impl Drop for WriterHandle {
    fn drop(&mut self) {
        // The queue's senders are gone by now (dropped before this handle), so the thread drains and exits.
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// Log pages between the writer's checkpoints (SQLite's default is 1,000): about 32 MiB of log.
const WAL_CHECKPOINT_PAGES: i64 = 8_000;

pub(crate) fn spawn(
    conn: Connection,
    live: LiveHub,
    capacity: usize,
    batch_max: usize,
) -> Result<(SyncSender<Queued>, WriterHandle)> {
    // A 2xx promises the hit is on disk: fsync every commit. Group commit makes that one fsync per batch.
    // (Answering from a second thread after an fsync beside the writer was measured twice; it was no faster.)
    conn.pragma_update(None, "synchronous", "FULL")?;
    // Checkpoints run inside the commit that crosses the threshold; a longer log between them copies each
    // hot page (rollups, the ends of the event and session trees) once for many more batches.
    conn.pragma_update(None, "wal_autocheckpoint", WAL_CHECKPOINT_PAGES)?;
    let (sender, receiver) = sync_channel(capacity);
    let thread = std::thread::Builder::new().name("ingest-writer".into()).spawn(move || {
        Writer {
            conn,
            live,
            batch_max,
            salts: HashMap::new(),
            visits: Visits::default(),
            day_visitors: DayVisitors::default(),
            pruned_day: 0,
        }
        .run(receiver)
    })?;
    Ok((sender, WriterHandle { thread: Some(thread) }))
}

struct Writer {
    conn: Connection,
    live: LiveHub,
    batch_max: usize,
    salts: HashMap<i64, [u8; 16]>,
    visits: Visits,
    day_visitors: DayVisitors,
    pruned_day: i64,
}

/// The writer's in-memory state that jobs read and update inside its transaction.
struct Memory<'a> {
    salts: &'a mut HashMap<i64, [u8; 16]>,
    visits: &'a mut Visits,
    day_visitors: &'a mut DayVisitors,
    rollups: Rollups,
}

impl Writer {
    fn run(mut self, receiver: Receiver<Queued>) {
        while let Ok(first) = receiver.recv() {
            let mut batch = vec![first];
            while batch.len() < self.batch_max {
                match receiver.try_recv() {
                    Ok(next) => batch.push(next),
                    Err(_) => break,
                }
            }
            self.commit_batch(batch);
        }
    }

    fn commit_batch(&mut self, batch: Vec<Queued>) {
        let outcome = self.write(&batch);
        let sites: HashSet<WebsiteId> = batch.iter().map(|q| q.job.website_id()).collect();
        match outcome {
            Ok(results) => {
                for (queued, result) in batch.into_iter().zip(results) {
                    let _ = queued.done.send(result);
                }
                for site in sites {
                    self.live.publish(site);
                }
            }
            Err(e) => {
                tracing::error!(error = %e, "ingest batch failed to commit");
                for queued in batch {
                    let _ = queued.done.send(Err(JobError::of(&e)));
                }
            }
        }
    }

    /// Writes a batch in one transaction. The common case runs every job straight in it; when one fails, the
    /// transaction is rolled back and the batch rewritten with a savepoint per job, so the failing job is
    /// rolled back alone. (A savepoint per job always costs two statements and a sub-journal per hit.)
    fn write(&mut self, batch: &[Queued]) -> rusqlite::Result<Vec<std::result::Result<(), JobError>>> {
        match self.write_all(batch) {
            Ok(()) => Ok(batch.iter().map(|_| Ok(())).collect()),
            Err(e) => {
                // Visits changed and visitors counted by the rolled-back transaction were never stored.
                self.forget_unstored();
                match e {
                    // Another process holding the lock would hold it for the retry too.
                    Error::Db(e) if matches!(JobError::of(&e), JobError::Busy) => Err(e),
                    _ => self.write_each(batch),
                }
            }
        }
    }

    /// IMMEDIATE takes the write lock up front, waiting on other processes (CLI jobs) with the busy timeout;
    /// a deferred transaction would fail at once when upgrading its read lock.
    fn write_all(&mut self, batch: &[Queued]) -> Result<()> {
        let tx = self.conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        sync_memory(&tx, &mut self.visits, &mut self.day_visitors)?;
        let mut memory = Memory {
            salts: &mut self.salts,
            visits: &mut self.visits,
            day_visitors: &mut self.day_visitors,
            rollups: Rollups::default(),
        };
        for queued in batch {
            apply(&tx, &mut memory, &queued.job)?;
        }
        memory.rollups.flush(&tx)?;
        prune(&mut self.salts, &mut self.day_visitors, &mut self.pruned_day);
        Ok(tx.commit()?)
    }

    fn write_each(&mut self, batch: &[Queued]) -> rusqlite::Result<Vec<std::result::Result<(), JobError>>> {
        let mut rollups = Rollups::default();
        let mut results = Vec::with_capacity(batch.len());
        let mut tx = self.conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        // The lock was let go after the failed attempt: another connection may have written since.
        sync_memory(&tx, &mut self.visits, &mut self.day_visitors)?;
        for queued in batch {
            let sp = tx.savepoint()?;
            let mut memory = Memory {
                salts: &mut self.salts,
                visits: &mut self.visits,
                day_visitors: &mut self.day_visitors,
                rollups: Rollups::default(),
            };
            match apply(&sp, &mut memory, &queued.job) {
                Ok(()) => {
                    sp.commit()?;
                    rollups.merge(memory.rollups);
                    results.push(Ok(()));
                }
                Err(e) => {
                    drop(sp); // rolls back this job only
                    // The visits and visitor sets may hold what the job changed before failing.
                    self.visits.clear();
                    self.day_visitors.clear();
                    results.push(Err(JobError::from_error(e)));
                }
            }
        }
        rollups.flush(&tx)?;
        prune(&mut self.salts, &mut self.day_visitors, &mut self.pruned_day);
        let committed = tx.commit();
        if committed.is_err() {
            self.forget_unstored();
        }
        committed?;
        Ok(results)
    }

    /// Forgets what the writer remembers of the database, after a rollback that may have undone part of it.
    /// The salts stay: they are not stored, and new ones would count the day's visitors again.
    fn forget_unstored(&mut self) {
        self.visits.clear();
        self.day_visitors.clear();
    }
}

/// Another connection's commit may have deleted sessions (a site's data, a visitor's, retention): the visits
/// and the visitor sets are then read again from what it left.
fn sync_memory(tx: &Connection, visits: &mut Visits, day_visitors: &mut DayVisitors) -> rusqlite::Result<()> {
    if visits.sync(tx)? {
        day_visitors.clear();
    }
    Ok(())
}

fn apply(tx: &Connection, memory: &mut Memory, job: &Job) -> Result<()> {
    match job {
        Job::Hit(hit) => apply_hit(tx, memory, hit),
        Job::Consent(record) => {
            insert_consent(tx, record)?;
            let mut visit = memory.visits.take(record.website_id, &record.session_key);
            visit.known.consent = Some(Some(record.data.analytics));
            memory.visits.put(record.website_id, visit);
            Ok(())
        }
        Job::Interactions(interactions) => apply_interactions(tx, memory, interactions),
        Job::Replay(chunk) => apply_replay(tx, memory, chunk),
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

/// Once a day, drops the visitor sets and salts that serve no purpose any more.
fn prune(salts: &mut HashMap<i64, [u8; 16]>, day_visitors: &mut DayVisitors, pruned_day: &mut i64) {
    let today = now_day();
    if *pruned_day != today {
        // A salt older than yesterday would only let its day's hashes be matched for longer.
        salts.retain(|day, _| *day >= today - 1);
        day_visitors.forget_before(today - 1);
        *pruned_day = today;
    }
}

fn now_day() -> i64 {
    chrono::Utc::now().timestamp_millis().div_euclid(86_400_000)
}

/// The salt of a day, made on first use. It is never written anywhere: with it, the anonymised address and the
/// user agent kept with a visit, the 256 addresses of a /24 would give the visitor's address back from its
/// hash. A restart makes new salts (see README, Privacy).
fn daily_salt(salts: &mut HashMap<i64, [u8; 16]>, day: i64) -> [u8; 16] {
    *salts.entry(day).or_insert_with(|| {
        let mut salt = [0u8; 16];
        rand::rng().fill_bytes(&mut salt);
        salt
    })
}

fn visitor_hash(salt: &[u8; 16], site: WebsiteId, seed: &[u8; 32]) -> i64 {
    let mut hasher = Sha256::new();
    hasher.update(salt);
    hasher.update(site.to_le_bytes());
    hasher.update(seed);
    let digest = hasher.finalize();
    i64::from_le_bytes(digest[..8].try_into().expect("8 bytes"))
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

/// The session columns the writer needs to update a visit and its rollups.
pub(super) struct SessionState {
    id: i64,
    first_seen: Millis,
    last_seen: Millis,
    page_views: i64,
    organization: Option<i64>,
    dims: SessionDims,
}

/// The per-visit dimensions that rollups are broken down by. Besides the stored columns, dim `source`
/// attributes each visit to exactly one traffic source: its utm_source when it has one, else its referring
/// host ('' = direct), so traffic sources add up to the visits without double counting.
pub(super) struct SessionDims {
    referrer_host: String,
    country: String,
    device: String,
    browser: String,
    os: String,
    utm_source: String,
}

impl SessionDims {
    fn of(hit: &Hit) -> SessionDims {
        SessionDims {
            referrer_host: hit.referrer_host.clone(),
            country: hit.country.clone(),
            device: hit.device.clone(),
            browser: hit.browser.clone(),
            os: hit.os.clone(),
            utm_source: hit.utm.source.clone(),
        }
    }

    /// The visit's traffic source: utm_source wins over the referring host.
    fn source(&self) -> &str {
        if self.utm_source.is_empty() { &self.referrer_host } else { &self.utm_source }
    }

    fn pairs(&self) -> [(&'static str, &str); 7] {
        [
            ("referrer", &self.referrer_host),
            ("country", &self.country),
            ("device", &self.device),
            ("browser", &self.browser),
            ("os", &self.os),
            ("utm_source", &self.utm_source),
            ("source", self.source()),
        ]
    }
}

/// What a write counts on its visit.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Touch {
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
            organization_id
         FROM sessions WHERE website_id = ?1 AND session_key = ?2",
    )?
    .query_row(params![site, session_key], |r| {
        Ok(SessionState {
            id: r.get(0)?,
            first_seen: r.get(1)?,
            last_seen: r.get(2)?,
            page_views: r.get(3)?,
            dims: SessionDims {
                referrer_host: r.get(4)?,
                country: r.get(5)?,
                device: r.get(6)?,
                browser: r.get(7)?,
                os: r.get(8)?,
                utm_source: r.get(9)?,
            },
            organization: r.get(10)?,
        })
    })
    .optional()
}

/// Finds or starts the visit of `hit` and updates it and the visit rollups; returns the session id.
fn touch_session(
    tx: &Connection,
    memory: &mut Memory,
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

    // A visit idle for longer than the timeout is over: keep it under a retired key, start a new one.
    let existing = match existing {
        Some(state) if hit.ts - state.last_seen > SESSION_TIMEOUT_MS => {
            tx.prepare_cached("UPDATE sessions SET session_key = session_key || '~' || id WHERE id = ?1")?
                .execute([state.id])?;
            None
        }
        other => other,
    };

    let rollups = &mut memory.rollups;
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
            totals.duration_s += (last_seen - state.last_seen) / 1000;
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
            let day = hit.ts.div_euclid(86_400_000);
            let salt = daily_salt(memory.salts, day);
            let visitor = visitor_hash(&salt, site, &hit.visitor_seed);
            // Before the session is stored: a first load of the day's visitors would find it.
            let new_visitor = memory.day_visitors.first_visit(tx, site, day, visitor)?;
            tx.prepare_cached(
                "INSERT INTO sessions (website_id, session_key, visitor_hash, first_seen, last_seen, entry_page,
                    exit_page, page_views, events, country, region, city, device, browser, os, referrer,
                    referrer_host, utm_source, utm_medium, utm_campaign, utm_term, utm_content, screen, ip_address,
                    is_converted, conversion_value)
                 VALUES (?1, ?2, ?3, ?4, ?4, ?5, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18,
                    ?19, ?20, ?21, ?22, ?23, ?24)",
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
            ])?;
            let id = tx.last_insert_rowid();
            let totals = rollups.at(site, "", "", hit.ts);
            totals.visits += 1;
            totals.visitors += new_visitor as i64;
            totals.bounces += is_pageview as i64;
            let dims = SessionDims::of(hit);
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
fn link_organization(
    tx: &Connection,
    session: i64,
    hit: &Hit,
    org: &super::enrich::Organization,
) -> rusqlite::Result<i64> {
    let org_id = store::organizations::record_visit(tx, hit.website_id, org, &hit.country, hit.ts)?;
    tx.prepare_cached("UPDATE sessions SET organization_id = ?2 WHERE id = ?1")?.execute(params![session, org_id])?;
    Ok(org_id)
}

/// Stores a hit (an identify also sets the visit's traits). Without analytics consent (where the site requires it, or where the visitor declined) only
/// an anonymous page count is kept: the rollups' page views, no visit, no event, nothing about the visitor.
fn apply_hit(tx: &Connection, memory: &mut Memory, hit: &Hit) -> Result<()> {
    let site = hit.website_id;
    let kind = hit.kind();
    let mut visit = memory.visits.take(site, &hit.session_key);
    if !analytics_allowed(tx, &mut visit, hit)? {
        memory.visits.put(site, visit);
        if kind == EventKind::Pageview {
            memory.rollups.at(site, "", "", hit.ts).pageviews += 1;
            memory.rollups.at(site, "page", &hit.path, hit.ts).pageviews += 1;
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
    let session = touch_session(tx, memory, &mut visit, hit, touch)?;
    memory.visits.put(site, visit);
    if touch == Touch::Quiet {
        return Ok(());
    }
    let rollups = &mut memory.rollups;
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
            let page = rollups.at(site, "page", &hit.path, hit.ts);
            page.pageviews += 1;
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
fn apply_interactions(tx: &Connection, memory: &mut Memory, interactions: &Interactions) -> Result<()> {
    if let Some(session) = touch_quietly(tx, memory, &interactions.visit)? {
        store::interactions::insert(tx, session, interactions)?;
    }
    Ok(())
}

/// Appends a recording chunk of a visit that may be tracked in full; drops it otherwise.
fn apply_replay(tx: &Connection, memory: &mut Memory, chunk: &ReplayChunk) -> Result<()> {
    match touch_quietly(tx, memory, &chunk.visit)? {
        Some(session) => store::replays::append_chunk(tx, session, chunk, now_ms()),
        None => Ok(()),
    }
}

/// Keeps a visit that may be tracked in full alive for data that is neither a page view nor an event;
/// `None` when the visit may not be tracked.
fn touch_quietly(tx: &Connection, memory: &mut Memory, hit: &Hit) -> rusqlite::Result<Option<i64>> {
    let mut visit = memory.visits.take(hit.website_id, &hit.session_key);
    let session = match analytics_allowed(tx, &mut visit, hit)? {
        true => Some(touch_session(tx, memory, &mut visit, hit, Touch::Quiet)?),
        false => None,
    };
    memory.visits.put(hit.website_id, visit);
    Ok(session)
}

/// Counter deltas of one rollup row.
#[derive(Default, Clone, Copy)]
struct Counters {
    pageviews: i64,
    visits: i64,
    visitors: i64,
    events: i64,
    conversions: i64,
    bounces: i64,
    duration_s: i64,
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
/// value is looked up by `&str`, so only a value new to the batch allocates.
#[derive(Default)]
struct Rollups {
    hours: FastMap<(WebsiteId, &'static str, i64), FastMap<String, Counters>>,
}

impl Rollups {
    fn at(&mut self, site: WebsiteId, dim: &'static str, value: &str, ts: Millis) -> &mut Counters {
        let hour = ts.div_euclid(3_600_000) * 3_600;
        let values = self.hours.entry((site, dim, hour)).or_default();
        if !values.contains_key(value) {
            values.insert(value.to_string(), Counters::default());
        }
        values.get_mut(value).expect("just inserted")
    }

    fn merge(&mut self, other: Rollups) {
        for (key, values) in other.hours {
            let mine = self.hours.entry(key).or_default();
            for (value, counters) in values {
                mine.entry(value).or_default().add(counters);
            }
        }
    }

    fn flush(self, tx: &Connection) -> rusqlite::Result<()> {
        let mut days: FastMap<(WebsiteId, &'static str, i64), FastMap<&str, Counters>> = FastMap::default();
        for (&(site, dim, hour), values) in &self.hours {
            let day = days.entry((site, dim, hour.div_euclid(86_400) * 86_400)).or_default();
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
