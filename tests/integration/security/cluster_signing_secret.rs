//! Finding 1 of issue 33 (cluster mode): without `jwt_secret` the cluster kept its token-signing secret in
//! PostgreSQL (`signing_secret`), so a reader of the database forged access tokens, and opened every two-factor
//! secret, whose seal key derives from the same secret. Cluster daemons now take the secret from configuration
//! only and refuse to start without it; this test takes the whole content of both stores and tries every value
//! as the signing secret and as what the seal key derives from. On the harness cluster (tests/cluster/cluster.sh).

use chacha20poly1305::aead::{Aead, KeyInit, Payload};
use chacha20poly1305::{ChaCha20Poly1305, Nonce};
use hmac::{Hmac, Mac};
use reqwest::{Method, StatusCode};
use serde_json::json;
use sha2::{Digest, Sha256};
use tracker_core::{Config, Tracker};

use super::cluster_loot::loot;
use crate::cluster::{CLUSTER_JWT_SECRET, CLUSTER_SALT_KEY, Corner, harness};

/// Whether `key` signed the JWT `token` (HS256: HMAC-SHA256 of "header.payload").
fn signs(key: &[u8], token: &str) -> bool {
    let Some((signed, signature)) = token.rsplit_once('.') else { return false };
    let Ok(signature) = base64::Engine::decode(&base64::engine::general_purpose::URL_SAFE_NO_PAD, signature) else {
        return false;
    };
    let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(key).unwrap();
    mac.update(signed.as_bytes());
    mac.verify_slice(&signature).is_ok()
}

/// The TOTP secret sealed in `stored` (b"tk1", a 12-byte nonce, the ciphertext; the account id as associated
/// data) opened with `key` as the seal key, if it opens.
fn open_with_seal_key(key: &[u8; 32], user: i64, stored: &[u8]) -> Option<Vec<u8>> {
    let rest = stored.strip_prefix(b"tk1")?;
    let (nonce, sealed) = rest.split_at_checked(12)?;
    let nonce = Nonce::from(<[u8; 12]>::try_from(nonce).ok()?);
    let aad = user.to_le_bytes();
    ChaCha20Poly1305::new(key.into()).decrypt(&nonce, Payload { msg: sealed, aad: &aad }).ok()
}

/// The secret opened with the seal key derived from `instance_secret` as the daemon derives it, or with
/// `instance_secret` itself as the key.
fn opens(instance_secret: &[u8], user: i64, stored: &[u8]) -> Option<Vec<u8>> {
    let derived: [u8; 32] =
        Sha256::new().chain_update(b"tracker totp seal v1\0").chain_update(instance_secret).finalize().into();
    let raw: Option<[u8; 32]> = instance_secret.try_into().ok();
    open_with_seal_key(&derived, user, stored).or_else(|| raw.and_then(|key| open_with_seal_key(&key, user, stored)))
}

/// A cluster daemon's config lacking what `adjust` removes.
fn config_of(corner: &Corner, dir: &tempfile::TempDir, adjust: impl FnOnce(&mut Config)) -> Config {
    let mut config = Config { data_dir: dir.path().join("data"), ..Config::default() };
    config.postgres_url = Some(corner.postgres_url());
    config.clickhouse_url = Some(corner.ch.clone());
    config.clickhouse_database = Some(corner.name.clone());
    config.jwt_secret = Some(CLUSTER_JWT_SECRET.into());
    config.visitor_salt_key = Some(CLUSTER_SALT_KEY.into());
    adjust(&mut config);
    config
}

