//! The visitor intent model: a logistic regression over what a visit did (pages, time, scroll depth, pages
//! that precede conversions on this site, events, returning visitor, source, detected organization), fitted
//! on the site's own finished visits (converted or not), or documented prior weights when the site has too
//! few conversions. Everything runs here; nothing leaves the machine. The AI intent and advanced reads
//! (`advanced.rs`) use it, and anything else that wants a session's intent calls [`IntentModel::score`].
//!
//! Why a hand-written fit: eleven features and at most [`TRAIN_LIMIT`] rows are a few milliseconds of
//! batch gradient descent; linfa or smartcore would bring ndarray/nalgebra and their trees into a build that
//! two shared cores compile, for a fit this small. The fit is deterministic (no random initialisation).

use std::collections::{HashMap, HashSet};
use std::time::Instant;

use rusqlite::{Connection, OptionalExtension, params};
use serde::Serialize;

use crate::error::Result;
use crate::model::{Millis, WebsiteId, ser_iso};

/// The model's features, in vector order (also the `feature` names in responses).
pub const FEATURES: [&str; 11] = [
    "pages",
    "duration",
    "scrollDepth",
    "keyPage",
    "events",
    "returning",
    "search",
    "social",
    "referral",
    "campaign",
    "organization",
];
const N: usize = FEATURES.len();

/// Fewest converted visits (and as many others) in the history before weights are fitted on it.
pub const MIN_CONVERSIONS: usize = 20;
/// Fewest visits in the history before weights are fitted on it.
pub const MIN_SESSIONS: usize = 100;
/// How far back the history a model is fitted on goes.
pub const HISTORY_MS: Millis = 30 * 86_400_000;
/// Most (most recent) visits a fit reads.
pub const TRAIN_LIMIT: i64 = 20_000;
/// A visit is finished (and can teach the model whether it converted) once idle this long.
pub const FINISHED_AFTER_MS: Millis = 30 * 60 * 1000;
/// One visit in this many (see `is_held_out`) is held out of the fit to measure it.
const HOLDOUT_EVERY: u64 = 5;
/// A page precedes conversions when at least this many converted visits viewed it before converting...
const KEY_PAGE_MIN_CONVERSIONS: usize = 3;
/// ...and visits that view it convert at least this many times as often as the site's visits overall.
const KEY_PAGE_MIN_LIFT: f64 = 1.5;
/// Most key pages a model keeps.
const KEY_PAGES_MAX: usize = 10;
/// L2 penalty, learning rate and iterations of the fit (standardised features).
const L2: f64 = 0.01;
const LEARNING_RATE: f64 = 0.5;
const ITERATIONS: usize = 600;

/// Prior log-odds weights per raw feature unit, used until the site has [`MIN_CONVERSIONS`] conversions:
/// ln(1 + pages) 1.2, ln(1 + minutes) 0.8, scroll share 1.0, a key page 1.5, ln(1 + events) 0.6, returning
/// 0.5, search 0.3, social -0.2, referral 0.1, campaign 0.4, organization 0.7. A single-page visit of no
/// time scores about 4, an engaged one (6 pages, 5 minutes, deep scroll, an event, from search) about 78.
pub const PRIOR_WEIGHTS: [f64; N] = [1.2, 0.8, 1.0, 1.5, 0.6, 0.5, 0.3, -0.2, 0.1, 0.4, 0.7];
/// The prior weights' reference visit (what "average" means in reasons): 2 pages, 1 minute, half the page
/// scrolled, nothing else; and the prior log-odds of that visit (about 17%).
const PRIOR_REFERENCE: [f64; N] = [1.0986, std::f64::consts::LN_2, 0.5, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0];
const PRIOR_BIAS: f64 = -1.6;
/// A fitted score sets a visit's odds of converting against the site's average odds: 50 at twice the average,
/// 60 at three times, 80 at eight times, the average visit 33 (score = 100 o / (o + 2 o_avg)). Why not the
/// probability itself: most sites convert a few visits in a hundred, so a calibrated probability almost never
/// reaches the spec's high-intent 60 and every visit read "low" however clearly the model told them apart.
const FITTED_SCORE_ODDS: f64 = 2.0;

/// Where a visit came from, once: UTM tags make it a campaign, else its referrer's kind, else direct.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum SourceType {
    Search,
    Social,
    Direct,
    Referral,
    Campaign,
}

