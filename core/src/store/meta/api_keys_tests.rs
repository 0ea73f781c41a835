//! API keys on each metadata engine (SQLite always, PostgreSQL when the harness is up), through `Auth` as the
//! daemon calls it: creation and listing without the secret, scope, the per-key limit, the throttled last use,
//! revocation, another account's key, the cap on keys per account, and an account's deletion.

use super::testing::engines;
use crate::auth::{ApiKeyScope, Auth, KeyUse, MAX_API_KEYS, Principal};
use crate::config::Config;
use crate::error::Error;
use crate::settings::Settings;

const SECRET: &[u8] = b"a test signing secret of 32 bytes or more";

/// An account's principal as a sign-in would give it.
fn signed_in(auth: &Auth, email: &str) -> Principal {
    let user = auth.create_user(email, "secret1").unwrap();
    Principal { user: user.id, session: 1, version: 0, issued_at: 0, expires_at: i64::MAX, api_key: None }
}

#[test]
fn a_key_is_shown_once_listed_without_its_secret_and_used_within_its_scope_on_each_engine() {
    for engine in engines() {
        let name = engine.name;
        let settings = Settings::new(Config { api_key_requests_per_hour: 3, ..Config::default() });
        let auth = Auth::new(engine.meta.clone(), SECRET, settings, None);
        let ann = signed_in(&auth, "ann@example.com");
        let read = auth.create_api_key(ann, "  Grafana  ", ApiKeyScope::Read).unwrap();
        let write = auth.create_api_key(ann, "CI", ApiKeyScope::Write).unwrap();
        assert!(read.secret.starts_with("trk_") && read.secret.len() == 47, "{name}: {}", read.secret);
        assert_eq!(read.key.name, "Grafana", "{name}");
        assert_eq!(read.key.prefix, read.secret[..10], "{name}");
        assert_eq!(read.key.last_used_at, None, "{name}");

        let listed = auth.api_keys(ann).unwrap();
        assert_eq!(listed, vec![write.key.clone(), read.key.clone()], "{name}: newest first");
        let json = serde_json::to_string(&listed).unwrap();
        assert!(!json.contains(&read.secret) && !json.contains(&write.secret), "{name}: {json}");

        // Scope: a read key reads; writing needs a write key; the account's security is no key's.
        let principal = auth.api_key_principal(&read.secret, KeyUse::Read).unwrap();
        assert_eq!((principal.user, principal.api_key), (ann.user, Some(read.key.id)), "{name}");
        let refused = auth.api_key_principal(&read.secret, KeyUse::Write);
        assert!(matches!(refused, Err(Error::Forbidden(_))), "{name}: {refused:?}");
        auth.api_key_principal(&write.secret, KeyUse::Write).unwrap();
        let refused = auth.api_key_principal(&write.secret, KeyUse::AccountSecurity);
        assert!(matches!(refused, Err(Error::Forbidden(_))), "{name}: {refused:?}");
        let from_key = auth.create_api_key(principal, "minted by a key", ApiKeyScope::Write);
        assert!(matches!(from_key, Err(Error::Forbidden(_))), "{name}: {from_key:?}");
        let unknown = auth.api_key_principal("trk_not-a-key-of-anyone", KeyUse::Read);
        assert!(matches!(unknown, Err(Error::Unauthorized(_))), "{name}: {unknown:?}");

        // The limit is per key (3 here), and the last use is written once a minute, not per request.
        for _ in 0..3 {
            auth.meter_api_key(&read.secret, KeyUse::Read).unwrap();
        }
        let limited = auth.meter_api_key(&read.secret, KeyUse::Read);
        assert!(matches!(limited, Err(Error::RateLimitedFor(s)) if (1..=3600).contains(&s)), "{name}: {limited:?}");
        auth.meter_api_key(&write.secret, KeyUse::Read).unwrap();
        let used = auth.api_keys(ann).unwrap();
        let first_use = used[0].last_used_at.expect("used");
        assert!(first_use >= read.key.created_at, "{name}");
        auth.meter_api_key(&write.secret, KeyUse::Read).unwrap();
        assert_eq!(auth.api_keys(ann).unwrap()[0].last_used_at, Some(first_use), "{name}: throttled");

        // Revocation is at once; another account's key id is not found, and stays usable by its owner.
        let bob = signed_in(&auth, "bob@example.com");
        let refused = auth.revoke_api_key(bob, write.key.id);
        assert!(matches!(refused, Err(Error::NotFound(_))), "{name}: {refused:?}");
        auth.api_key_principal(&write.secret, KeyUse::Write).unwrap();
        auth.revoke_api_key(ann, write.key.id).unwrap();
        let revoked = auth.api_key_principal(&write.secret, KeyUse::Read);
        assert!(matches!(revoked, Err(Error::Unauthorized(_))), "{name}: {revoked:?}");
        assert!(matches!(auth.revoke_api_key(ann, write.key.id), Err(Error::NotFound(_))), "{name}");

        // Deleting the account deletes its keys.
        auth.remove_user(ann.user).unwrap();
        let gone = auth.api_key_principal(&read.secret, KeyUse::Read);
        assert!(matches!(gone, Err(Error::Unauthorized(_))), "{name}: {gone:?}");
        assert!(engine.meta.api_keys(ann.user).unwrap().is_empty(), "{name}");
    }
}

#[test]
fn an_account_has_at_most_the_cap_of_keys_and_bad_names_are_refused_on_each_engine() {
    for engine in engines() {
        let name = engine.name;
        let auth = Auth::new(engine.meta.clone(), SECRET, Settings::new(Config::default()), None);
        let ann = signed_in(&auth, "cap@example.com");
        for bad in ["", "  ", "a\nb", "nul\u{0}", &"x".repeat(101)] {
            let refused = auth.create_api_key(ann, bad, ApiKeyScope::Read);
            assert!(matches!(refused, Err(Error::Invalid(_))), "{name}: {bad:?}: {refused:?}");
        }
        for n in 0..MAX_API_KEYS {
            auth.create_api_key(ann, &format!("key {n}"), ApiKeyScope::Read).unwrap();
        }
        let over = auth.create_api_key(ann, "one too many", ApiKeyScope::Read);
        assert!(matches!(over, Err(Error::Conflict(_))), "{name}: {over:?}");
        assert_eq!(auth.api_keys(ann).unwrap().len(), MAX_API_KEYS as usize, "{name}");
        // Another account's cap is its own.
        let bob = signed_in(&auth, "bob@example.com");
        auth.create_api_key(bob, "mine", ApiKeyScope::Write).unwrap();
    }
}
