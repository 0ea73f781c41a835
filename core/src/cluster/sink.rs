//! The ingest writer's sink in cluster mode: each batch's hits find their visits in PostgreSQL (shared by every
//! daemon) and go to ClickHouse, one synchronous insert per shard. Every hit of the batch is acknowledged only
//! when every shard answered Ok; otherwise every one of them gets 503, never a 2xx.

use std::collections::{HashMap, HashSet};
use std::time::{Duration, Instant};

use super::events::{Events, HitRow, InteractionRow, TOUCH, month_of};
use super::ingest_state::{IngestState, Segment};
use super::notices;
use super::rollups;
use crate::error::{Error, Result};
use crate::ingest::live::LiveHub;
use crate::ingest::writer::{EventSink, Job, JobError, Queued, SESSION_TIMEOUT_MS};
use crate::ingest::{EventKind, Hit, Interactions, ReplayChunk};
use crate::metrics::Metrics;
use crate::model::{Millis, WebsiteId, now_ms};
use crate::privacy::ConsentRecord;
use crate::store::meta::{Meta, SeenOrganization};

/// The ClickHouse sink of one daemon's writer thread.
pub struct ClickHouseSink {
    events: Events,
    state: IngestState,
    /// The shared consent log (PostgreSQL).
    meta: Meta,
    live: LiveHub,
    metrics: Metrics,
    /// The (site, ASN) pairs this sink has recorded in PostgreSQL: a batch sends only the others.
    recorded_organizations: HashSet<(WebsiteId, u32)>,
    /// The batch's visits that have outgrown their rolled-up hour: (site, visit start), noted in PostgreSQL
    /// once the batch is stored (`rollups::note_stale_visits`).
    stale_visits: Vec<(WebsiteId, Millis)>,
}

/// Most (site, ASN) pairs a sink remembers as recorded before it starts afresh.
const RECORDED_ORGANIZATIONS: usize = 100_000;

/// What becomes of each job of a batch before its rows go to ClickHouse.
enum Outcome {
    /// Answered on its own: stored already (a consent choice, in PostgreSQL), deliberately not stored, or
    /// refused.
    Answered(std::result::Result<(), JobError>),
    /// Stored once its rows are: answered by the ClickHouse inserts.
    Rows,
    /// A consent choice, answered once the batch's choices are written.
    Consent,
}

impl ClickHouseSink {
    /// A sink writing to `events` with the visits and salts of `state` and the consent log of `meta`.
    pub fn new(events: Events, state: IngestState, meta: Meta, live: LiveHub, metrics: Metrics) -> ClickHouseSink {
        ClickHouseSink {
            events,
            state,
            meta,
            live,
            metrics,
            recorded_organizations: HashSet::new(),
            stale_visits: Vec::new(),
        }
    }