const SEARCH_HOSTS: &[&str] = &[
    "google.",
    "bing.com",
    "duckduckgo.com",
    "yahoo.",
    "baidu.com",
    "yandex.",
    "ecosia.org",
    "search.brave.com",
    "startpage.com",
    "qwant.com",
    "kagi.com",
    "naver.com",
];
const SOCIAL_HOSTS: &[&str] = &[
    "facebook.com",
    "t.co",
    "twitter.com",
    "x.com",
    "linkedin.com",
    "lnkd.in",
    "reddit.com",
    "instagram.com",
    "youtube.com",
    "pinterest.com",
    "tiktok.com",
    "news.ycombinator.com",
    "threads.net",
    "mastodon.social",
    "bsky.app",
];

impl SourceType {
    /// Every source type, in the order segments list them.
    pub const ALL: [SourceType; 5] =
        [SourceType::Search, SourceType::Social, SourceType::Direct, SourceType::Referral, SourceType::Campaign];

    /// Classifies a visit by its landing UTM tags and referring host (as stored, without `www.`).
    pub fn classify(referrer_host: &str, utm_source: &str, utm_medium: &str, utm_campaign: &str) -> SourceType {
        if !utm_source.is_empty() || !utm_medium.is_empty() || !utm_campaign.is_empty() {
            return SourceType::Campaign;
        }
        if referrer_host.is_empty() {
            return SourceType::Direct;
        }
        let host = referrer_host.to_ascii_lowercase();
        let matches = |list: &[&str]| {
            list.iter().any(|entry| {
                if entry.ends_with('.') {
                    host.starts_with(entry) || host.contains(&format!(".{entry}"))
                } else {
                    host == *entry || host.ends_with(&format!(".{entry}"))
                }
            })
        };
        if matches(SEARCH_HOSTS) {
            SourceType::Search
        } else if matches(SOCIAL_HOSTS) {
            SourceType::Social
        } else {
            SourceType::Referral
        }
    }

    /// The segment label ("Search", "Direct", ...).
    pub fn label(self) -> &'static str {
        match self {
            SourceType::Search => "Search",
            SourceType::Social => "Social",
            SourceType::Direct => "Direct",
            SourceType::Referral => "Referral",
            SourceType::Campaign => "Campaign",
        }
    }
}

/// What a visit did, up to its first conversion for a converted visit (so the model learns what comes before
/// converting, not the thank-you page after it).
#[derive(Debug, Clone, PartialEq)]
pub struct SessionFeatures {
    pub session_id: i64,
    pub session_key: String,
    pub page_views: i64,
    pub duration_s: i64,
    /// Deepest scroll of any page, 0-100.
    pub scroll_depth: i64,
    /// Custom events, outbound links and downloads (not page views or conversions).
    pub events: i64,
    /// The visitor had an earlier visit to the site that day (the visitor hash changes daily by design).
    pub returning: bool,
    pub source: SourceType,
    pub organization: bool,
    /// Distinct paths viewed, in first-view order.
    pub pages: Vec<String>,
    pub converted: bool,
    pub first_seen: Millis,
}

/// A feature's share in one score, in log-odds against the reference visit; positive raises the score.
#[derive(Debug, Clone, Serialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Reason {
    pub feature: &'static str,
    pub label: String,
    pub impact: f64,
}

/// One visit's score and why.
#[derive(Debug, Clone, Serialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct IntentScore {
    /// 0-100: the prior model's conversion probability in percent, or a fitted model's odds of converting
    /// against the site's average visit ([`FITTED_SCORE_ODDS`]).
    pub score: i64,
    /// The model's conversion probability in percent, one decimal.
    pub probability: f64,
    /// The key page the visit viewed, if any.
    pub key_page: Option<String>,
    pub raised_by: Vec<Reason>,
    pub lowered_by: Vec<Reason>,
}

/// A page that precedes conversions on the site, with the numbers that made it one.
#[derive(Debug, Clone, Serialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct KeyPage {
    pub page: String,
    /// Visits that viewed it (before converting, for converted ones).
    pub sessions: i64,
    pub conversions: i64,
    /// Percent, one decimal.
    pub conversion_rate: f64,
    /// Its conversion rate over the site's.
    pub lift: f64,
}

#[derive(Debug, Clone, Serialize, PartialEq, utoipa::ToSchema)]
pub struct Weight {
    pub feature: &'static str,
    pub weight: f64,
}

