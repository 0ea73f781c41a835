//! Funnels' figures and drop-off visits served from ClickHouse against SQLite's on a day of seeded visits.

use super::seeded::{comparable_funnel, funnel_input, seeded_hits, without_visit_id};
use super::testing::{fresh, store_in_both};
use crate::analytics::TimeRange;
use crate::model::now_ms;
use crate::store::funnels::{Funnel, FunnelDropOffs, Funnels};
use crate::testing::one_site;

fn comparable_drop_offs(mut drop_offs: FunnelDropOffs) -> FunnelDropOffs {
    drop_offs.funnel_id = 0;
    for visit in drop_offs.steps.iter_mut().flat_map(|s| s.visits.iter_mut()) {
        visit.id = 0;
        visit.session_id = without_visit_id(&visit.session_id);
    }
    drop_offs
}

#[test]
fn funnel_figures_and_drop_offs_equal_sqlites_on_the_same_hits() {
    let Some(cluster) = fresh() else { return };
    let fixture = one_site();
    cluster.add_site(fixture.site);
    let site = fixture.site;
    let now = now_ms();
    store_in_both(&fixture, &cluster, seeded_hits(site, now));
    let owner: i64 =
        cluster.pg().with(|c| Ok(c.query_one("SELECT user_id FROM websites WHERE id = $1", &[&site])?.get(0))).unwrap();
    let sqlite = &fixture.tracker.funnels;
    let clickhouse = Funnels::new(cluster.meta(), crate::events::clickhouse_engine(&cluster, fixture.tracker.db()));
    let funnels: &[&[(&str, Option<&str>)]] = &[
        &[("/p1", None), ("/p2", None), ("/p3", None)],
        // One hit reaches one step at most: a visit needs three views of /p1.
        &[("/p1", None), ("/p1/", None), ("p1", None)],
        &[("*", None), ("*", Some("signup")), ("/p*", Some("purchase"))],
        &[("/p*", None), ("*", Some("Sign Up")), ("/p[1]", None), ("https://x.example.com/p4?y=1", None)],
        &[("/p0", None), ("/p1", None), ("/p2", None), ("/p3", None), ("/p4", None), ("/p5", None), ("/p6", None)],
        // The most steps (ClickHouse once refused 13: "AST is too big"); a visit reaches one per page view.
        &[("/p*", None); crate::store::funnels::MAX_STEPS],
    ];
    for steps in funnels {
        sqlite.create(fixture.user.id, funnel_input(site, steps)).unwrap();
        clickhouse.create(owner, funnel_input(site, steps)).unwrap();
    }
    let mut reached_late_steps = false;
    for name in ["24h", "7d", "30d", "90d"] {
        let range = TimeRange::parse(name, now).unwrap();
        let expected: Vec<Funnel> =
            sqlite.list(fixture.user.id, Some(site), range).unwrap().into_iter().map(comparable_funnel).collect();
        let got: Vec<Funnel> =
            clickhouse.list(owner, Some(site), range).unwrap().into_iter().map(comparable_funnel).collect();
        assert_eq!(got, expected, "funnels {name}");
        reached_late_steps |= expected.iter().all(|f| f.steps[1].visitors > 0 && f.total_visitors > 20);
        let (sqlite_ids, cluster_ids): (Vec<i64>, Vec<i64>) = (
            sqlite.list(fixture.user.id, None, range).unwrap().iter().map(|f| f.id).collect(),
            clickhouse.list(owner, None, range).unwrap().iter().map(|f| f.id).collect(),
        );
        for (&s, &c) in sqlite_ids.iter().zip(&cluster_ids) {
            for limit in [1, 100] {
                let expected = comparable_drop_offs(sqlite.drop_offs(fixture.user.id, s, range, limit).unwrap());
                assert!(expected.steps.iter().any(|s| !s.visits.is_empty()), "{expected:?}");
                let got = comparable_drop_offs(clickhouse.drop_offs(owner, c, range, limit).unwrap());
                assert_eq!(got, expected, "drop-offs {name} limit {limit}");
            }
        }
    }
    assert!(reached_late_steps, "the seeded hits reach the second step of every funnel");
}