/// Why the cluster daemon of `config` does not open (it must not).
async fn refusal(config: Config) -> String {
    match tokio::task::spawn_blocking(move || Tracker::open(&config)).await.unwrap() {
        Ok(_) => panic!("a cluster daemon opened without one of its keys configured"),
        Err(e) => e.to_string(),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_cluster_keeps_no_signing_secret_in_its_databases() {
    let Some((pg, ch)) = harness() else { return };
    let corner = Corner::new(pg, ch).await;

    // Without a configured secret (or salt key) a daemon refuses to start and names what to set.
    let dir = tempfile::tempdir().unwrap();
    let message = refusal(config_of(&corner, &dir, |c| c.jwt_secret = None)).await;
    assert!(message.contains("jwt_secret") && message.contains("every daemon"), "{message}");
    let message = refusal(config_of(&corner, &dir, |c| c.visitor_salt_key = None)).await;
    assert!(message.contains("visitor_salt_key"), "{message}");

    // Two daemons with the same configured secret: a token of one is good on the other.
    let (a, b) = (corner.daemon().await, corner.daemon().await);
    let (token, registered) = a.register("forged@example.com").await;
    let site = a.create_site(&token, "Secret", "light").await;
    let hit = a.pageview(site["trackingKey"].as_str().unwrap(), "secret-visit", "/").await;
    assert_eq!(hit.status, StatusCode::ACCEPTED, "{}", hit.text);
    // An enrolled authenticator, its secret sealed in PostgreSQL.
    let password = json!({"password": "secret1"});
    let setup = b.call(Method::POST, "/api/user/two-factor/setup", Some(&token), Some(password)).await;
    assert_eq!(setup.status, StatusCode::OK, "{}", setup.text);
    let totp = totp_rs::Secret::Encoded(setup.json["secret"].as_str().unwrap().into()).to_bytes().unwrap();
    let code = totp_rs::TOTP::new(totp_rs::Algorithm::SHA1, 6, 1, 30, totp.clone(), None, "x".into())
        .unwrap()
        .generate_current()
        .unwrap();
    let enabled = b.post("/api/user/two-factor/enable", &token, json!({"code": code, "password": "secret1"})).await;
    assert_eq!(enabled.status, StatusCode::OK, "{}", enabled.text);
    assert_eq!(b.get("/api/user", &token).await.status, StatusCode::OK, "the token is live on both daemons");

    let loot = loot(&corner).await;
    for table in ["pg.users", "pg.auth_sessions", "pg.websites", "ch.hits_local"] {
        assert!(loot.tables.iter().any(|t| t == table), "{table} is searched: {:?}", loot.tables);
    }
    for table in ["pg.signing_secret", "pg.ingest_salts"] {
        assert!(!loot.tables.iter().any(|t| t == table), "{table} is gone: {:?}", loot.tables);
    }
    let user = registered["user"]["id"].as_i64().unwrap();
    let sealed = {
        let (url, schema) = (corner.base_postgres_url(), corner.name.clone());
        tokio::task::spawn_blocking(move || {
            let mut client = postgres::Client::connect(&url, postgres::NoTls).unwrap();
            let sql = format!("SELECT totp_secret FROM {schema}.users WHERE id = $1");
            client.query_one(&sql, &[&user]).unwrap().get::<_, Vec<u8>>(0)
        })
        .await
        .unwrap()
    };
    // The checks can succeed: the configured secret signs the token and opens the authenticator's secret.
    assert!(signs(CLUSTER_JWT_SECRET.as_bytes(), &token));
    assert_eq!(opens(CLUSTER_JWT_SECRET.as_bytes(), user, &sealed), Some(totp.clone()));

    assert!(loot.values.len() > 50, "the search uses what the stores hold ({} values)", loot.values.len());
    for value in &loot.values {
        assert!(!signs(value, &token), "a value of the databases signs tokens: {:?}", String::from_utf8_lossy(value));
        assert_eq!(opens(value, user, &sealed), None, "a value of the databases opens the TOTP secret");
        assert!(value.windows(totp.len()).all(|w| w != totp.as_slice()), "the TOTP secret is stored in plain form");
    }
    assert_eq!(b.get("/api/user", &token).await.status, StatusCode::OK, "the token searched for was live");
}