/// How the weights were obtained, and how well they separate converters on visits the fit never saw.
#[derive(Debug, Clone, Serialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ModelInfo {
    /// `fitted` on the site's history, or `prior` weights.
    pub source: &'static str,
    /// Why priors are used, or what the fit was on.
    pub note: String,
    pub training_sessions: i64,
    pub training_conversions: i64,
    pub held_out_sessions: i64,
    pub held_out_conversions: i64,
    /// Area under the ROC curve on the held-out visits (0.5 = chance, 1 = perfect); null without both
    /// converted and other held-out visits.
    pub auc: Option<f64>,
    #[schema(value_type = String, format = DateTime)]
    #[serde(serialize_with = "ser_iso")]
    pub fitted_at: Millis,
    pub fit_ms: f64,
    /// Log-odds per standard deviation of each feature (per raw unit for priors).
    pub weights: Vec<Weight>,
    pub key_pages: Vec<KeyPage>,
    /// Converted visits per 100 finished visits of the history, one decimal.
    pub base_conversion_rate: f64,
}

/// A fitted (or prior) model of one site.
#[derive(Debug, Clone)]
pub struct IntentModel {
    mean: [f64; N],
    scale: [f64; N],
    weights: [f64; N],
    bias: f64,
    /// Added to a visit's log-odds for its score: 0 for priors, -ln(2 x the site's average odds) once fitted.
    score_offset: f64,
    key_pages: HashMap<String, f64>,
    pub info: ModelInfo,
}

fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

/// "42 s", "3m 05s".
fn duration_label(s: i64) -> String {
    if s < 60 { format!("{s} s") } else { format!("{}m {:02}s", s / 60, s % 60) }
}

fn plural(n: i64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

impl IntentModel {
    /// The prior model: documented weights, no key pages unless the history shows some.
    pub fn prior(note: String, key_pages: Vec<KeyPage>, base_rate: f64, now: Millis) -> IntentModel {
        IntentModel {
            mean: PRIOR_REFERENCE,
            scale: [1.0; N],
            weights: PRIOR_WEIGHTS,
            bias: PRIOR_BIAS,
            score_offset: 0.0,
            key_pages: key_pages.iter().map(|k| (k.page.clone(), k.lift)).collect(),
            info: ModelInfo {
                source: "prior",
                note,
                training_sessions: 0,
                training_conversions: 0,
                held_out_sessions: 0,
                held_out_conversions: 0,
                auc: None,
                fitted_at: now,
                fit_ms: 0.0,
                weights: FEATURES
                    .iter()
                    .zip(PRIOR_WEIGHTS)
                    .map(|(&feature, weight)| Weight { feature, weight })
                    .collect(),
                key_pages,
                base_conversion_rate: base_rate,
            },
        }
    }

    /// The best key page a visit viewed (highest lift).
    fn key_page_of<'a>(&self, f: &'a SessionFeatures) -> Option<&'a String> {
        f.pages
            .iter()
            .filter_map(|p| self.key_pages.get(p).map(|lift| (p, *lift)))
            .max_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(p, _)| p)
    }

    /// The raw feature vector of a visit.
    fn vector(&self, f: &SessionFeatures) -> [f64; N] {
        let one_hot = |s: SourceType| if f.source == s { 1.0 } else { 0.0 };
        [
            (1.0 + f.page_views.max(0) as f64).ln(),
            (1.0 + f.duration_s.max(0) as f64 / 60.0).ln(),
            f.scroll_depth.clamp(0, 100) as f64 / 100.0,
            if self.key_page_of(f).is_some() { 1.0 } else { 0.0 },
            (1.0 + f.events.max(0) as f64).ln(),
            if f.returning { 1.0 } else { 0.0 },
            one_hot(SourceType::Search),
            one_hot(SourceType::Social),
            one_hot(SourceType::Referral),
            one_hot(SourceType::Campaign),
            if f.organization { 1.0 } else { 0.0 },
        ]
    }

    fn contributions(&self, x: &[f64; N]) -> [f64; N] {
        let mut c = [0.0; N];
        for i in 0..N {
            c[i] = self.weights[i] * (x[i] - self.mean[i]) / self.scale[i];
        }
        c
    }

    fn log_odds(&self, c: &[f64; N]) -> f64 {
        self.bias + c.iter().sum::<f64>()
    }

    fn probability(&self, x: &[f64; N]) -> f64 {
        sigmoid(self.log_odds(&self.contributions(x)))
    }

    /// The score and the probability (percent, one decimal) of a visit's contributions.
    fn score_and_probability(&self, c: &[f64; N]) -> (i64, f64) {
        let z = self.log_odds(c);
        ((sigmoid(z + self.score_offset) * 100.0).round() as i64, (sigmoid(z) * 1000.0).round() / 10.0)
    }

    /// A visit's score and key page without the reasons (no labels written): what counting thousands of
    /// visits needs; [`IntentModel::score`] gives the same score with its reasons.
    pub fn score_without_reasons(&self, f: &SessionFeatures) -> IntentScore {
        let (score, probability) = self.score_and_probability(&self.contributions(&self.vector(f)));
        let key_page = self.key_page_of(f).cloned();
        IntentScore { score, probability, key_page, raised_by: Vec::new(), lowered_by: Vec::new() }
    }

    /// Scores a visit 0-100 with the three features that raised and lowered it most.
    pub fn score(&self, f: &SessionFeatures) -> IntentScore {
        let x = self.vector(f);
        let c = self.contributions(&x);
        let (score, probability) = self.score_and_probability(&c);
        let key_page = self.key_page_of(f).cloned();
        // The four source columns are one fact about the visit: one reason.
        let mut parts: Vec<(&'static str, f64)> = vec![
            ("pages", c[0]),
            ("duration", c[1]),
            ("scrollDepth", c[2]),
            ("keyPage", c[3]),
            ("events", c[4]),
            ("returning", c[5]),
            ("source", c[6] + c[7] + c[8] + c[9]),
            ("organization", c[10]),
        ];
        parts.sort_by(|a, b| b.1.abs().total_cmp(&a.1.abs()));
        let mut raised_by = Vec::new();
        let mut lowered_by = Vec::new();
        for (feature, impact) in parts {
            if impact.abs() < 0.05 {
                continue;
            }
            let reason = Reason {
                feature,
                label: self.label(feature, f, key_page.as_deref(), impact > 0.0),
                impact: round2(impact),
            };
            let list = if impact > 0.0 { &mut raised_by } else { &mut lowered_by };
            if list.len() < 3 {
                list.push(reason);
            }
        }
        IntentScore { score, probability, key_page, raised_by, lowered_by }
    }

    fn label(&self, feature: &str, f: &SessionFeatures, key_page: Option<&str>, raises: bool) -> String {
        match feature {
            "pages" => format!("Viewed {}", plural(f.page_views, "page", "pages")),
            "duration" => format!("Stayed {}", duration_label(f.duration_s)),
            "scrollDepth" => format!("Scrolled {}% down a page", f.scroll_depth),
            "keyPage" => match key_page {
                Some(page) => format!("Viewed {page}, which converting visitors view before converting"),
                None => match self.info.key_pages.first() {
                    Some(k) if !raises => format!("Did not view {}, which precedes conversions", k.page),
                    _ => "Viewed no page that precedes conversions".to_string(),
                },
            },
            "events" => {
                if f.events == 0 {
                    "Triggered no events".into()
                } else {
                    format!("Triggered {}", plural(f.events, "event", "events"))
                }
            }
            "returning" => {
                if f.returning {
                    "Returning visitor".into()
                } else {
                    "First visit today".into()
                }
            }
            "source" => match f.source {
                SourceType::Direct => "Came directly".into(),
                SourceType::Campaign => "Came from a campaign".into(),
                other => format!("Came from {}", other.label().to_lowercase()),
            },
            _ => {
                if f.organization {
                    "Visit from a detected organization".into()
                } else {
                    "No organization detected".into()
                }
            }
        }
    }
}

