//! Advanced Analytics' recommendations: what to do, drawn from the intent model and the range's scored visits,
//! each citing the numbers behind it.

use super::scored::{CONVERTED, FIRST_KEY_PAGE, KEY_PAGE, ScoredVisit};
use super::{Evidence, HIGH_INTENT, MIN_EVIDENCE, Recommendation, share};
use crate::analytics::intent::{self, IntentModel, SourceType};
use crate::analytics::overview::percent;

/// Recommendations drawn from the model and the range's scored visits; each cites the numbers behind it.
pub(super) fn recommendations(model: &IntentModel, scored: &[ScoredVisit]) -> Vec<Recommendation> {
    let mut out = Vec::new();
    let n = scored.len();
    let converted = scored.iter().filter(|v| v.has(CONVERTED)).count();
    let rate = share(converted, n);
    let ev = |label: &str, value: String| Evidence { label: label.to_string(), value };
    if model.info.source == "prior" {
        out.push(Recommendation {
            id: "track_conversions",
            priority: "high",
            title: "Record more conversions to train the intent model".into(),
            detail: format!(
                "Scores use prior weights: the last 30 days hold {} converted of {} finished visits, and fitting \
                 needs at least {}. Send conversions with tracker.track(name, {{ value }}) or mark an event \
                 definition as a conversion.",
                model.info.training_conversions,
                model.info.training_sessions,
                intent::MIN_CONVERSIONS
            ),
            evidence: vec![
                ev("Conversions (30 days)", model.info.training_conversions.to_string()),
                ev("Needed to fit", intent::MIN_CONVERSIONS.to_string()),
            ],
        });
    }
    // The page that precedes conversions most, and how its visitors behave in this range.
    if let Some(key) = model.info.key_pages.first() {
        let viewers = scored.iter().filter(|v| v.has(FIRST_KEY_PAGE)).count();
        out.push(Recommendation {
            id: "key_page",
            priority: "high",
            title: format!("Visitors who view {} convert {}x as often", key.page, key.lift),
            detail: format!(
                "{} of {} visits that viewed {} converted ({}%), against {}% of all visits. Link to it from your \
                 busiest pages; {} visits in this period reached it.",
                key.conversions, key.sessions, key.page, key.conversion_rate, model.info.base_conversion_rate, viewers
            ),
            evidence: vec![
                ev("Conversion rate after viewing", format!("{}%", key.conversion_rate)),
                ev("Site conversion rate", format!("{}%", model.info.base_conversion_rate)),
                ev("Visits viewing it", key.sessions.to_string()),
            ],
        });
    }
    // The source type whose visits convert best, against the range's overall rate.
    let mut by_source: Vec<(SourceType, i64, i64)> = SourceType::ALL
        .iter()
        .map(|&s| {
            let members: Vec<_> = scored.iter().filter(|v| v.source() == s).collect();
            (s, members.len() as i64, members.iter().filter(|v| v.has(CONVERTED)).count() as i64)
        })
        .filter(|(_, visits, _)| *visits >= MIN_EVIDENCE)
        .collect();
    by_source.sort_by(|a, b| (b.2 * a.1).cmp(&(a.2 * b.1)));
    if let Some(&(source, visits, conv)) = by_source.first() {
        let source_rate = percent(conv, visits);
        if conv > 0 && rate > 0.0 && source_rate > rate {
            out.push(Recommendation {
                id: "best_source",
                priority: "medium",
                title: format!("{} visitors convert {:.1}x the average", source.label(), source_rate / rate),
                detail: format!(
                    "{conv} of {visits} visits from {} converted ({source_rate}%), against {rate}% of all {n} \
                     visits in this period. Invest where these visitors come from.",
                    source.label().to_lowercase()
                ),
                evidence: vec![
                    ev(&format!("{} conversion rate", source.label()), format!("{source_rate}%")),
                    ev("Overall conversion rate", format!("{rate}%")),
                    ev(&format!("{} visits", source.label()), visits.to_string()),
                ],
            });
        }
    }
    // High-intent visits that have not converted: the people to reach now.
    let waiting: Vec<_> = scored.iter().filter(|v| v.score >= HIGH_INTENT && !v.has(CONVERTED)).collect();
    if !waiting.is_empty() {
        let key_viewers = waiting.iter().filter(|v| v.has(KEY_PAGE)).count();
        out.push(Recommendation {
            id: "follow_up_high_intent",
            priority: "high",
            title: format!("{} high-intent visits have not converted", waiting.len()),
            detail: format!(
                "{} visits scored {HIGH_INTENT} or more without converting; {key_viewers} of them viewed a page that \
                 precedes conversions. Offer help or a clear next step on those pages (chat, a demo, a discount).",
                waiting.len()
            ),
            evidence: vec![
                ev("High intent, not converted", waiting.len().to_string()),
                ev("Of them viewed a key page", key_viewers.to_string()),
            ],
        });
    }
    // Many visits leave after a glance.
    let glances = scored.iter().filter(|v| v.pattern() == "window_shopping").count();
    if n as i64 >= MIN_EVIDENCE && share(glances, n) >= 30.0 {
        out.push(Recommendation {
            id: "reduce_bounces",
            priority: "medium",
            title: format!("{}% of visits leave after one page in under 30 s", share(glances, n)),
            detail: format!(
                "{glances} of {n} visits in this period viewed a single page for under 30 seconds. Check that \
                 landing pages load fast and match what brought visitors there."
            ),
            evidence: vec![ev("Single-page visits under 30 s", glances.to_string()), ev("Visits", n.to_string())],
        });
    }
    // What the fitted model found matters most.
    let strongest = model.info.weights.iter().max_by(|a, b| a.weight.total_cmp(&b.weight));
    if model.info.source == "fitted"
        && let Some(strongest) = strongest
        && strongest.weight > 0.0
    {
        out.push(Recommendation {
            id: "strongest_signal",
            priority: "low",
            title: format!("{} is the strongest sign of intent on this site", feature_label(strongest.feature)),
            detail: format!(
                "Of the model's features, {} raises the score most ({:+.2} log-odds per standard deviation); \
                         held-out AUC {}. Design pages to encourage it.",
                feature_label(strongest.feature).to_lowercase(),
                strongest.weight,
                model.info.auc.map(|a| format!("{a:.3}")).unwrap_or_else(|| "not measurable".into())
            ),
            evidence: vec![
                ev("Weight", format!("{:+.2}", strongest.weight)),
                ev("Held-out AUC", model.info.auc.map(|a| format!("{a:.3}")).unwrap_or_else(|| "-".into())),
            ],
        });
    }
    out
}

fn feature_label(feature: &str) -> &'static str {
    match feature {
        "pages" => "Pages viewed",
        "duration" => "Time on site",
        "scrollDepth" => "Scroll depth",
        "keyPage" => "Viewing a key page",
        "events" => "Triggering events",
        "returning" => "Returning",
        "search" => "Coming from search",
        "social" => "Coming from social",
        "referral" => "Coming from a referral",
        "campaign" => "Coming from a campaign",
        _ => "A detected organization",
    }
}
