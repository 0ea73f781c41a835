//! Two-factor authentication: TOTP (RFC 6238: SHA-1, 6 digits, 30-second steps, one step of skew) enrolled
//! through an otpauth URI and its QR code, confirmed by a first code, then asked at every login; single-use
//! recovery codes stored as hashes; the TOTP secrets sealed with a key from the instance secret. `Auth` runs the
//! attempt limits around these checks.

use chacha20poly1305::aead::{Aead, KeyInit, Payload};
use chacha20poly1305::{ChaCha20Poly1305, Nonce};
use qrcode::QrCode;
use qrcode::render::svg;
use rand::Rng;
use serde::Serialize;
use sha2::{Digest, Sha256};
use totp_rs::{Algorithm, Secret, TOTP};

use crate::error::{Error, Result};
use crate::model::{UserId, now_ms};
use crate::store::meta::Metadata;

/// Seconds per TOTP step.
const STEP: u64 = 30;
/// Recovery codes handed out at enrolment.
pub const RECOVERY_CODES: usize = 10;
/// Issuer shown by authenticator apps.
const ISSUER: &str = "tracker";

/// What the Settings screen shows to enrol an authenticator app.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TwoFactorSetup {
    /// The secret in base32, for typing into an app by hand.
    pub secret: String,
    pub otpauth_url: String,
    /// The otpauth URI as a QR code (SVG markup).
    pub qr_svg: String,
}

/// What starts a sealed secret in `users.totp_secret`; anything else is a secret stored before sealing.
const SEALED: &[u8] = b"tk1";
const NONCE_BYTES: usize = 12;

/// Seals TOTP secrets at rest with ChaCha20-Poly1305 under a key derived from the instance secret (the
/// configured `jwt_secret` or `secret.key`), bound to the account id. A copy of the database alone (a
/// backup, a stolen file) then holds no working second factor.
pub(super) struct SecretSeal(ChaCha20Poly1305);

impl SecretSeal {
    pub(super) fn new(instance_secret: &[u8]) -> SecretSeal {
        let key = Sha256::new().chain_update(b"tracker totp seal v1\0").chain_update(instance_secret).finalize();
        SecretSeal(ChaCha20Poly1305::new(&key))
    }

    fn seal(&self, user: UserId, secret: &[u8]) -> Result<Vec<u8>> {
        let nonce: [u8; NONCE_BYTES] = rand::rng().random();
        let aad = user.to_le_bytes();
        let sealed = self
            .0
            .encrypt(&Nonce::from(nonce), Payload { msg: secret, aad: &aad })
            .map_err(|_| Error::Internal("sealing a two-factor secret failed".into()))?;
        Ok([SEALED, &nonce, &sealed].concat())
    }

    /// The secret, or None when it cannot be opened (the instance secret changed, or the row was copied
    /// onto another account): the account's authenticator codes then fail, its recovery codes still work.
    fn open(&self, user: UserId, stored: &[u8]) -> Option<Vec<u8>> {
        let Some(rest) = stored.strip_prefix(SEALED) else {
            return Some(stored.to_vec()); // stored before sealing; `seal_plain_secrets` seals it at start
        };
        let (nonce, sealed) = rest.split_at_checked(NONCE_BYTES)?;
        let nonce = Nonce::from(<[u8; NONCE_BYTES]>::try_from(nonce).ok()?);
        let aad = user.to_le_bytes();
        let opened = self.0.decrypt(&nonce, Payload { msg: sealed, aad: &aad }).ok();
        if opened.is_none() {
            tracing::warn!(user, "a two-factor secret could not be opened: was the instance secret changed?");
        }
        opened
    }
}

/// Seals the secrets stored in plain form by versions before sealing (run once at start; cheap when none).
pub(super) fn seal_plain_secrets(meta: &dyn Metadata, seal: &SecretSeal) -> Result<usize> {
    let plain = meta.plain_secrets(SEALED)?;
    for (user, secret) in &plain {
        meta.reseal_secret(*user, secret, &seal.seal(*user, secret)?)?;
    }
    Ok(plain.len())
}

fn totp(secret: Vec<u8>, email: &str) -> Result<TOTP> {
    // The otpauth label may not hold a colon (it separates issuer and account).
    let account = email.replace(':', "_");
    TOTP::new(Algorithm::SHA1, 6, 1, STEP, secret, Some(ISSUER.into()), account)
        .map_err(|e| Error::Internal(format!("totp: {e}")))
}

/// Starts (or restarts) enrolment: a new pending secret, not yet asked at login.
pub(super) fn begin(meta: &dyn Metadata, seal: &SecretSeal, user: UserId) -> Result<TwoFactorSetup> {
    let row = meta.two_factor(user)?.ok_or_else(|| Error::Unauthorized("account no longer exists".into()))?;
    if row.enabled {
        return Err(Error::Conflict("two-factor authentication is already on".into()));
    }
    let secret = Secret::generate_secret().to_bytes().map_err(|e| Error::Internal(format!("totp secret: {e}")))?;
    let totp = totp(secret.clone(), &row.email)?;
    meta.set_pending_secret(user, &seal.seal(user, &secret)?)?;
    let otpauth_url = totp.get_url();
    let qr_svg = QrCode::new(otpauth_url.as_bytes())
        .map_err(|e| Error::Internal(format!("qr code: {e}")))?
        .render::<svg::Color>()
        .min_dimensions(200, 200)
        .quiet_zone(true)
        .build();
    Ok(TwoFactorSetup { secret: totp.get_secret_base32(), otpauth_url, qr_svg })
}