    /// The rows of the batch's storable hits and what becomes of each job, or why the batch cannot be stored.
    /// The batch's consent choices are stored here (in PostgreSQL, one statement, after the visits' upsert, so
    /// that an error before it stores nothing of the batch and a repeated batch logs no choice twice).
    ///
    /// Consent as SQLite's writer applies it: a visit is tracked in full after it chose analytics, and
    /// otherwise only where the site does not require consent and the visit never declined. Without that, a
    /// page view is kept as an anonymous page count (a row with no visit, visitor or address: `visit_id` 0) and
    /// anything else is dropped. The visits' choices are read from the shared log before this batch's choices
    /// are written, and those then apply in the batch's order, so a choice made through another daemon holds
    /// here too.
    ///
    /// A hit of a site that no longer exists (deleted through any daemon, whatever this daemon's site cache
    /// still holds) is answered as SQLite's writer answers a hit of a site deleted while it was queued.
    ///
    /// Heatmap data (interactions) and recording chunks are kept as SQLite keeps them: for a visit that may be
    /// tracked in full, whose visit they keep alive, and dropped otherwise. Chunks are stored here, in
    /// PostgreSQL (`store_chunk`).
    fn rows(&mut self, batch: &[Queued]) -> Result<(Vec<HitRow>, Vec<InteractionRow>, Vec<Outcome>)> {
        let visits: HashSet<(WebsiteId, String)> = batch
            .iter()
            .filter_map(|q| match &q.job {
                Job::Hit(hit) => Some((hit.website_id, hit.session_key.clone())),
                job => quiet_visit(job).map(|visit| (visit.website_id, visit.session_key.clone())),
            })
            .collect();
        let mut choices = self.meta.latest_analytics_choices(&visits.into_iter().collect::<Vec<_>>())?;
        let mut consents: Vec<ConsentRecord> = Vec::new();
        let mut outcomes = Vec::with_capacity(batch.len());
        let mut tracked: Vec<&Hit> = Vec::with_capacity(batch.len());
        // The batch position of each of `tracked` and of `anonymous`.
        let mut tracked_at: Vec<usize> = Vec::with_capacity(batch.len());
        let mut anonymous: Vec<(usize, HitRow)> = Vec::new();
        for (position, queued) in batch.iter().enumerate() {
            let outcome = match &queued.job {
                Job::Consent(record) => {
                    choices.insert((record.website_id, record.session_key.clone()), record.data.analytics);
                    consents.push(ConsentRecord::clone(record));
                    Outcome::Consent
                }
                Job::Hit(hit) => {
                    let choice = choices.get(&(hit.website_id, hit.session_key.clone())).copied();
                    match (choice.unwrap_or(!hit.consent_required), hit.kind()) {
                        // A consent hit keeps its visit alive in SQLite and stores no event: here, nothing.
                        (_, EventKind::Consent) => Outcome::Answered(Ok(())),
                        (true, _) => {
                            tracked.push(hit);
                            tracked_at.push(position);
                            Outcome::Rows
                        }
                        (false, EventKind::Pageview) => {
                            anonymous.push((position, anonymous_row(hit.website_id, hit.ts, hit.path.clone())));
                            Outcome::Rows
                        }
                        (false, _) => Outcome::Answered(Ok(())),
                    }
                }
                Job::Interactions(_) | Job::Replay(_) => {
                    let visit = quiet_visit(&queued.job).expect("heatmap data or a recording chunk");
                    let choice = choices.get(&(visit.website_id, visit.session_key.clone())).copied();
                    match choice.unwrap_or(!visit.consent_required) {
                        true => {
                            tracked.push(visit);
                            tracked_at.push(position);
                            Outcome::Rows
                        }
                        false => Outcome::Answered(Ok(())),
                    }
                }
            };
            outcomes.push(outcome);
        }
        let visit_of_hit = self.visits(&tracked)?;
        // Heatmap data and recording chunks count for their visit's organization too, as on SQLite.
        self.record_organizations(tracked.iter().zip(&visit_of_hit).filter(|(_, v)| v.is_some()).map(|(h, _)| *h))?;
        let stored_sites = self.meta.insert_consents(&consents)?;
        for (queued, outcome) in batch.iter().zip(&mut outcomes) {
            if let Job::Consent(record) = &queued.job {
                *outcome = match stored_sites.contains(&record.website_id) {
                    true => Outcome::Answered(Ok(())),
                    false => Outcome::Answered(Err(JobError::SiteGone)),
                };
            }
        }
        let mut rows: Vec<HitRow> = Vec::with_capacity(tracked.len() + anonymous.len());
        let mut interaction_rows: Vec<InteractionRow> = Vec::new();
        for ((hit, visit), position) in tracked.iter().zip(visit_of_hit).zip(tracked_at) {
            match (visit, &batch[position].job) {
                (Some((visit_id, visitor)), Job::Interactions(interactions)) => {
                    interaction_rows.extend(self::interaction_rows(interactions, visit_id, visitor));
                    rows.push(touch_row(&interactions.visit, visit_id, visitor));
                }
                (Some((visit_id, visitor)), Job::Replay(chunk)) => match self.store_chunk(chunk, visit_id) {
                    Ok(()) => rows.push(touch_row(&chunk.visit, visit_id, visitor)),
                    Err(refused) => outcomes[position] = Outcome::Answered(Err(refused)),
                },
                (Some((visit_id, visitor)), _) => rows.push(row(hit, visit_id, visitor)),
                (None, _) => outcomes[position] = Outcome::Answered(Err(JobError::SiteGone)),
            }
        }
        if !anonymous.is_empty() {
            let sites: Vec<WebsiteId> = anonymous.iter().map(|(_, row)| row.website_id).collect();
            let existing = self.state.existing_sites(&sites)?;
            for (position, row) in anonymous {
                match existing.contains(&row.website_id) {
                    true => rows.push(row),
                    false => outcomes[position] = Outcome::Answered(Err(JobError::SiteGone)),
                }
            }
        }
        Ok((rows, interaction_rows, outcomes))
    }

