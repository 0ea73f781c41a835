//! The intent model fitted on the cluster's visits against SQLite's on the same hits, at the core: visits with
//! several pages, events, conversions, returning visitors and search, social, referral and campaign sources.

use std::time::Instant;

use super::seeded::intent_hits as seeded_hits;
use super::testing::{fresh, scroll_reports, store_all_in_both};
use crate::analytics::intent::{
    FINISHED_AFTER_MS, HISTORY_MS, SessionFeatures, TRAIN_LIMIT, fit_features, load_features,
};
use crate::model::now_ms;
use crate::testing::one_site;

/// Features with the visit ids left out and SQLite's retired keys (`key~id`, for a visit after which the key
/// started another) as sent: each engine numbers its own visits.
fn without_ids(mut features: Vec<SessionFeatures>) -> Vec<SessionFeatures> {
    for f in &mut features {
        f.session_id = 0;
        if let Some((key, id)) = f.session_key.rsplit_once('~')
            && id.bytes().all(|b| b.is_ascii_digit())
        {
            f.session_key = key.to_string();
        }
    }
    features
}

/// The first place two lists differ, for a short failure message.
fn first_difference(got: &[SessionFeatures], expected: &[SessionFeatures]) -> String {
    match got.iter().zip(expected).position(|(g, e)| g != e) {
        Some(i) => format!("at {i}: got {:?}, expected {:?}", got[i], expected[i]),
        None => format!("lengths: got {}, expected {}", got.len(), expected.len()),
    }
}

#[test]
fn intent_features_and_the_fitted_model_equal_sqlites_on_the_same_hits() {
    let Some(cluster) = fresh() else { return };
    let fixture = one_site();
    cluster.add_site(fixture.site);
    let site = fixture.site;
    let now = now_ms();
    let hits = seeded_hits(site, now);
    let reports = scroll_reports(&hits);
    store_all_in_both(&fixture, &cluster, hits, reports);
    let events = cluster.events();

    let (from, finished) = (now - HISTORY_MS, Some(now - FINISHED_AFTER_MS));
    let sqlite = rusqlite::Connection::open(fixture.dir.path().join("tracker.db")).unwrap();
    let expected = load_features(&sqlite, site, from, now, TRAIN_LIMIT, finished).unwrap();
    assert!(expected.len() > 150, "{}", expected.len());
    assert!(expected.iter().any(|f| f.returning) && expected.iter().any(|f| f.events > 0 && f.converted));
    assert!(expected.iter().filter(|f| f.scroll_depth > 0).count() > 100, "scroll depths are read");
    let got = events.intent_features(site, from, now, TRAIN_LIMIT, finished).unwrap();
    let (got_plain, expected_plain) = (without_ids(got.clone()), without_ids(expected.clone()));
    assert!(got_plain == expected_plain, "{}", first_difference(&got_plain, &expected_plain));
    // A limit keeps the most recent visits on both.
    let recent = events.intent_features(site, from, now, 7, finished).unwrap();
    assert_eq!(without_ids(recent), without_ids(expected[..7].to_vec()));

    // The same fitting code on the same features: the same model, bit for bit.
    let mut sqlite_model = fit_features(&expected, now, Instant::now());
    let mut cluster_model = events.fit_intent(site, now).unwrap();
    assert_eq!(sqlite_model.info.source, "fitted", "{:?}", sqlite_model.info);
    (sqlite_model.info.fit_ms, cluster_model.info.fit_ms) = (0.0, 0.0);
    assert_eq!(cluster_model.info, sqlite_model.info);
    for (e, g) in expected.iter().zip(&got) {
        assert_eq!(cluster_model.score(g), sqlite_model.score(e));
    }

    // Another site's visits are not read.
    assert!(events.intent_features(site + 1, from, now, TRAIN_LIMIT, None).unwrap().is_empty());
}
