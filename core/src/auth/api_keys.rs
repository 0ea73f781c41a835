//! API keys (issue 36): long-lived credentials an account creates for scripts and integrations, sent as
//! `Authorization: Bearer trk_...` on the JSON API. A key is scoped `read` or `write` and never reaches the
//! account's security (password, email, two-factor, keys, sign-in); which of the three a route is, the daemon
//! decides from the request ([`KeyUse`]), and this file applies it, with the per-key hourly limit.
//!
//! The secret is `trk_` and 256 random bits (base64url), shown once at creation; only its SHA-256 is stored.
//! Why not argon2 as for passwords: a password is guessable, so its hash must be slow to try; 256 random bits
//! cannot be guessed however fast the hash, and a fast, unsalted hash is what lets a request find its key by
//! an indexed lookup instead of running argon2 (tens of milliseconds and megabytes) on every API call.

use serde::{Deserialize, Serialize};

use super::tokens::{hash_token, random_token};
use super::{Auth, Principal, tokens::ACCESS_TOKEN_TTL_SECS};
use crate::error::{Error, Result};
use crate::model::{Millis, UserId, now_ms, ser_iso, ser_iso_opt};
use crate::store::meta::NewApiKey;

/// What every API key starts with: tells it from an access token (a JWT starts with `eyJ`) at a glance.
pub const API_KEY_PREFIX: &str = "trk_";
/// Keys one account may have; creating one more is a 409.
pub const MAX_API_KEYS: u32 = 50;
/// Longest key name, in characters.
pub const MAX_API_KEY_NAME: usize = 100;
/// Characters of the secret after `trk_` kept and shown to recognise a key (36 of its 256 bits).
const SHOWN_CHARS: usize = 6;
/// A key's last use is written at most this often (ms), so a burst of requests is not a burst of writes.
const TOUCH_EVERY_MS: i64 = 60_000;

/// What a key may do: `read` calls GET routes (and the read-only POSTs), `write` everything a signed-in user
/// can but the account's security.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum ApiKeyScope {
    Read,
    Write,
}

impl ApiKeyScope {
    /// Parses `read` or `write`.
    pub fn parse(text: &str) -> Option<ApiKeyScope> {
        match text {
            "read" => Some(ApiKeyScope::Read),
            "write" => Some(ApiKeyScope::Write),
            _ => None,
        }
    }

    /// The name stored and shown.
    pub fn as_str(self) -> &'static str {
        match self {
            ApiKeyScope::Read => "read",
            ApiKeyScope::Write => "write",
        }
    }
}

/// What a request needs of its credential, decided by the daemon from its method and path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyUse {
    /// Reads nothing but reads: a `read` key is enough.
    Read,
    /// Changes something: a `write` key.
    Write,
    /// The account's security (password, email, two-factor, API keys, sign-in and out, sites' members and
    /// invitations): never a key.
    AccountSecurity,
}

/// An API key as listed: never its secret.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ApiKey {
    pub id: i64,
    pub name: String,
    pub scope: ApiKeyScope,
    /// The secret's first characters (`trk_` and six more), to tell keys apart.
    pub prefix: String,
    #[serde(serialize_with = "ser_iso")]
    #[schema(value_type = String, format = DateTime)]
    pub created_at: Millis,
    /// When the key last opened a request (to the minute), null if never.
    #[serde(serialize_with = "ser_iso_opt")]
    #[schema(value_type = Option<String>, format = DateTime)]
    pub last_used_at: Option<Millis>,
}

/// A key just created, with its secret: the only answer that ever holds it.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreatedApiKey {
    #[serde(flatten)]
    pub key: ApiKey,
    /// The key itself, to send as `Authorization: Bearer <secret>`; shown this once.
    pub secret: String,
}

/// Whether a bearer credential is an API key rather than an access token.
pub fn is_api_key(token: &str) -> bool {
    token.starts_with(API_KEY_PREFIX)
}

impl Auth {
    /// Creates a key for the signed-in account (never from another key): a name of 1 to 100 characters
    /// without control characters, and at most [`MAX_API_KEYS`] keys per account (409 beyond).
    pub fn create_api_key(&self, principal: Principal, name: &str, scope: ApiKeyScope) -> Result<CreatedApiKey> {
        refuse_keys(principal)?;
        let name = validate_name(name)?;
        let secret = format!("{API_KEY_PREFIX}{}", random_token(32));
        let prefix: String = secret.chars().take(API_KEY_PREFIX.len() + SHOWN_CHARS).collect();
        let hash = hash_token(&secret);
        let new = NewApiKey { name: &name, scope, secret_hash: &hash, prefix: &prefix };
        let key = self.meta.insert_api_key(principal.user, &new, now_ms(), MAX_API_KEYS)?.ok_or_else(|| {
            Error::Conflict(format!("an account can have at most {MAX_API_KEYS} API keys: revoke one first"))
        })?;
        Ok(CreatedApiKey { key, secret })
    }

    /// The signed-in account's keys, newest first, without their secrets.
    pub fn api_keys(&self, principal: Principal) -> Result<Vec<ApiKey>> {
        refuse_keys(principal)?;
        self.meta.api_keys(principal.user)
    }

    /// Revokes one of the signed-in account's keys at once; another account's key is not found.
    pub fn revoke_api_key(&self, principal: Principal, id: i64) -> Result<()> {
        refuse_keys(principal)?;
        if !self.meta.delete_api_key(principal.user, id)? {
            return Err(Error::NotFound("API key"));
        }
        Ok(())
    }

