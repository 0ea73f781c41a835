//! Finding 2 of issue 33 (cluster mode): the daily salt of the visitor hash was stored in PostgreSQL
//! (`ingest_salts`), so with the hash and the anonymised address (/24, /48) in ClickHouse the address came back
//! in a few hundred guesses: the hole `visitor_salt` closed on SQLite, open again on the cluster. Each day's
//! salt now derives from the configured `visitor_salt_key`; this test takes the whole content of both stores
//! and tries every value as the salt. On the harness cluster (tests/cluster/cluster.sh).

use std::net::IpAddr;

use tracker_core::cluster::clickhouse::Node;
use tracker_core::cluster::ingest_state::day_salt;
use tracker_core::model::now_ms;

use super::cluster_loot::loot;
use super::visitor_salt::{VISITOR_V4, VISITOR_V6, candidates, hashes, seed, visit_from};
use crate::cluster::{CLUSTER_SALT_KEY, Corner, harness};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_visitor_address_cannot_be_recomputed_from_the_cluster_databases() {
    let Some((pg, ch)) = harness() else { return };
    let corner = Corner::new(pg, ch).await;
    let (a, b) = (corner.daemon().await, corner.daemon().await);
    let (token, _) = a.register("salt@example.com").await;
    let site = a.create_site(&token, "Salted", "light").await;
    let key = site["trackingKey"].as_str().unwrap().to_string();
    let day = now_ms().div_euclid(86_400_000);
    // One visitor through each daemon: both hash alike (their salt key is the same), neither stores the salt.
    visit_from(&a, &key, VISITOR_V4, "salted-visit-v4").await;
    visit_from(&b, &key, VISITOR_V6, "salted-visit-v6").await;

    let (url, db, id) = (corner.ch.split(',').next().unwrap().to_string(), corner.name.clone(), site["id"].clone());
    let visits: Vec<Vec<String>> = tokio::task::spawn_blocking(move || {
        Node::new(&url)
            .query(&format!(
                "SELECT ip_address, toString(toInt64(any(visitor))), any(website_id) FROM {db}.hits
                 WHERE website_id = {id} GROUP BY session_key, ip_address ORDER BY position(ip_address, ':')"
            ))
            .unwrap()
    })
    .await
    .unwrap();
    let stored: Vec<&str> = visits.iter().map(|row| row[0].as_str()).collect();
    assert_eq!(stored, ["203.0.113.0", "2001:db8:4d2::"], "the anonymised addresses are what the attacker starts from");
    let site: i64 = visits[0][2].parse().unwrap();

    let loot = loot(&corner).await;
    for table in ["pg.ingest_visits", "ch.hits_local"] {
        assert!(loot.tables.iter().any(|t| t == table), "{table} is searched: {:?}", loot.tables);
    }
    let mut salts: Vec<Vec<u8>> = loot.values.iter().cloned().collect();
    salts.push(Vec::new());
    assert!(salts.len() > 50, "the search uses what the stores hold ({} candidates)", salts.len());
    for (row, exact) in visits.iter().zip([VISITOR_V4, VISITOR_V6]) {
        let exact: IpAddr = exact.parse().unwrap();
        let visitor: i64 = row[1].parse().unwrap();
        assert!(loot.integers.contains(&visitor), "the visitor hash is among the values searched");
        // The search can succeed: with the day's salt the exact address gives the stored hash.
        assert_eq!(hashes(&day_salt(CLUSTER_SALT_KEY.as_bytes(), day), site, &seed(exact))[0], visitor);
        let candidates = candidates(&row[0], exact);
        assert!(candidates.contains(&exact));
        for ip in candidates {
            let seed = seed(ip);
            for salt in &salts {
                for hash in hashes(salt, site, &seed) {
                    assert!(
                        !loot.integers.contains(&hash),
                        "{ip} recomputed from the cluster's databases (salt of {} bytes: {salt:02x?})",
                        salt.len()
                    );
                }
            }
        }
    }
}