/// A visit's row as the feature loaders read it (SQLite's `sessions` row, or a visit the cluster groups its
/// hits into).
#[derive(Debug, Clone)]
pub(crate) struct VisitRow {
    pub id: i64,
    pub key: String,
    pub hash: i64,
    pub first_seen: Millis,
    pub last_seen: Millis,
    pub converted: bool,
    pub source: SourceType,
    pub organization: bool,
}

const ROW_COLUMNS: &str = "id, session_key, visitor_hash, first_seen, last_seen, is_converted, referrer_host, \
                           utm_source, utm_medium, utm_campaign, organization_id IS NOT NULL";

fn row(r: &rusqlite::Row) -> rusqlite::Result<VisitRow> {
    Ok(VisitRow {
        id: r.get(0)?,
        key: r.get(1)?,
        hash: r.get(2)?,
        first_seen: r.get(3)?,
        last_seen: r.get(4)?,
        converted: r.get(5)?,
        source: SourceType::classify(
            &r.get::<_, String>(6)?,
            &r.get::<_, String>(7)?,
            &r.get::<_, String>(8)?,
            &r.get::<_, String>(9)?,
        ),
        organization: r.get(10)?,
    })
}

/// Loads the features of a site's visits that started in [from, to), most recent first, at most `limit`;
/// `finished_before`: only visits idle since then or converted (for fitting).
pub fn load_features(
    conn: &Connection,
    site: WebsiteId,
    from: Millis,
    to: Millis,
    limit: i64,
    finished_before: Option<Millis>,
) -> Result<Vec<SessionFeatures>> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {ROW_COLUMNS}
         FROM sessions WHERE website_id = ?1 AND first_seen >= ?2 AND first_seen < ?3
           AND (?4 IS NULL OR last_seen < ?4 OR is_converted)
         ORDER BY first_seen DESC LIMIT ?5"
    ))?;
    let rows: Vec<VisitRow> =
        stmt.query_map(params![site, from, to, finished_before, limit], row)?.collect::<rusqlite::Result<_>>()?;
    let Some(earliest) = rows.iter().map(|r| r.first_seen).min() else {
        return Ok(Vec::new());
    };
    // The first visit of each visitor hash per day, from the start of the earliest visit's day (the hash's
    // salt rotates daily, so a visitor is recognised within a day only). Reads the covering start index.
    let day = |ms: Millis| ms.div_euclid(86_400_000);
    let mut first_of_day: HashMap<(i64, i64), Millis> = HashMap::new();
    {
        let latest = rows.iter().map(|r| r.first_seen).max().unwrap_or(earliest);
        let mut stmt = conn.prepare_cached(
            "SELECT visitor_hash, first_seen FROM sessions WHERE website_id = ?1 AND first_seen >= ?2 AND first_seen <= ?3",
        )?;
        let mut q = stmt.query(params![site, day(earliest) * 86_400_000, latest])?;
        while let Some(r) = q.next()? {
            let (hash, seen): (i64, Millis) = (r.get(0)?, r.get(1)?);
            let entry = first_of_day.entry((hash, day(seen))).or_insert(seen);
            *entry = (*entry).min(seen);
        }
    }
    // Every event of these visits lies between the earliest start and the latest activity among them: one pass
    // over the site's events of that span (in time order, as a visit's pages are listed) instead of a query
    // per visit; events of other visits in the span are skipped.
    let index: HashMap<i64, usize> = rows.iter().enumerate().map(|(i, r)| (r.id, i)).collect();
    let latest = rows.iter().map(|r| r.last_seen).max().unwrap_or(earliest);
    let mut visit_events: Vec<Vec<(Millis, String, String)>> = vec![Vec::new(); rows.len()];
    {
        let mut stmt = conn.prepare_cached(
            "SELECT session_id, ts, kind, path FROM events WHERE website_id = ?1 AND ts >= ?2 AND ts <= ?3
             ORDER BY ts, id",
        )?;
        let mut q = stmt.query(params![site, earliest, latest])?;
        while let Some(r) = q.next()? {
            if let Some(&i) = index.get(&r.get::<_, i64>(0)?) {
                visit_events[i].push((r.get(1)?, r.get(2)?, r.get(3)?));
            }
        }
    }
    let mut scroll =
        conn.prepare_cached("SELECT COALESCE(MAX(depth), 0) FROM scroll_depths WHERE session_id = ?1 AND ts < ?2")?;
    let mut out = Vec::with_capacity(rows.len());
    for (row, events) in rows.into_iter().zip(visit_events) {
        let first_today = first_of_day.get(&(row.hash, day(row.first_seen))).copied().unwrap_or(row.first_seen);
        let returning = first_today < row.first_seen;
        let depth = |id, cutoff| Ok(scroll.query_row(params![id, cutoff], |r| r.get(0))?);
        out.push(visit_features(row, events, returning, depth)?);
    }
    Ok(out)
}