    /// Stores a recording chunk of a tracked visit in PostgreSQL (committed before its visit's touch row goes to
    /// ClickHouse: a chunk answered 503 after that may be stored already, and its repetition changes nothing).
    /// A chunk past its recording's limits is refused as SQLite's writer refuses it, and its visit not touched.
    fn store_chunk(&self, chunk: &ReplayChunk, visit_id: i64) -> std::result::Result<(), JobError> {
        match self.meta.append_replay_chunk(visit_id, chunk, now_ms()) {
            Ok(true) => Ok(()),
            Ok(false) => Err(JobError::SiteGone),
            Err(refused @ Error::TooLarge(_)) => Err(JobError::Refused(refused)),
            Err(e) => Err(JobError::Unavailable(e.to_string())),
        }
    }

    /// Records in PostgreSQL the organizations (professional sites only) that tracked hits came from, those
    /// this daemon has not recorded yet: their ids are what the owner edits, and the list joins their visits.
    fn record_organizations<'h>(&mut self, hits: impl Iterator<Item = &'h Hit>) -> Result<()> {
        let seen: Vec<SeenOrganization> = hits
            .filter_map(|hit| {
                let org = hit.organization.as_ref()?;
                let fresh = !self.recorded_organizations.contains(&(hit.website_id, org.asn));
                fresh.then(|| SeenOrganization {
                    website_id: hit.website_id,
                    asn: i64::from(org.asn),
                    name: org.name.clone(),
                    confidence: i64::from(org.confidence.min(100)),
                    at: hit.ts,
                })
            })
            .collect();
        if seen.is_empty() {
            return Ok(());
        }
        self.meta.record_organizations(&seen)?;
        if self.recorded_organizations.len() > RECORDED_ORGANIZATIONS {
            self.recorded_organizations.clear();
        }
        self.recorded_organizations.extend(seen.iter().map(|o| (o.website_id, o.asn as u32)));
        Ok(())
    }

    /// The (visit id, visitor hash) of each hit, in order (`None` where its site is gone): the hits of one key are cut into runs at gaps over
    /// the idle timeout (as the SQLite writer does hit by hit), and each round of the upsert takes one run per
    /// key. A batch almost always needs one round.
    fn visits(&mut self, hits: &[&Hit]) -> Result<Vec<Option<(i64, u64)>>> {
        let mut runs: Vec<(Segment, Vec<usize>)> = Vec::new();
        let mut open: HashMap<(WebsiteId, &str), usize> = HashMap::new();
        let mut round_of_run: Vec<usize> = Vec::new();
        let mut rounds_of_key: HashMap<(WebsiteId, &str), usize> = HashMap::new();
        for (i, hit) in hits.iter().enumerate() {
            let key = (hit.website_id, hit.session_key.as_str());
            match open.get(&key).copied() {
                Some(r) if hit.ts - runs[r].0.last <= SESSION_TIMEOUT_MS => {
                    let run = &mut runs[r];
                    run.0.first = run.0.first.min(hit.ts);
                    run.0.last = run.0.last.max(hit.ts);
                    run.1.push(i);
                }
                _ => {
                    let round = rounds_of_key.entry(key).or_insert(0);
                    round_of_run.push(*round);
                    *round += 1;
                    open.insert(key, runs.len());
                    let segment = Segment {
                        website_id: hit.website_id,
                        session_key: hit.session_key.clone(),
                        first: hit.ts,
                        last: hit.ts,
                        seed: hit.visitor_seed,
                    };
                    runs.push((segment, vec![i]));
                }
            }
        }
        let mut out = vec![None; hits.len()];
        let rounds = round_of_run.iter().max().map_or(0, |r| r + 1);
        for round in 0..rounds {
            let in_round: Vec<usize> = (0..runs.len()).filter(|r| round_of_run[*r] == round).collect();
            let segments: Vec<Segment> = in_round.iter().map(|r| runs[*r].0.clone()).collect();
            let visits = self.state.visits(&segments)?;
            for (r, visit) in in_round.into_iter().zip(visits) {
                if let Some(visit) = visit
                    && rollups::outgrown(visit.start, runs[r].0.last)
                {
                    self.stale_visits.push((runs[r].0.website_id, visit.start));
                }
                for i in &runs[r].1 {
                    out[*i] = visit.map(|visit| (visit.visit_id, visit.visitor as u64));
                }
            }
        }
        Ok(out)
    }
}

