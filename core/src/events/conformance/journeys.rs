//! Visits one by one and customer journeys on every engine, where the answers are not easy to state: 70
//! visitors' random visits (several pages, events, conversions, identify() calls, company networks) on one
//! site and on four, each engine answering as SQLite's. Each engine numbers its own visits, so a visit is
//! matched across engines by its key and start.

use std::collections::BTreeMap;

use super::{Engine, engines};
use crate::Error;
use crate::analytics::TimeRange;
use crate::analytics::journeys::{CustomerJourneys, JourneyFilter};
use crate::cluster::seeded::journey_hits;
use crate::cluster::testing::scroll_reports;
use crate::events::Filters;
use crate::ingest::Hit;
use crate::model::{Millis, WebsiteId, now_ms};

/// Each visit of `site` on the engine as its id by (session key, start). SQLite names a visit that a later
/// one of its key replaced `key~id`; the key is taken as sent.
fn visit_ids(engine: &Engine, site: WebsiteId) -> BTreeMap<(String, Millis), i64> {
    let rows: Vec<(String, Millis, i64)> = match &engine.cluster {
        None => engine
            .fixture
            .tracker
            .db()
            .read(|c| {
                let mut stmt = c.prepare("SELECT session_key, first_seen, id FROM sessions WHERE website_id = ?1")?;
                let rows = stmt.query_map([site], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
                Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
            })
            .unwrap(),
        Some(cluster) => {
            let events = cluster.events();
            let rows = events.nodes()[0]
                .query(&format!(
                    "SELECT any(session_key), min(ts), visit_id FROM {}.hits
                     WHERE website_id = {site} AND visit_id != 0 GROUP BY visit_id",
                    events.database()
                ))
                .unwrap();
            rows.into_iter().map(|r| (r[0].clone(), r[1].parse().unwrap(), r[2].parse().unwrap())).collect()
        }
    };
    rows.into_iter().map(|(key, start, id)| ((key.split('~').next().unwrap().to_string(), start), id)).collect()
}

/// Journeys with SQLite's retired keys (`key~id`) as sent.
fn plain(mut journeys: CustomerJourneys) -> CustomerJourneys {
    for journey in &mut journeys.journeys {
        if let Some((key, _)) = journey.session_id.rsplit_once('~') {
            journey.session_id = key.to_string();
        }
    }
    journeys
}

#[test]
fn every_visits_stream_row_and_journey_answer_as_sqlites_on_random_visits() {
    let now = now_ms();
    let mut answers: Vec<(&str, Vec<String>)> = Vec::new();
    for engine in engines() {
        let (events, site, name) = (&engine.events, engine.site, engine.name);
        let other = engine.with_more_sites(1)[1];
        let hits = journey_hits(site, now);
        let reports = scroll_reports(&hits);
        engine.store_all(hits, reports);
        let visits = visit_ids(&engine, site);
        assert!(visits.len() > 100, "{name}: {}", visits.len());
        let (mut with_events, mut started_by_event) = (0, 0);
        let mut got = Vec::new();
        for (visit, &id) in &visits {
            assert_eq!(events.session_site(&[other, site], id).unwrap(), site, "{name}");
            let mut row = events.stream_session(site, id).unwrap();
            assert_eq!(row.id, id, "{name}");
            row.id = 0;
            let mut journey = events.session_journey(site, id).unwrap();
            assert_eq!((journey.session_id, journey.first_seen), (id, visit.1), "{name}: {visit:?}");
            journey.session_id = 0;
            with_events += usize::from(journey.steps.iter().any(|s| !s.events.is_empty()));
            started_by_event += usize::from(
                journey.steps.first().is_some_and(|s| s.events.first().is_some_and(|e| e.at == s.entered_at)),
            );
            got.push(format!("{visit:?}: {row:?} {journey:?}"));
        }
        assert!(with_events > 20 && started_by_event > 0, "{name}: {with_events} {started_by_event}");

        // A visit of another site, or none, is not found.
        let &id = visits.values().next().unwrap();
        for found in [events.session_site(&[other], id), events.session_site(&[], id), events.session_site(&[site], 0)]
        {
            assert!(matches!(found, Err(Error::NotFound(_))), "{name}: {found:?}");
        }
        assert!(matches!(events.stream_session(other, id), Err(Error::NotFound(_))), "{name}");
        assert!(matches!(events.session_journey(other, id), Err(Error::NotFound(_))), "{name}");
        answers.push((name, got));
    }
    let (first, expected) = &answers[0];
    for (name, got) in &answers[1..] {
        assert_eq!(got.len(), expected.len(), "{name} against {first}");
        for (got, expected) in got.iter().zip(expected) {
            assert_eq!(got, expected, "{name} against {first}");
        }
    }
}

#[test]
fn customer_journeys_of_one_site_and_of_several_answer_as_sqlites_on_random_visits() {
    let now = now_ms();
    let mut answers: Vec<(&str, Vec<CustomerJourneys>)> = Vec::new();
    for engine in engines() {
        let (events, name) = (&engine.events, engine.name);
        let sites = engine.with_more_sites(4);
        let (one, several, none) = (&sites[..1], &sites[1..], &sites[4..]);
        // Each of the other sites' hits a few hundred milliseconds off the others': no two visits start at
        // the same time. The last site has none.
        let mut hits = journey_hits(one[0], now);
        for (n, &site) in several[..3].iter().enumerate() {
            let offset = (n as Millis + 1) * 100;
            hits.extend(journey_hits(site, now).into_iter().map(|hit| Hit { ts: hit.ts - offset, ..hit }));
        }
        hits.sort_by_key(|h| h.ts);
        let reports = scroll_reports(&hits);
        engine.store_all(hits, reports);

        let mut got = Vec::new();
        let mut scored = 0;
        for period in ["1d", "7d", "90d"] {
            let range = TimeRange::parse(period, now).unwrap();
            for filter in
                [JourneyFilter::All, JourneyFilter::Converted, JourneyFilter::Abandoned, JourneyFilter::Active]
            {
                let journeys = plain(events.customer_journeys(one, range, &Filters::none(), filter, now).unwrap());
                assert!(journeys.journeys.iter().all(|j| j.website_id == one[0]), "{name}");
                scored += journeys.journeys.iter().filter(|j| j.journey_score > 0 && !j.steps.is_empty()).count();
                got.push(journeys);
            }
        }
        assert!(scored > 50, "{name}: the journeys are listed with steps and scores: {scored}");
        let week = TimeRange::parse("7d", now).unwrap();
        for filter in [JourneyFilter::All, JourneyFilter::Converted, JourneyFilter::Abandoned] {
            let journeys = plain(events.customer_journeys(several, week, &Filters::none(), filter, now).unwrap());
            let listed: std::collections::BTreeSet<WebsiteId> =
                journeys.journeys.iter().map(|j| j.website_id).collect();
            assert!(
                listed.len() > 1 && listed.is_subset(&several[..3].iter().copied().collect()),
                "{name}: {listed:?}"
            );
            got.push(journeys);
        }
        // A site without visits lists none.
        let empty = events.customer_journeys(none, week, &Filters::none(), JourneyFilter::All, now).unwrap();
        assert!(empty.journeys.is_empty(), "{name}");
        answers.push((name, got));
    }
    let (first, expected) = &answers[0];
    for (name, got) in &answers[1..] {
        for (got, expected) in got.iter().zip(expected) {
            assert_eq!(got, expected, "{name} against {first}");
        }
    }
}
