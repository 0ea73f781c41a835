//! Visits one by one and customer journeys served from the cluster against SQLite's on the same hits, at the
//! core, where the events conformance suite does not reach yet: each visit's stream row and journey (paired
//! by session key and start, each engine numbering its own), and customer journeys scored by models fitted
//! at one moment on both (the suite's engines each fit their own on reading).

use super::seeded::journey_hits as seeded_hits;
use super::testing::{fresh, scroll_reports, statements, store_all_in_both};
use crate::ingest::Hit;
use crate::model::{Millis, now_ms};
use crate::testing::one_site;

/// Each visit as (SQLite's session id, the cluster's visit id), matched by session key and start.
fn visit_pairs(fixture: &crate::testing::OneSite, events: &super::events::Events) -> Vec<(i64, i64)> {
    let sqlite: Vec<(i64, String, Millis)> = fixture
        .tracker
        .db()
        .read(|c| {
            let mut stmt = c.prepare("SELECT id, session_key, first_seen FROM sessions WHERE website_id = ?1")?;
            let rows = stmt.query_map([fixture.site], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
            Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
        })
        .unwrap();
    let cluster = events.nodes()[0]
        .query(&format!(
            "SELECT visit_id, any(session_key), min(ts) FROM {}.hits WHERE visit_id != 0 GROUP BY visit_id",
            events.database()
        ))
        .unwrap();
    sqlite
        .into_iter()
        .map(|(id, key, first)| {
            let key = key.split('~').next().unwrap().to_string();
            let visit = cluster
                .iter()
                .find(|row| row[1] == key && row[2].parse::<Millis>().unwrap() == first)
                .unwrap_or_else(|| panic!("visit {key} at {first} on the cluster"));
            (id, visit[0].parse().unwrap())
        })
        .collect()
}

#[test]
fn sessions_and_their_journeys_equal_sqlites_on_the_same_hits() {
    let Some(cluster) = fresh() else { return };
    let fixture = one_site();
    cluster.add_site(fixture.site);
    let site = fixture.site;
    let hits = seeded_hits(site, now_ms());
    let reports = scroll_reports(&hits);
    store_all_in_both(&fixture, &cluster, hits, reports);
    let events = cluster.events();
    let pairs = visit_pairs(&fixture, &events);
    assert!(pairs.len() > 100, "{}", pairs.len());
    let analytics = &fixture.tracker.analytics();
    let (mut with_events, mut started_by_event) = (0, 0);
    for &(id, visit) in &pairs {
        assert_eq!(events.session_site(&[site + 1, site], visit).unwrap(), site);
        let mut expected = analytics.stream_session(site, id).unwrap();
        expected.id = visit;
        assert_eq!(events.stream_session(site, visit).unwrap(), expected, "session {id}");
        let mut expected = analytics.session_journey(site, id).unwrap();
        expected.session_id = visit;
        with_events += expected.steps.iter().any(|s| !s.events.is_empty()) as usize;
        started_by_event +=
            expected.steps.first().is_some_and(|s| s.events.first().is_some_and(|e| e.at == s.entered_at)) as usize;
        assert_eq!(events.session_journey(site, visit).unwrap(), expected, "journey of session {id}");
    }
    assert!(with_events > 20 && started_by_event > 0, "{with_events} {started_by_event}");

    // A visit of another site, or none, is not found.
    let (_, visit) = pairs[0];
    assert!(matches!(events.session_site(&[site + 1], visit), Err(crate::Error::NotFound(_))));
    assert!(matches!(events.session_site(&[], visit), Err(crate::Error::NotFound(_))));
    assert!(matches!(events.session_site(&[site], 0), Err(crate::Error::NotFound(_))));
    assert!(matches!(events.stream_session(site + 1, visit), Err(crate::Error::NotFound(_))));
    assert!(matches!(events.session_journey(site + 1, visit), Err(crate::Error::NotFound(_))));
}

#[test]
fn customer_journeys_equal_sqlites_on_the_same_hits() {
    use crate::analytics::journeys::{CustomerJourneys, JourneyFilter};
    let Some(cluster) = fresh() else { return };
    let fixture = one_site();
    cluster.add_site(fixture.site);
    let site = fixture.site;
    let now = now_ms();
    let hits = seeded_hits(site, now);
    let reports = scroll_reports(&hits);
    store_all_in_both(&fixture, &cluster, hits, reports);
    let events = cluster.events();
    // SQLite names a visit replaced by a later one of its key `key~id`; the cluster keeps the key as sent.
    let plain = |mut journeys: CustomerJourneys| {
        for journey in &mut journeys.journeys {
            if let Some((key, _)) = journey.session_id.rsplit_once('~') {
                journey.session_id = key.to_string();
            }
        }
        journeys
    };
    // Both models fitted at the same moment (the visits finished by then are the training set): SQLite's
    // into the cache its read uses.
    let model = std::sync::Arc::new(events.fit_intent(site, now).unwrap());
    let sqlite_model = fixture
        .tracker
        .analytics()
        .intent_models
        .cached(site, true, |_| fixture.tracker.db().read(|c| crate::analytics::intent::fit(c, site, now)))
        .unwrap();
    assert_eq!(sqlite_model.info.weights, model.info.weights);
    let models = std::collections::HashMap::from([(site, model)]);
    let mut scored = 0;
    for period in ["1d", "7d", "90d"] {
        let range = crate::analytics::TimeRange::parse(period, now).unwrap();
        for filter in [JourneyFilter::All, JourneyFilter::Converted, JourneyFilter::Abandoned, JourneyFilter::Active] {
            let expected = fixture.tracker.analytics().customer_journeys(&[site], range, filter, now).unwrap();
            scored += expected.journeys.iter().filter(|j| j.journey_score > 0 && !j.steps.is_empty()).count();
            let got = events.customer_journeys(&[site], range, filter, now, &models).unwrap();
            assert_eq!(plain(got), plain(expected), "{period} {filter:?}");
        }
    }
    assert!(scored > 50, "the seed's journeys are listed with steps and scores: {scored}");
    // Another site's visits are not listed.
    let range = crate::analytics::TimeRange::parse("7d", now).unwrap();
    assert!(
        events.customer_journeys(&[site + 1], range, JourneyFilter::All, now, &models).unwrap().journeys.is_empty()
    );
}

/// Finding 6 of issue 33: the customer journeys of an account's sites fitted each site's intent model with
/// queries of its own (four a site). Over many sites they are still SQLite's, and the models of all the sites
/// are fitted in one grouped read: the queries of the journeys do not grow with the number of sites.
#[test]
fn customer_journeys_of_many_sites_equal_sqlites_in_a_fixed_number_of_queries() {
    use crate::analytics::journeys::{CustomerJourneys, JourneyFilter};
    let Some(cluster) = fresh() else { return };
    let fixture = one_site();
    let sites = fixture.with_more_sites(3);
    let now = now_ms();
    let mut hits = Vec::new();
    for (n, &site) in sites.iter().enumerate() {
        cluster.add_site(site);
        // Each site's hits a few hundred milliseconds off the others': no two visits start at the same time.
        hits.extend(seeded_hits(site, now).into_iter().map(|hit| Hit { ts: hit.ts - n as i64 * 100, ..hit }));
    }
    hits.sort_by_key(|h| h.ts);
    let reports = scroll_reports(&hits);
    store_all_in_both(&fixture, &cluster, hits, reports);
    let events = cluster.events();

    // The grouped fit gives each site the model its own fit gives, and SQLite's (cached for its reads).
    let before = statements(&events);
    let models = events.fit_intents(&sites, now).unwrap();
    let fit_all = statements(&events) - before;
    let before = statements(&events);
    events.fit_intents(&sites[..1], now).unwrap();
    assert_eq!(fit_all, statements(&events) - before, "a fit of {} sites and of one", sites.len());
    for &site in &sites {
        let alone = events.fit_intent(site, now).unwrap();
        assert_eq!(models[&site].info.weights, alone.info.weights, "site {site}");
        let sqlite = fixture
            .tracker
            .analytics()
            .intent_models
            .cached(site, true, |_| fixture.tracker.db().read(|c| crate::analytics::intent::fit(c, site, now)))
            .unwrap();
        assert_eq!(sqlite.info.weights, alone.info.weights, "site {site}");
    }
    let models: std::collections::HashMap<_, _> =
        models.into_iter().map(|(site, model)| (site, std::sync::Arc::new(model))).collect();

    let plain = |mut journeys: CustomerJourneys| {
        for journey in &mut journeys.journeys {
            if let Some((key, _)) = journey.session_id.rsplit_once('~') {
                journey.session_id = key.to_string();
            }
        }
        journeys
    };
    let range = crate::analytics::TimeRange::parse("7d", now).unwrap();
    for filter in [JourneyFilter::All, JourneyFilter::Converted, JourneyFilter::Abandoned] {
        let expected = fixture.tracker.analytics().customer_journeys(&sites, range, filter, now).unwrap();
        let listed: std::collections::HashSet<_> = expected.journeys.iter().map(|j| j.website_id).collect();
        assert!(listed.len() > 1, "journeys of several sites are listed: {listed:?}");
        let before = statements(&events);
        let got = events.customer_journeys(&sites, range, filter, now, &models).unwrap();
        let for_all = statements(&events) - before;
        assert_eq!(plain(got), plain(expected), "{filter:?}");
        let before = statements(&events);
        events.customer_journeys(&sites[..1], range, filter, now, &models).unwrap();
        assert_eq!(for_all, statements(&events) - before, "{filter:?}: queries for {} sites and for one", sites.len());
    }
}