/// The visit of a job that is neither a page view nor an event (heatmap data, a recording chunk).
fn quiet_visit(job: &Job) -> Option<&Hit> {
    match job {
        Job::Interactions(interactions) => Some(&interactions.visit),
        Job::Replay(chunk) => Some(&chunk.visit),
        _ => None,
    }
}

/// A page view without analytics consent as SQLite keeps it (a page count in its rollups): the site, the time
/// and the path, and nothing about the visit or the visitor. `visit_id` 0 marks it; visitor 0 puts it on the
/// first shard.
pub(super) fn anonymous_row(website_id: WebsiteId, ts: Millis, path: String) -> HitRow {
    HitRow { month: month_of(ts), website_id, ts, kind: EventKind::Pageview.as_str(), path, ..HitRow::default() }
}

/// An interactions body of a visit as rows of `interactions_local`: its points, its form-field events and its
/// scroll depth, each at the page's path.
fn interaction_rows(interactions: &Interactions, visit_id: i64, visitor: u64) -> Vec<InteractionRow> {
    let visit = &interactions.visit;
    let base = |ts: Millis, kind: &'static str| InteractionRow {
        month: month_of(ts),
        website_id: visit.website_id,
        ts,
        visit_id,
        visitor,
        session_key: visit.session_key.clone(),
        path: visit.path.clone(),
        kind,
        ..InteractionRow::default()
    };
    let (page_w, page_h) = interactions.page;
    let (viewport_w, viewport_h) = interactions.viewport;
    let points = interactions.points.iter().map(|point| InteractionRow {
        x: point.x,
        y: point.y,
        page_w,
        page_h,
        viewport_w,
        viewport_h,
        selector: point.selector.clone(),
        offset_x: point.offset.map(|o| o.0),
        offset_y: point.offset.map(|o| o.1),
        ..base(point.ts, point.kind.as_str())
    });
    let fields = interactions.fields.iter().map(|f| InteractionRow {
        form: f.form.clone(),
        field: f.field.clone(),
        filled: u8::from(f.filled),
        ..base(f.ts, f.kind.as_str())
    });
    let scroll = interactions.scroll_depth.map(|depth| InteractionRow { depth, ..base(visit.ts, "scroll") });
    let mut rows: Vec<InteractionRow> = points.chain(fields).chain(scroll).collect();
    for (seq, row) in rows.iter_mut().enumerate() {
        row.seq = seq as u32;
    }
    rows
}

/// A hit as a row of `hits_local`.
/// The row that keeps a visit alive at the time of data that is neither a page view nor an event (heatmap
/// reports), as SQLite's writer touches its session quietly: kind `touch`, which lengthens the visit (its
/// `max(ts)`) and is no activity, event or page of it.
fn touch_row(visit: &Hit, visit_id: i64, visitor: u64) -> HitRow {
    HitRow { kind: TOUCH, ..row(visit, visit_id, visitor) }
}

