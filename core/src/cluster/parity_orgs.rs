//! Organizations and identified visitors served from the cluster against SQLite's on the same hits, at the
//! core: visits linked to an organization on a later hit than their first, a visitor's network changing within
//! a visit, visits without a country after ones with, and an owner's edits through each metadata store.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::testing::{fresh, store_all_in_both, store_in_both};
use crate::analytics::OrganizationSummary;
use crate::ingest::enrich::Organization;
use crate::ingest::{EventKind, Hit};
use crate::model::{Millis, WebsiteId, now_ms};
use crate::store::organizations::{OrganizationUpdate, Organizations};
use crate::testing::one_site;

const MINUTE: Millis = 60_000;

/// The networks visitors come from: (ASN, name, confidence).
const NETWORKS: [(u32, &str, u8); 4] = [
    (15169, "Google LLC", 95),
    (8075, "Microsoft Corporation", 95),
    (3320, "Deutsche Telekom AG", 60),
    (64512, "Acme GmbH", 70),
];

/// 60 visitors over the last 20 hours (older hits are late hits, which the cluster's ingest state no longer
/// joins to their visits), 1 to 3 visits each (over 30 minutes apart), 1 to 5 hits a visit. Most
/// visits come from one network; some have no organization on their first hit (linked on a later one), some
/// change network within the visit, some have no country. Each visitor's times end in its own millisecond.
fn seeded_hits(site: WebsiteId, now: Millis) -> Vec<Hit> {
    let mut rng = StdRng::seed_from_u64(181_818);
    let mut hits = Vec::new();
    for visitor in 0..60u8 {
        let mut ts = (now - 20 * 60 * MINUTE + rng.random_range(0..16 * 60) * MINUTE) / 1000 * 1000 + visitor as i64;
        for _ in 0..rng.random_range(1..=3) {
            let network = rng.random_range(0..NETWORKS.len() + 1);
            let late_link = rng.random_range(0..4) == 0;
            let switches = rng.random_range(0..6) == 0;
            let country = ["DE", "US", "", "FR"][rng.random_range(0..4)];
            for n in 0..rng.random_range(1..=5) {
                if ts > now {
                    break;
                }
                let mut network = network;
                if switches && n > 1 {
                    network = (network + 1) % (NETWORKS.len() + 1);
                }
                let organization = NETWORKS.get(network).filter(|_| !(late_link && n == 0)).map(|(asn, name, c)| {
                    Organization { asn: *asn, name: name.to_string(), confidence: *c, is_isp: false }
                });
                let kind = if rng.random_range(0..5) == 0 { EventKind::Custom } else { EventKind::Pageview };
                hits.push(Hit {
                    website_id: site,
                    session_key: format!("visitor-{visitor:03}"),
                    ts,
                    kind: Some(kind),
                    name: if kind == EventKind::Custom { "signup".into() } else { String::new() },
                    url: "https://s.example.com/p".into(),
                    path: "/p".into(),
                    country: country.into(),
                    city: if country.is_empty() { String::new() } else { format!("City {country}") },
                    visitor_seed: [visitor; 32],
                    organization,
                    ..Hit::default()
                });
                ts += rng.random_range(5..600) * 1000;
            }
            ts += rng.random_range(31..300) * MINUTE;
        }
    }
    hits.sort_by_key(|h| h.ts);
    hits
}

/// A list with its ids left out: each engine numbers its own rows.
fn without_ids(mut list: Vec<OrganizationSummary>) -> Vec<OrganizationSummary> {
    list.iter_mut().for_each(|org| org.id = 0);
    list
}

#[test]
fn organizations_equal_sqlites_on_the_same_hits_and_keep_the_owners_edits() {
    let Some(cluster) = fresh() else { return };
    let fixture = one_site();
    cluster.add_site(fixture.site);
    let site = fixture.site;
    store_in_both(&fixture, &cluster, seeded_hits(site, now_ms()));
    let events = cluster.events();
    let (sqlite_orgs, cluster_orgs) = (&fixture.tracker.organizations, Organizations::new(cluster.meta()));

    let expected = fixture.tracker.analytics().organizations(site).unwrap();
    assert_eq!(expected.len(), NETWORKS.len(), "{expected:?}");
    assert!(expected.iter().all(|o| o.session_count > 1 && !o.location.is_empty()), "{expected:?}");
    let got = events.organizations(site, cluster_orgs.known(site).unwrap()).unwrap();
    assert_eq!(without_ids(got.clone()), without_ids(expected.clone()));

    // The owner's edit, found by name on each engine, answers as the list then shows it.
    let id_of =
        |list: &[OrganizationSummary], name: &str| list.iter().find(|o| o.organization_name == name).unwrap().id;
    let edit = || OrganizationUpdate {
        domain: Some("https://Acme.example/".into()),
        industry: Some("Retail".into()),
        size: Some("Small".into()),
    };
    let sqlite_known = sqlite_orgs.update(site, id_of(&expected, "Acme GmbH"), edit()).unwrap();
    let expected_edit = fixture.tracker.analytics().organization(site, sqlite_known.id).unwrap();
    let known = cluster_orgs.update(site, id_of(&got, "Acme GmbH"), edit()).unwrap();
    assert_eq!((known.domain.as_str(), known.size.as_str()), ("acme.example", "small"));
    let got_edit = events.organization(site, known).unwrap();
    assert_eq!(without_ids(vec![got_edit]), without_ids(vec![expected_edit]));
    let expected = fixture.tracker.analytics().organizations(site).unwrap();
    assert_eq!(
        without_ids(events.organizations(site, cluster_orgs.known(site).unwrap()).unwrap()),
        without_ids(expected)
    );

    // Another site's organization is not found, on either engine.
    let other = id_of(&got, "Google LLC");
    for orgs in [sqlite_orgs, &cluster_orgs] {
        assert!(matches!(orgs.update(site + 1, other, edit()), Err(crate::Error::NotFound(_))));
    }
}

/// A visit that sent only heatmap data (no hit) from an organization's network is that organization's visit
/// on both engines: SQLite's writer links any data of a visit to its organization, and the sink records it.
#[test]
fn a_visit_of_heatmap_data_alone_counts_for_its_organization_as_on_sqlite() {
    let Some(cluster) = fresh() else { return };
    let fixture = one_site();
    cluster.add_site(fixture.site);
    let now = now_ms();
    let visit = Hit {
        website_id: fixture.site,
        session_key: "quiet-visitor".into(),
        ts: now - 60_000,
        kind: Some(EventKind::Pageview),
        url: "https://s.example.com/".into(),
        path: "/".into(),
        country: "DE".into(),
        organization: Some(Organization { asn: 64_512, name: "Quiet AG".into(), confidence: 80, is_isp: false }),
        visitor_seed: [7; 32],
        ..Hit::default()
    };
    let report = crate::ingest::Interactions {
        visit,
        viewport: (1280, 800),
        page: (1280, 3000),
        points: Vec::new(),
        fields: Vec::new(),
        scroll_depth: Some(40),
    };
    store_all_in_both(&fixture, &cluster, Vec::new(), vec![report]);

    let expected = fixture.tracker.analytics().organizations(fixture.site).unwrap();
    assert_eq!(expected.len(), 1, "{expected:?}");
    let known = Organizations::new(cluster.meta()).known(fixture.site).unwrap();
    let got = cluster.events().organizations(fixture.site, known).unwrap();
    assert_eq!(without_ids(got), without_ids(expected));
}
