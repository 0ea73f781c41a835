//! Finding 7 (the visitor's IP address could be recomputed from the database): the daily salt of the visitor
//! hash was stored beside the hashes and the anonymised address (/24, /48), so whoever held the data folder
//! could try the 256 addresses of the /24 with the visitor's user agent and find the one whose hash matched.
//! The salts now live only in the writer's memory; this test takes the whole data folder of a stopped daemon
//! and tries every salt it can find in it.

use std::collections::HashSet;
use std::net::IpAddr;
use std::path::Path;

use reqwest::StatusCode;
use rusqlite::types::ValueRef;
use serde_json::json;
use sha2::{Digest, Sha256};

use crate::util::{TestServer, answer};

pub(super) const VISITOR_UA: &str =
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/129.0.6668.58 Safari/537.36";
pub(super) const VISITOR_V4: &str = "203.0.113.77";
pub(super) const VISITOR_V6: &str = "2001:db8:4d2:17:a1b2:c3d4:e5f6:1234";

/// Everything an attacker can read in a data folder: the files' bytes and every value of every table.
struct Loot {
    files: Vec<Vec<u8>>,
    integers: HashSet<i64>,
    /// Text and blob values, each as bytes.
    values: Vec<Vec<u8>>,
}

fn loot(data: &Path) -> Loot {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(data).unwrap() {
        let path = entry.unwrap().path();
        if path.is_file() {
            files.push(std::fs::read(&path).unwrap());
        }
    }
    let conn = rusqlite::Connection::open(data.join("tracker.db")).unwrap();
    let tables: Vec<String> = conn
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    let (mut integers, mut values) = (HashSet::new(), Vec::new());
    for table in &tables {
        let mut stmt = conn.prepare(&format!("SELECT * FROM \"{table}\"")).unwrap();
        let columns = stmt.column_count();
        let mut rows = stmt.query([]).unwrap();
        while let Some(row) = rows.next().unwrap() {
            for i in 0..columns {
                match row.get_ref(i).unwrap() {
                    ValueRef::Integer(n) => {
                        integers.insert(n);
                    }
                    ValueRef::Text(bytes) | ValueRef::Blob(bytes) => values.push(bytes.to_vec()),
                    ValueRef::Real(_) | ValueRef::Null => {}
                }
            }
        }
    }
    Loot { files, integers, values }
}

/// The per-visitor seed as ingest makes it (address, a zero byte, user agent).
pub(super) fn seed(ip: IpAddr) -> [u8; 32] {
    let mut hasher = Sha256::new();
    hasher.update(ip.to_string().as_bytes());
    hasher.update([0]);
    hasher.update(VISITOR_UA.as_bytes());
    hasher.finalize().into()
}

/// The visitor hashes `salt` would give, in the writer's order of inputs and in the other plausible ones.
pub(super) fn hashes(salt: &[u8], site: i64, seed: &[u8; 32]) -> [i64; 3] {
    let digest = |parts: &[&[u8]]| {
        let mut hasher = Sha256::new();
        for part in parts {
            hasher.update(part);
        }
        let digest = hasher.finalize();
        i64::from_le_bytes(digest[..8].try_into().unwrap())
    };
    let site = site.to_le_bytes();
    [digest(&[salt, &site, seed]), digest(&[seed, &site, salt]), digest(&[salt, seed])]
}

/// Salt candidates: every text and blob value, each file whole and every 16-byte window of the small files
/// (the signing secret), and no salt at all.
fn salt_candidates(loot: &Loot) -> Vec<Vec<u8>> {
    let mut salts = vec![Vec::new()];
    salts.extend(loot.values.iter().cloned());
    for file in &loot.files {
        if file.len() <= 4_096 {
            salts.push(file.clone());
            salts.extend(file.windows(16).map(<[u8]>::to_vec));
        }
    }
    salts.sort();
    salts.dedup();
    salts
}

/// The addresses an attacker would try: the whole /24, or for IPv6 the exact address, the /48 itself and a
/// sample of it (all of its 2^80 addresses are out of reach anyway).
pub(super) fn candidates(stored: &str, exact: IpAddr) -> Vec<IpAddr> {
    match stored.parse::<IpAddr>().unwrap() {
        IpAddr::V4(net) => {
            let [a, b, c, _] = net.octets();
            (0..=255u8).map(|d| IpAddr::from([a, b, c, d])).collect()
        }
        IpAddr::V6(net) => {
            let mut all = vec![exact, IpAddr::V6(net)];
            let prefix = u128::from(net);
            all.extend((1..=256u128).map(|i| IpAddr::V6((prefix | i | (i << 64)).into())));
            all
        }
    }
}

pub(super) async fn visit_from(server: &TestServer, key: &str, ip: &str, session: &str) {
    let body = json!({"tracking_key": key, "session_id": session, "url": "https://salted.example.com/"});
    let response = server
        .client
        .post(server.url("/api/track"))
        .header("user-agent", VISITOR_UA)
        // The test client is a loopback peer, a trusted proxy by default: this is the visitor's address.
        .header("x-forwarded-for", ip)
        .header("content-type", "text/plain")
        .body(body.to_string())
        .send()
        .await
        .unwrap();
    let answer = answer(response).await;
    assert_eq!(answer.status, StatusCode::ACCEPTED, "{}", answer.text);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_visitor_address_cannot_be_recomputed_from_the_data_folder() {
    let server = TestServer::start().await;
    let (token, _) = server.register("salt@example.com").await;
    let site = server.create_site(&token, "Salted", "light").await;
    let key = site["trackingKey"].as_str().unwrap().to_string();
    visit_from(&server, &key, VISITOR_V4, "salted-visit-v4").await;
    visit_from(&server, &key, VISITOR_V6, "salted-visit-v6").await;
    let dir = server.stop_keeping_dir().await;
    let loot = loot(&dir.path().join("data"));

    let conn = rusqlite::Connection::open(dir.path().join("data/tracker.db")).unwrap();
    let sessions: Vec<(String, i64, i64)> = conn
        .prepare("SELECT ip_address, visitor_hash, website_id FROM sessions ORDER BY session_key")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    let stored: Vec<&str> = sessions.iter().map(|(ip, _, _)| ip.as_str()).collect();
    assert_eq!(stored, ["203.0.113.0", "2001:db8:4d2::"], "the anonymised addresses are what the attacker starts from");
    let sites: HashSet<i64> = sessions.iter().map(|(_, _, site)| *site).collect();

    let salts = salt_candidates(&loot);
    assert!(salts.len() > 50, "the search uses what the folder holds ({} candidates)", salts.len());
    for ((stored, _, _), exact) in sessions.iter().zip([VISITOR_V4, VISITOR_V6]) {
        let exact: IpAddr = exact.parse().unwrap();
        let candidates = candidates(stored, exact);
        assert!(candidates.contains(&exact));
        for ip in candidates {
            let seed = seed(ip);
            for salt in &salts {
                for site in &sites {
                    for hash in hashes(salt, *site, &seed) {
                        assert!(
                            !loot.integers.contains(&hash),
                            "{ip} recomputed from the data folder (salt of {} bytes: {salt:02x?})",
                            salt.len()
                        );
                    }
                }
            }
        }
    }
}