/// The features of the site's visits `ids` (each with whether it is a returning visit, which the caller knows),
/// as [`load_features`] loads them, read visit by visit: for a few visits spread over a long range.
pub fn load_features_of(conn: &Connection, site: WebsiteId, ids: &[(i64, bool)]) -> Result<Vec<SessionFeatures>> {
    let mut session =
        conn.prepare_cached(&format!("SELECT {ROW_COLUMNS} FROM sessions WHERE id = ?1 AND website_id = ?2"))?;
    let mut events = conn.prepare_cached("SELECT ts, kind, path FROM events WHERE session_id = ?1 ORDER BY ts, id")?;
    let mut scroll =
        conn.prepare_cached("SELECT COALESCE(MAX(depth), 0) FROM scroll_depths WHERE session_id = ?1 AND ts < ?2")?;
    let mut out = Vec::with_capacity(ids.len());
    for &(id, returning) in ids {
        let Some(row) = session.query_row(params![id, site], row).optional()? else { continue };
        let visit_events = events
            .query_map(params![id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        let depth = |id, cutoff| Ok(scroll.query_row(params![id, cutoff], |r| r.get(0))?);
        out.push(visit_features(row, visit_events, returning, depth)?);
    }
    Ok(out)
}

/// What a visit did, from its row and its events (time, kind, path) in time order: up to its first conversion
/// if it converted. `scroll_depth(visit id, cutoff)` is the deepest scroll the visit recorded before the cutoff.
pub(crate) fn visit_features(
    row: VisitRow,
    events: Vec<(Millis, String, String)>,
    returning: bool,
    scroll_depth: impl FnOnce(i64, Millis) -> Result<i64>,
) -> Result<SessionFeatures> {
    // A converted visit is seen up to its first conversion.
    let cutoff: Millis = if row.converted {
        events.iter().filter(|(_, kind, _)| kind == "conversion").map(|(ts, _, _)| *ts).min().unwrap_or(Millis::MAX)
    } else {
        Millis::MAX
    };
    let mut page_views = 0;
    let mut event_count = 0;
    let mut last_ts = row.first_seen;
    let mut pages: Vec<String> = Vec::new();
    let mut seen = HashSet::new();
    for (ts, kind, path) in events {
        if ts >= cutoff {
            continue;
        }
        last_ts = last_ts.max(ts);
        match kind.as_str() {
            "pageview" => {
                page_views += 1;
                if seen.insert(path.clone()) {
                    pages.push(path);
                }
            }
            "conversion" | "identify" | "consent" => {}
            _ => event_count += 1,
        }
    }
    let end = if cutoff == Millis::MAX { row.last_seen } else { cutoff.min(row.last_seen).max(last_ts) };
    let scroll_depth = scroll_depth(row.id, cutoff)?;
    Ok(SessionFeatures {
        session_id: row.id,
        session_key: row.key,
        page_views,
        duration_s: ((end - row.first_seen) / 1000).max(0),
        scroll_depth,
        events: event_count,
        returning,
        source: row.source,
        organization: row.organization,
        pages,
        converted: row.converted,
        first_seen: row.first_seen,
    })
}

/// The pages converted visits viewed before converting markedly more often than visits overall.
fn key_pages(sessions: &[&SessionFeatures]) -> (Vec<KeyPage>, f64) {
    let total = sessions.len() as f64;
    let converted = sessions.iter().filter(|s| s.converted).count() as f64;
    let base = if total > 0.0 { converted / total } else { 0.0 };
    let mut by_page: HashMap<&str, (i64, i64)> = HashMap::new();
    for s in sessions {
        for page in &s.pages {
            let entry = by_page.entry(page.as_str()).or_default();
            entry.0 += 1;
            entry.1 += s.converted as i64;
        }
    }
    let mut pages: Vec<KeyPage> = by_page
        .into_iter()
        .filter(|(_, (_, conv))| *conv as usize >= KEY_PAGE_MIN_CONVERSIONS)
        .filter_map(|(page, (n, conv))| {
            let rate = conv as f64 / n as f64;
            let lift = if base > 0.0 { rate / base } else { 0.0 };
            (lift >= KEY_PAGE_MIN_LIFT).then(|| KeyPage {
                page: page.to_string(),
                sessions: n,
                conversions: conv,
                conversion_rate: (rate * 1000.0).round() / 10.0,
                lift: (lift * 10.0).round() / 10.0,
            })
        })
        .collect();
    pages.sort_by(|a, b| b.lift.total_cmp(&a.lift).then(b.sessions.cmp(&a.sessions)).then(a.page.cmp(&b.page)));
    pages.truncate(KEY_PAGES_MAX);
    (pages, (base * 1000.0).round() / 10.0)
}

/// Area under the ROC curve of `scores` against `labels` (Mann-Whitney, ties counted half); None without
/// both classes.
pub fn auc(scored: &[(f64, bool)]) -> Option<f64> {
    let positives = scored.iter().filter(|s| s.1).count();
    let negatives = scored.len() - positives;
    if positives == 0 || negatives == 0 {
        return None;
    }
    let mut sorted: Vec<(f64, bool)> = scored.to_vec();
    sorted.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut rank_sum = 0.0;
    let mut i = 0;
    while i < sorted.len() {
        let mut j = i;
        while j + 1 < sorted.len() && sorted[j + 1].0 == sorted[i].0 {
            j += 1;
        }
        // Ranks i+1..=j+1 share their average.
        let average = (i + j + 2) as f64 / 2.0;
        rank_sum += average * sorted[i..=j].iter().filter(|s| s.1).count() as f64;
        i = j + 1;
    }
    let p = positives as f64;
    Some((rank_sum - p * (p + 1.0) / 2.0) / (p * negatives as f64))
}

/// Fits the model of a site on its finished visits of the last [`HISTORY_MS`] in SQLite; priors when there are
/// too few.
pub fn fit(conn: &Connection, site: WebsiteId, now: Millis) -> Result<IntentModel> {
    let started = Instant::now();
    let history = load_features(conn, site, now - HISTORY_MS, now, TRAIN_LIMIT, Some(now - FINISHED_AFTER_MS))?;
    Ok(fit_features(&history, now, started))
}

/// Whether a visit is held out of the fit: an FNV-1a hash of its start counted from `earliest`, the first start
/// among the visits fitted on. Every engine stores starts alike (visit ids and retired visits' keys differ
/// between SQLite and the cluster), and counting from the earliest keeps the split off the wall clock: visits
/// that stand in the same relation are split the same way whenever they happened.
fn is_held_out(f: &SessionFeatures, earliest: Millis) -> bool {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in (f.first_seen - earliest).to_le_bytes() {
        hash = (hash ^ byte as u64).wrapping_mul(0x0100_0000_01b3);
    }
    hash.is_multiple_of(HOLDOUT_EVERY)
}

/// Fits the model on `history`, a site's finished visits of the last [`HISTORY_MS`] (at most [`TRAIN_LIMIT`],
/// most recent first) whichever engine loaded them; priors when there are too few. `started`: when the fit
/// began, loading included, for the model's `fit_ms`.
pub fn fit_features(history: &[SessionFeatures], now: Millis, started: Instant) -> IntentModel {
    let earliest = history.iter().map(|s| s.first_seen).min().unwrap_or(0);
    let (held_out, train): (Vec<&SessionFeatures>, Vec<&SessionFeatures>) =
        history.iter().partition(|s| is_held_out(s, earliest));
    let conversions = train.iter().filter(|s| s.converted).count();
    let others = train.len() - conversions;
    let (key_pages, base_rate) = key_pages(&train);
    if history.len() < MIN_SESSIONS || conversions < MIN_CONVERSIONS || others < MIN_CONVERSIONS {
        let all_conversions = history.iter().filter(|s| s.converted).count();
        let note = format!(
            "Prior weights: {} and {} finished visits in the last 30 days; fitting needs at least {MIN_CONVERSIONS} \
             conversions and {MIN_SESSIONS} visits.",
            plural(all_conversions as i64, "conversion", "conversions"),
            history.len()
        );
        let mut model = IntentModel::prior(note, key_pages, base_rate, now);
        model.info.training_sessions = history.len() as i64;
        model.info.training_conversions = all_conversions as i64;
        return model;
    }
    // Standardise on the training visits, then batch gradient descent on the mean log loss plus L2.
    let mut model = IntentModel::prior(String::new(), key_pages, base_rate, now);
    let xs: Vec<[f64; N]> = train.iter().map(|s| model.vector(s)).collect();
    let ys: Vec<f64> = train.iter().map(|s| if s.converted { 1.0 } else { 0.0 }).collect();
    let n = xs.len() as f64;
    let mut mean = [0.0; N];
    let mut scale = [0.0; N];
    for x in &xs {
        for i in 0..N {
            mean[i] += x[i] / n;
        }
    }
    for x in &xs {
        for i in 0..N {
            scale[i] += (x[i] - mean[i]).powi(2) / n;
        }
    }
    for s in scale.iter_mut() {
        *s = if *s > 1e-12 { s.sqrt() } else { 1.0 };
    }
    let zs: Vec<[f64; N]> = xs
        .iter()
        .map(|x| {
            let mut z = [0.0; N];
            for i in 0..N {
                z[i] = (x[i] - mean[i]) / scale[i];
            }
            z
        })
        .collect();
    let p0 = (conversions as f64 / n).clamp(1e-6, 1.0 - 1e-6);
    let mut bias = (p0 / (1.0 - p0)).ln();
    let mut weights = [0.0; N];
    for _ in 0..ITERATIONS {
        let mut grad = [0.0; N];
        let mut grad_bias = 0.0;
        for (z, y) in zs.iter().zip(&ys) {
            let mut logit = bias;
            for i in 0..N {
                logit += weights[i] * z[i];
            }
            let error = sigmoid(logit) - y;
            grad_bias += error / n;
            for i in 0..N {
                grad[i] += error * z[i] / n;
            }
        }
        bias -= LEARNING_RATE * grad_bias;
        for i in 0..N {
            weights[i] -= LEARNING_RATE * (grad[i] + L2 * weights[i]);
        }
    }
    model.mean = mean;
    model.scale = scale;
    model.weights = weights;
    model.bias = bias;
    model.score_offset = -(FITTED_SCORE_ODDS * p0 / (1.0 - p0)).ln();
    let scored: Vec<(f64, bool)> =
        held_out.iter().map(|s| (model.probability(&model.vector(s)), s.converted)).collect();
    let held_out_conversions = held_out.iter().filter(|s| s.converted).count();
    model.info = ModelInfo {
        source: "fitted",
        note: format!(
            "Fitted on {} finished visits of the last 30 days ({}); one visit in {HOLDOUT_EVERY} held out to measure it. \
             Scores set a visit's odds of converting against the average visit's: 33 is average, 60 three times \
             its odds, 80 eight times.",
            train.len(),
            plural(conversions as i64, "conversion", "conversions")
        ),
        training_sessions: train.len() as i64,
        training_conversions: conversions as i64,
        held_out_sessions: held_out.len() as i64,
        held_out_conversions: held_out_conversions as i64,
        auc: auc(&scored).map(|a| (a * 1000.0).round() / 1000.0),
        fitted_at: now,
        fit_ms: 0.0,
        weights: FEATURES
            .iter()
            .zip(weights)
            .map(|(&feature, weight)| Weight { feature, weight: round2(weight) })
            .collect(),
        key_pages: model.info.key_pages.clone(),
        base_conversion_rate: base_rate,
    };
    model.info.fit_ms = (started.elapsed().as_secs_f64() * 10_000.0).round() / 10.0;
    model
}

#[cfg(test)]
mod tests {
    use super::*;

    fn visit(id: i64, pages: &[&str], duration_s: i64, converted: bool) -> SessionFeatures {
        SessionFeatures {
            session_id: id,
            session_key: format!("s{id}"),
            page_views: pages.len() as i64,
            duration_s,
            scroll_depth: 0,
            events: 0,
            returning: false,
            source: SourceType::Direct,
            organization: false,
            pages: pages.iter().map(|p| p.to_string()).collect(),
            converted,
            first_seen: 0,
        }
    }

    #[test]
    fn auc_counts_ties_half_and_needs_both_classes() {
        assert_eq!(auc(&[(0.9, true), (0.1, false)]), Some(1.0));
        assert_eq!(auc(&[(0.1, true), (0.9, false)]), Some(0.0));
        assert_eq!(auc(&[(0.5, true), (0.5, false)]), Some(0.5));
        assert_eq!(auc(&[(0.5, true)]), None);
    }

    #[test]
    fn sources_are_classified_once() {
        assert_eq!(SourceType::classify("google.com", "", "", ""), SourceType::Search);
        assert_eq!(SourceType::classify("google.co.uk", "", "", ""), SourceType::Search);
        assert_eq!(SourceType::classify("t.co", "", "", ""), SourceType::Social);
        assert_eq!(SourceType::classify("", "", "", ""), SourceType::Direct);
        assert_eq!(SourceType::classify("blog.example.org", "", "", ""), SourceType::Referral);
        assert_eq!(SourceType::classify("google.com", "newsletter", "", ""), SourceType::Campaign);
        assert_eq!(SourceType::classify("notgoogle.com", "", "", ""), SourceType::Referral);
    }

    #[test]
    fn priors_rank_engagement_and_explain_it() {
        let model = IntentModel::prior(String::new(), Vec::new(), 0.0, 0);
        let bounce = model.score(&visit(1, &["/"], 0, false));
        let mut engaged = visit(2, &["/", "/a", "/b", "/c", "/d", "/e"], 300, false);
        engaged.scroll_depth = 80;
        engaged.events = 1;
        let engaged = model.score(&engaged);
        assert!(bounce.score < 10 && engaged.score > 50, "{bounce:?} {engaged:?}");
        assert_eq!(engaged.raised_by[0].feature, "pages");
        assert!(bounce.lowered_by.iter().any(|r| r.label == "Viewed 1 page"), "{bounce:?}");
    }

    #[test]
    fn key_pages_need_lift_and_converters() {
        let mut visits = Vec::new();
        for i in 0..40 {
            visits.push(visit(i, &["/", "/pricing"], 60, i % 2 == 0));
        }
        for i in 40..120 {
            visits.push(visit(i, &["/", "/blog"], 60, i % 20 == 0));
        }
        let refs: Vec<&SessionFeatures> = visits.iter().collect();
        let (pages, base) = key_pages(&refs);
        assert_eq!(pages.len(), 1, "{pages:?}");
        assert_eq!(pages[0].page, "/pricing");
        assert_eq!((pages[0].sessions, pages[0].conversions), (40, 20));
        assert!(base > 0.0);
    }
}