    /// The account behind an API key, if the key stands and its scope allows `used_for`; no side effect (a
    /// route's filter may run more than once for one request). [`Self::meter_api_key`] counts the request.
    pub fn api_key_principal(&self, secret: &str, used_for: KeyUse) -> Result<Principal> {
        let (user, key) = self.find_key(secret)?;
        allow(key.scope, used_for)?;
        Ok(key_principal(user, key.id))
    }

    /// As [`Self::api_key_principal`], once per request: counts it against the key's hourly limit
    /// (`api_key_requests_per_hour`; beyond it a 429 saying when to retry) and records the key's use.
    pub fn meter_api_key(&self, secret: &str, used_for: KeyUse) -> Result<Principal> {
        let (user, key) = self.find_key(secret)?;
        allow(key.scope, used_for)?;
        let limit = self.settings.read(|s| s.api_key_requests_per_hour);
        let counter = &self.limits.api_key_requests;
        if !counter.try_acquire(&key.id, limit)? {
            return Err(Error::RateLimitedFor(counter.retry_after(&key.id).as_secs().max(1)));
        }
        let now = now_ms();
        if key.last_used_at.is_none_or(|last| now - last >= TOUCH_EVERY_MS) {
            self.meta.touch_api_key(key.id, now)?;
        }
        Ok(key_principal(user, key.id))
    }

    /// Whether the key a principal came from still stands (a live stream re-checks with this).
    pub(super) fn key_still_stands(&self, user: UserId, id: i64) -> Result<()> {
        if self.meta.api_keys(user)?.iter().any(|key| key.id == id) { Ok(()) } else { Err(revoked_key()) }
    }

    fn find_key(&self, secret: &str) -> Result<(UserId, ApiKey)> {
        // The longest real key is 47 characters; anything far longer is not worth hashing.
        if !is_api_key(secret) || secret.len() > 128 {
            return Err(revoked_key());
        }
        self.meta.api_key_by_hash(&hash_token(secret))?.ok_or_else(revoked_key)
    }
}

/// The principal of a request signed by key `id`: no sign-in behind it (session 0), valid as long as the key
/// is (a live stream re-checks after an access token's lifetime).
fn key_principal(user: UserId, id: i64) -> Principal {
    let now = chrono::Utc::now().timestamp();
    Principal {
        user,
        session: 0,
        version: 0,
        issued_at: now,
        expires_at: now + ACCESS_TOKEN_TTL_SECS,
        api_key: Some(id),
    }
}

/// Whether a key of `scope` may be used for `used_for`.
fn allow(scope: ApiKeyScope, used_for: KeyUse) -> Result<()> {
    match (used_for, scope) {
        (KeyUse::AccountSecurity, _) => Err(Error::Forbidden(
            "API keys cannot change the account's password, email, two-factor or API keys, a site's members or \
             invitations, nor sign in or out: sign in to the dashboard for that"
                .into(),
        )),
        (KeyUse::Write, ApiKeyScope::Read) => {
            Err(Error::Forbidden("this API key is read-only: a write key is needed for this call".into()))
        }
        _ => Ok(()),
    }
}

/// Keys are managed from a sign-in only: a leaked key must not mint more keys or hide itself.
pub(super) fn refuse_keys(principal: Principal) -> Result<()> {
    match principal.api_key {
        Some(_) => allow(ApiKeyScope::Write, KeyUse::AccountSecurity),
        None => Ok(()),
    }
}

fn revoked_key() -> Error {
    // Not InvalidToken: a key cannot be refreshed, so the dashboard's client must not try.
    Error::Unauthorized("invalid or revoked API key".into())
}

/// A key's name: trimmed, 1 to 100 characters, no control characters.
fn validate_name(name: &str) -> Result<String> {
    let name = name.trim();
    if name.is_empty() {
        return Err(Error::invalid("name is required"));
    }
    if name.chars().count() > MAX_API_KEY_NAME {
        return Err(Error::invalid(format!("name must be at most {MAX_API_KEY_NAME} characters")));
    }
    crate::model::check_line("name", name)?;
    Ok(name.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_checked() {
        assert_eq!(validate_name("  CI deploys ").unwrap(), "CI deploys");
        assert_eq!(validate_name(&"é".repeat(100)).unwrap().chars().count(), 100);
        for bad in ["", "   ", "a\u{0}b", "line\nbreak", "tab\there", "\u{7f}"] {
            assert!(matches!(validate_name(bad), Err(Error::Invalid(_))), "{bad:?}");
        }
        assert!(validate_name(&"a".repeat(101)).is_err());
    }

    #[test]
    fn scopes_allow_what_they_say() {
        assert!(allow(ApiKeyScope::Read, KeyUse::Read).is_ok());
        assert!(matches!(allow(ApiKeyScope::Read, KeyUse::Write), Err(Error::Forbidden(_))));
        assert!(allow(ApiKeyScope::Write, KeyUse::Write).is_ok());
        assert!(allow(ApiKeyScope::Write, KeyUse::Read).is_ok());
        for scope in [ApiKeyScope::Read, ApiKeyScope::Write] {
            assert!(matches!(allow(scope, KeyUse::AccountSecurity), Err(Error::Forbidden(_))));
        }
        assert!(is_api_key("trk_abc") && !is_api_key("eyJhbGciOi"));
    }
}