/// Checks a 6-digit code against the account's secret (pending or enabled); a code of a step already used
/// is refused, and the accepted step is remembered.
pub(super) fn check_code(meta: &dyn Metadata, seal: &SecretSeal, user: UserId, code: &str) -> Result<bool> {
    let code = code.trim().replace(' ', "");
    if code.len() != 6 || !code.bytes().all(|b| b.is_ascii_digit()) {
        return Ok(false);
    }
    let Some(row) = meta.two_factor(user)? else {
        return Ok(false);
    };
    let Some(secret) = row.secret.and_then(|stored| seal.open(user, &stored)) else {
        return Ok(false);
    };
    let totp = totp(secret, &row.email)?;
    let now = (now_ms() / 1000) as u64;
    let current = now / STEP;
    for step in [current.saturating_sub(1), current, current + 1] {
        if step as i64 > row.last_step && same(totp.generate(step * STEP).as_bytes(), code.as_bytes()) {
            // Refused if another request accepted this step (or a later one) since the read.
            return meta.accept_step(user, step as i64);
        }
    }
    Ok(false)
}

/// Uses up a recovery code if it is one of the account's unused ones.
pub(super) fn use_recovery_code(meta: &dyn Metadata, user: UserId, code: &str) -> Result<bool> {
    meta.use_recovery_code(user, &recovery_hash(code), now_ms())
}

/// Turns the pending secret on and hands out fresh recovery codes (shown once; only their hashes stay).
pub(super) fn enable(meta: &dyn Metadata, user: UserId) -> Result<Vec<String>> {
    let codes: Vec<String> = (0..RECOVERY_CODES).map(|_| new_recovery_code()).collect();
    let hashes: Vec<Vec<u8>> = codes.iter().map(|code| recovery_hash(code)).collect();
    meta.enable_two_factor(user, &hashes)?;
    Ok(codes)
}

/// A recovery code: two groups of five from an alphabet without look-alikes (about 48 bits).
fn new_recovery_code() -> String {
    const ALPHABET: &[u8] = b"abcdefghjkmnpqrstuvwxyz23456789";
    let mut rng = rand::rng();
    let mut pick = || ALPHABET[rng.random_range(0..ALPHABET.len())] as char;
    let first: String = (0..5).map(|_| pick()).collect();
    let second: String = (0..5).map(|_| pick()).collect();
    format!("{first}-{second}")
}

/// The kept form of a recovery code; case, spaces and dashes do not matter when typed.
fn recovery_hash(code: &str) -> Vec<u8> {
    let normalised: String =
        code.chars().filter(|c| !c.is_whitespace() && *c != '-').map(|c| c.to_ascii_lowercase()).collect();
    Sha256::digest(normalised.as_bytes()).to_vec()
}

/// Compares without stopping at the first difference.
fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recovery_codes_are_matched_whatever_their_case_and_dashes() {
        let code = new_recovery_code();
        assert_eq!(code.len(), 11);
        assert_eq!(recovery_hash(&code), recovery_hash(&code.to_uppercase().replace('-', " ")));
        assert_ne!(recovery_hash(&code), recovery_hash(&new_recovery_code()));
    }

    /// A secret stored in plain form by the version before sealing is sealed when the tracker next opens.
    #[test]
    fn a_plain_secret_from_an_older_version_is_sealed_at_open() {
        use rusqlite::{Connection, params};
        let plain_count = |db: &Connection| -> i64 {
            db.query_row("SELECT count(*) FROM users WHERE substr(totp_secret, 1, 3) != ?1", [SEALED], |r| r.get(0))
                .unwrap()
        };
        let dir = tempfile::tempdir().unwrap();
        let config = crate::Config { data_dir: dir.path().join("data"), ..crate::Config::default() };
        let tracker = crate::Tracker::open(&config).unwrap();
        let user = tracker.auth.create_user("legacy@example.com", "secret12").unwrap();
        drop(tracker);
        let db = Connection::open(config.data_dir.join("tracker.db")).unwrap();
        let plain = b"0123456789abcdefghij".to_vec();
        db.execute("UPDATE users SET totp_secret = ?1 WHERE id = ?2", params![plain, user.id]).unwrap();
        assert_eq!(plain_count(&db), 1);
        drop(db);
        let tracker = crate::Tracker::open(&config).unwrap();
        let db = Connection::open(config.data_dir.join("tracker.db")).unwrap();
        assert_eq!(plain_count(&db), 0, "sealed at open");
        let stored: Vec<u8> =
            db.query_row("SELECT totp_secret FROM users WHERE id = ?1", [user.id], |r| r.get(0)).unwrap();
        assert!(stored.starts_with(SEALED));
        assert!(!stored.windows(plain.len()).any(|w| w == plain.as_slice()), "no plain copy left");
        drop(tracker);
    }

    #[test]
    fn codes_compare_in_full() {
        assert!(same(b"123456", b"123456"));
        assert!(!same(b"123456", b"123457"));
        assert!(!same(b"12345", b"123456"));
    }
}
