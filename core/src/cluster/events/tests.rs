//! The events tables on the cluster harness: schema steps, deletions and retention on both shards.

use super::schema::SCHEMA;
use super::*;
use crate::cluster::testing::{SHARDS, TestCluster, fresh};

const DAY: i64 = 86_400_000;
/// 2026-09-15 and 2026-11-10, 12:00 UTC.
const SEPTEMBER: i64 = 1_789_473_600_000;
const NOVEMBER: i64 = 1_794_312_000_000;

/// Rows of two sites, several visitors each (on both shards), in September and November.
fn rows() -> Vec<HitRow> {
    let mut rows = Vec::new();
    for site in [1, 2] {
        for visitor in 0..8u64 {
            for ts in [SEPTEMBER, NOVEMBER, NOVEMBER + DAY] {
                rows.push(HitRow {
                    month: month_of(ts),
                    website_id: site,
                    ts: ts + visitor as i64,
                    visit_id: visitor as i64,
                    visitor: visitor * 7919,
                    session_key: format!("visitor-{visitor}"),
                    kind: "pageview",
                    path: "/".into(),
                    ..HitRow::default()
                });
            }
        }
    }
    rows
}

/// A click at each hit of `rows()`.
fn interaction_rows() -> Vec<InteractionRow> {
    rows()
        .into_iter()
        .map(|hit| InteractionRow {
            month: hit.month,
            website_id: hit.website_id,
            ts: hit.ts,
            visit_id: hit.visit_id,
            visitor: hit.visitor,
            session_key: hit.session_key,
            path: hit.path,
            kind: "click",
            ..InteractionRow::default()
        })
        .collect()
}

/// Rows of `interactions_local` on a shard matching `condition`.
fn local_interactions(cluster: &TestCluster, shard: usize, condition: &str) -> u64 {
    cluster.events().nodes()[shard]
        .query_value(&format!("SELECT count() FROM {}.interactions_local WHERE {condition}", cluster.database))
        .unwrap()
}

#[test]
fn months_are_partitions_in_utc() {
    assert_eq!(month_of(SEPTEMBER), 202609);
    assert_eq!(month_of(NOVEMBER), 202611);
    assert_eq!(month_of(1_793_491_199_999), 202610, "the last millisecond of October");
    assert_eq!(month_of(1_793_491_200_000), 202611);
}

#[test]
fn each_schema_step_applies_once_and_a_reopen_applies_nothing() {
    let Some(cluster) = fresh() else { return };
    let (first, second) = std::thread::scope(|s| {
        let a = s.spawn(|| cluster.events());
        let b = s.spawn(|| cluster.events());
        (a.join().unwrap(), b.join().unwrap())
    });
    let applied = |events: &Events, shard: usize| -> u64 {
        events.nodes()[shard]
            .query_value(&format!("SELECT uniqExact(name) FROM {}.schema_migrations", cluster.database))
            .unwrap()
    };
    let before: u64 =
        first.nodes()[0].query_value(&format!("SELECT count() FROM {}.schema_migrations", cluster.database)).unwrap();
    drop(second);
    let reopened = cluster.events();
    for shard in 0..2 {
        assert_eq!(applied(&reopened, shard), SCHEMA.len() as u64);
    }
    let after: u64 = reopened.nodes()[0]
        .query_value(&format!("SELECT count() FROM {}.schema_migrations", cluster.database))
        .unwrap();
    assert_eq!(after, before, "a daemon finding the schema current applies nothing");
}

#[test]
fn deletions_leave_no_row_on_either_shard() {
    let Some(cluster) = fresh() else { return };
    let events = cluster.events();
    events.insert(&rows()).unwrap();
    events.insert_interactions(&interaction_rows()).unwrap();
    for shard in 0..2 {
        assert!(cluster.local_rows(shard, "website_id = 1") > 0, "site 1 has rows on shard {shard}");
        assert!(local_interactions(&cluster, shard, "website_id = 1") > 0, "and heatmap rows");
    }

    events.delete_visitor(2, "visitor-3").unwrap();
    events.delete_site(1).unwrap();
    for shard in 0..2 {
        assert_eq!(cluster.local_rows(shard, "website_id = 1"), 0, "shard {shard}");
        assert_eq!(local_interactions(&cluster, shard, "website_id = 1"), 0, "shard {shard}");
        assert_eq!(cluster.local_rows(shard, "website_id = 2 AND session_key = 'visitor-3'"), 0, "shard {shard}");
    }
    assert_eq!(cluster.local_rows(0, "website_id = 2") + cluster.local_rows(1, "website_id = 2"), 21);
    assert_eq!(
        local_interactions(&cluster, 0, "website_id = 2") + local_interactions(&cluster, 1, "website_id = 2"),
        21
    );
    // A hostile visitor id is one value, not SQL.
    events.delete_visitor(2, "x' OR 1 = 1 OR session_key = '").unwrap();
    assert_eq!(cluster.local_rows(0, "1") + cluster.local_rows(1, "1"), 21);
}

#[test]
fn retention_drops_whole_months_and_they_stay_dropped_after_a_restart() {
    let Some(dir) = std::env::var("TRACKER_TEST_CLUSTER_DIR").ok().filter(|d| !d.is_empty()) else { return };
    let Some(mut cluster) = fresh() else { return };
    let events = cluster.events();
    events.insert(&rows()).unwrap();
    // A mutation first: the parts it rewrote are what a restart brought back on 18.16 (issue 18).
    events.delete_visitor(2, "visitor-3").unwrap();
    // Site 1 keeps from November 11th on, site 2 from November 1st: September goes as a partition, then
    // site 1's November 10th by a deletion.
    events.expire(&[Expiry::all(1, NOVEMBER + DAY / 2), Expiry::all(2, NOVEMBER - 9 * DAY)]).unwrap();
    let remaining = |c: &TestCluster| (0..2).map(|s| c.local_rows(s, "1")).sum::<u64>();
    assert_eq!(remaining(&cluster), 8 + 14);
    for shard in 0..2 {
        assert_eq!(cluster.local_rows(shard, "month = 202609"), 0);
    }

    // Restart both shards (no other test uses them meanwhile), then look again.
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/cluster/cluster.sh");
    {
        cluster.release_shards();
        let _alone = SHARDS.write().unwrap_or_else(|e| e.into_inner());
        for shard in ["1", "2"] {
            let status =
                std::process::Command::new("bash").args([script, "restart-clickhouse", &dir, shard]).status().unwrap();
            assert!(status.success());
        }
    }
    assert_eq!(remaining(&cluster), 8 + 14, "nothing dropped or deleted came back");
    for shard in 0..2 {
        assert_eq!(cluster.local_rows(shard, "month = 202609"), 0);
        assert_eq!(cluster.local_rows(shard, &format!("website_id = 1 AND ts < {}", NOVEMBER + DAY / 2)), 0);
    }
}