fn row(hit: &Hit, visit_id: i64, visitor: u64) -> HitRow {
    HitRow {
        month: month_of(hit.ts),
        website_id: hit.website_id,
        ts: hit.ts,
        visit_id,
        visitor,
        session_key: hit.session_key.clone(),
        kind: hit.kind().as_str(),
        name: hit.name.clone(),
        url: hit.url.clone(),
        path: hit.path.clone(),
        referrer: hit.referrer.clone(),
        referrer_host: hit.referrer_host.clone(),
        utm_source: hit.utm.source.clone(),
        utm_medium: hit.utm.medium.clone(),
        utm_campaign: hit.utm.campaign.clone(),
        utm_term: hit.utm.term.clone(),
        utm_content: hit.utm.content.clone(),
        properties: hit.properties.clone().unwrap_or_default(),
        value: hit.value,
        currency: hit.currency.clone().unwrap_or_default(),
        screen: hit.screen.clone(),
        country: hit.country.clone(),
        region: hit.region.clone(),
        city: hit.city.clone(),
        device: hit.device.clone(),
        browser: hit.browser.clone(),
        os: hit.os.clone(),
        ip_address: hit.ip_address.clone().unwrap_or_default(),
        organization_asn: hit.organization.as_ref().map_or(0, |o| o.asn),
        organization: hit.organization.as_ref().map(|o| o.name.clone()).unwrap_or_default(),
        source: crate::ingest::sources::source_of(&hit.utm.source, &hit.referrer_host),
        browser_version: hit.browser_version.clone(),
        os_version: hit.os_version.clone(),
    }
}

impl EventSink for ClickHouseSink {
    fn prepare(&mut self) -> Result<()> {
        super::sources::name_stored(self.state.pg(), &self.events)
    }

    fn commit_batch(&mut self, batch: Vec<Queued>) {
        let started = Instant::now();
        // Before the batch, not after: a prune forgets visits and salts a day old by the wall clock, which
        // would include a batch of older hits (`tracker demo`'s history) and split its visits at the next batch.
        if let Err(e) = self.state.prune(now_ms()) {
            tracing::warn!(error = %e, "could not prune the shared ingest state");
        }
        let mut insert_time = Duration::ZERO;
        self.stale_visits.clear();
        let prepared = self.rows(&batch).map(|(rows, interaction_rows, outcomes)| {
            let insert = Instant::now();
            let inserted = self.events.insert(&rows).and_then(|()| self.events.insert_interactions(&interaction_rows));
            insert_time = insert.elapsed();
            // After the rows are stored, so the roll-up that reads a note finds its hits; before the answers, so
            // every answered hit is noted. A failure leaves those rolled-up hours short of the visits' later hits
            // (logged; the hits are stored and answered so).
            if inserted.is_ok()
                && let Err(e) = rollups::note_stale_visits(self.state.pg(), &self.stale_visits)
            {
                tracing::warn!(error = %e, "could not note visits that outgrew their rolled-up hours");
            }
            (inserted, outcomes)
        });
        self.metrics.batch_committed(batch.len(), started.elapsed(), insert_time);
        let (inserted, outcomes) = match prepared {
            Ok(prepared) => prepared,
            Err(e) => {
                tracing::error!(error = %e, "ingest batch not stored");
                for queued in batch {
                    let _ = queued.done.send(Err(JobError::Unavailable(e.to_string())));
                }
                return;
            }
        };
        if let Err(e) = &inserted {
            // The batch's consent choices are stored (and answered so); its rows are not.
            tracing::error!(error = %e, "ingest batch not stored in ClickHouse");
        }
        let mut sites = HashSet::new();
        for (queued, outcome) in batch.into_iter().zip(outcomes) {
            let answer = match (outcome, &inserted) {
                (Outcome::Answered(answer), _) => answer,
                (_, Ok(())) => {
                    // Heatmap data alone changes nothing a live view shows.
                    if let Job::Hit(_) = &queued.job {
                        sites.insert(queued.job.website_id());
                    }
                    Ok(())
                }
                (_, Err(e)) => Err(JobError::Unavailable(e.to_string())),
            };
            let _ = queued.done.send(answer);
        }
        for site in &sites {
            self.live.publish(*site);
        }
        // After the answers: the other daemons' live streams learn of the batch one round trip later.
        if !sites.is_empty() {
            let sites: Vec<WebsiteId> = sites.into_iter().collect();
            if let Err(e) = notices::announce_hits(self.state.pg(), self.live.origin(), &sites) {
                tracing::warn!(error = %e, "could not tell the other daemons of a stored batch");
            }
        }
    }
}

#[cfg(test)]
#[path = "sink_tests.rs"]
mod tests;
