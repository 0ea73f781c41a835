//! The intent model on every engine is fitted on its site's own finished visits: on the intent seed's visits
//! (search, social, referral and campaign sources, returning visitors, conversions more often after /pricing)
//! each engine fits the model SQLite fits, bit for bit, and another site's visits, stored afterwards, change
//! nothing of it.

use super::engines;
use crate::analytics::TimeRange;
use crate::analytics::intent::ModelInfo;
use crate::cluster::seeded::{intent_hits, journey_hits};
use crate::cluster::testing::scroll_reports;
use crate::events::Filters;
use crate::model::now_ms;

/// The intent scores of the top sessions: (score, conversion probability).
type Scores = Vec<(i64, f64)>;

/// A fitted model's description but for when and how fast it was fitted.
fn fitted(mut model: ModelInfo) -> ModelInfo {
    (model.fitted_at, model.fit_ms) = (0, 0.0);
    model
}

#[test]
fn the_intent_model_is_fitted_on_the_sites_own_visits_as_sqlites_on_each_engine() {
    let now = now_ms();
    let mut answers: Vec<(&str, ModelInfo, Scores)> = Vec::new();
    for engine in engines() {
        let (events, name) = (&engine.events, engine.name);
        let sites = engine.with_more_sites(1);
        let hits = intent_hits(sites[0], now);
        let reports = scroll_reports(&hits);
        engine.store_all(hits, reports);
        let week = TimeRange::parse("7d", now).unwrap();
        let intent = events.ai_intent(sites[0], week, &Filters::none(), true).unwrap();
        let model = fitted(intent.model);
        assert_eq!(model.source, "fitted", "{name}: {model:?}");
        assert!(model.training_sessions > 150 && model.training_conversions > 0, "{name}: {model:?}");
        let scores: Scores =
            intent.top_intent_sessions.iter().map(|s| (s.intent_score, s.conversion_probability)).collect();
        assert!(scores.iter().any(|&(score, _)| score > 0), "{name}: {scores:?}");

        // Another site's visits, stored later, are not read by the site's fit.
        let other = journey_hits(sites[1], now);
        let reports = scroll_reports(&other);
        engine.store_all(other, reports);
        let again = events.ai_intent(sites[0], week, &Filters::none(), true).unwrap();
        assert_eq!(fitted(again.model), model, "{name}");
        let theirs = fitted(events.ai_intent(sites[1], week, &Filters::none(), true).unwrap().model);
        assert_ne!(theirs.training_sessions, model.training_sessions, "{name}: the other site has a model of its own");
        answers.push((name, model, scores));
    }
    let (first, model, scores) = &answers[0];
    for (name, got, got_scores) in &answers[1..] {
        assert_eq!(got, model, "{name} against {first}");
        assert_eq!(got_scores, scores, "{name} against {first}");
    }
}
