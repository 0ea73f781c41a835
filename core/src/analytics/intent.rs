//! The visitor intent model: a logistic regression over what a visit did (pages, time, scroll depth, pages
//! that precede conversions on this site, events, returning visitor, source, detected organization), fitted
//! on the site's own finished visits (converted or not), or documented prior weights when the site has too
//! few conversions. Everything runs here; nothing leaves the machine. The AI intent and advanced reads
//! (`advanced.rs`) use it, and anything else that wants a session's intent calls [`IntentModel::score`].
//!
//! Why a hand-written fit: eleven features and at most [`TRAIN_LIMIT`] rows are a few milliseconds of
//! batch gradient descent; linfa or smartcore would bring ndarray/nalgebra and their trees into a build that
//! two shared cores compile, for a fit this small. The fit is deterministic (no random initialisation).

mod features;
mod fit;

pub(crate) use features::{VisitRow, visit_features};
pub use features::{load_admitted_features, load_features, load_features_of};
pub use fit::{auc, fit, fit_features};

use std::collections::HashMap;

use serde::Serialize;

use crate::model::{Millis, ser_iso};

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

#[cfg(test)]
mod tests {
    use super::fit::key_pages;
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
