//! Two-factor authentication: TOTP (RFC 6238: SHA-1, 6 digits, 30-second steps, one step of skew) enrolled
//! through an otpauth URI and its QR code, confirmed by a first code, then asked at every login; single-use
//! recovery codes stored as hashes; the TOTP secrets sealed with a key from the instance secret; `Auth`'s
//! enrolment, removal and the operator's reset, each change recorded in the account's audit log.
//!
//! A bearer token alone changes nothing here (issue 33): setup and enable ask for the current password,
//! disable for the password and a code, so a stolen access token cannot lock the owner out with an
//! authenticator of the thief's; turning two-factor on ends every other sign-in.

use qrcode::QrCode;
use qrcode::render::svg;
use rand::Rng;
use serde::Serialize;
use sha2::{Digest, Sha256};
use totp_rs::{Algorithm, Secret, TOTP};

use std::net::IpAddr;

use super::seal::Seal;
use super::{Auth, Principal, TWO_FACTOR_ATTEMPTS, revoked};
use crate::error::{Error, Result};
use crate::model::{UserId, now_ms};
use crate::store::meta::{AccountAuditEntry, Metadata};

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

/// Seals TOTP secrets at rest under a key from the instance secret (the configured `jwt_secret` or
/// `secret.key`), bound to the account id. A copy of the database alone (a backup, a stolen file) then holds no
/// working second factor.
pub(super) struct SecretSeal(Seal);

impl SecretSeal {
    pub(super) fn new(instance_secret: &[u8]) -> SecretSeal {
        SecretSeal(Seal::new(instance_secret, "tracker totp seal v1", SEALED))
    }

    fn seal(&self, user: UserId, secret: &[u8]) -> Result<Vec<u8>> {
        self.0.seal(user, secret)
    }

    /// The secret, or None when it cannot be opened (the instance secret changed, or the row was copied
    /// onto another account): the account's authenticator codes then fail, its recovery codes still work.
    fn open(&self, user: UserId, stored: &[u8]) -> Option<Vec<u8>> {
        if !self.0.is_sealed(stored) {
            return Some(stored.to_vec()); // stored before sealing; `seal_plain_secrets` seals it at start
        }
        let opened = self.0.open(user, stored);
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
fn begin(meta: &dyn Metadata, seal: &SecretSeal, user: UserId) -> Result<TwoFactorSetup> {
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
fn check_code(meta: &dyn Metadata, seal: &SecretSeal, user: UserId, code: &str) -> Result<bool> {
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
fn use_recovery_code(meta: &dyn Metadata, user: UserId, code: &str) -> Result<bool> {
    meta.use_recovery_code(user, &recovery_hash(code), now_ms())
}

/// Turns the pending secret on and hands out fresh recovery codes (shown once; only their hashes stay).
fn enable(meta: &dyn Metadata, user: UserId) -> Result<Vec<String>> {
    let codes: Vec<String> = (0..RECOVERY_CODES).map(|_| new_recovery_code()).collect();
    let hashes: Vec<Vec<u8>> = codes.iter().map(|code| recovery_hash(code)).collect();
    meta.enable_two_factor(user, &hashes)?;
    Ok(codes)
}

/// Entries of an account's audit log one call reads at most.
const ACCOUNT_AUDIT_LIMIT: i64 = 100;

impl Auth {
    /// Starts two-factor enrolment once the current password is confirmed: a new secret, its otpauth URI and
    /// QR code; not asked at login until [`Self::enable_two_factor`] confirms it with a code.
    pub fn begin_two_factor(&self, principal: Principal, password: &str, client: IpAddr) -> Result<TwoFactorSetup> {
        self.check_password(principal.user, password, client)?;
        begin(self.meta.as_ref(), &self.seal, principal.user)
    }

    /// Confirms enrolment with the current password and a code from the app; every other sign-in of the
    /// account ends (the caller's goes on). Answers the recovery codes (shown once).
    pub fn enable_two_factor(
        &self,
        principal: Principal,
        password: &str,
        code: &str,
        client: IpAddr,
    ) -> Result<Vec<String>> {
        self.check_password(principal.user, password, client)?;
        let row = self.meta.two_factor(principal.user)?.ok_or_else(revoked)?;
        match (row.enabled, row.secret.is_some()) {
            (true, _) => return Err(Error::Conflict("two-factor authentication is already on".into())),
            (false, false) => return Err(Error::invalid("start the two-factor setup first")),
            _ => {}
        }
        self.limited_code_check(principal.user, code, false)?;
        let codes = enable(self.meta.as_ref(), principal.user)?;
        let ended = self.meta.end_other_sessions(principal.user, Some(principal.session), now_ms())?;
        self.audit(principal.user, Some(principal.user), "two_factor_enabled", ended)?;
        Ok(codes)
    }

    /// Turns two-factor authentication off after checking the password and, while it is on, a current code
    /// or an unused recovery code (an enrolment not confirmed yet is dropped with the password alone).
    pub fn disable_two_factor(&self, principal: Principal, password: &str, code: &str, client: IpAddr) -> Result<()> {
        self.check_password(principal.user, password, client)?;
        let row = self.meta.two_factor(principal.user)?.ok_or_else(revoked)?;
        if row.enabled {
            if code.trim().is_empty() {
                return Err(Error::invalid("enter a code from your authenticator app or a recovery code"));
            }
            self.limited_code_check(principal.user, code, true)?;
        }
        self.meta.disable_two_factor(principal.user)?;
        if row.enabled {
            self.audit(principal.user, Some(principal.user), "two_factor_disabled", 0)?;
        }
        Ok(())
    }

    /// The operator's reset (`tracker users 2fa-reset`): two-factor off, its secret and recovery codes
    /// forgotten, every sign-in of the account ended, recorded in the account's audit log. Answers how many
    /// sign-ins ended; refused when the account has neither two-factor on nor an enrolment started.
    pub fn reset_two_factor(&self, user: UserId) -> Result<u64> {
        let row = self.meta.two_factor(user)?.ok_or(Error::NotFound("user"))?;
        if !row.enabled && row.secret.is_none() {
            return Err(Error::Conflict("two-factor authentication is not on for this account".into()));
        }
        self.meta.disable_two_factor(user)?;
        let ended = self.meta.end_other_sessions(user, None, now_ms())?;
        self.audit(user, None, "two_factor_reset", ended)?;
        Ok(ended)
    }

    /// Unused recovery codes of an account.
    pub fn recovery_codes_left(&self, user: UserId) -> Result<i64> {
        self.meta.recovery_codes_left(user)
    }

    /// The account's audit log (two-factor changes), newest first, at most `ACCOUNT_AUDIT_LIMIT` entries.
    pub fn account_audit(&self, user: UserId) -> Result<Vec<AccountAuditEntry>> {
        self.meta.account_audit(user, ACCOUNT_AUDIT_LIMIT)
    }

    /// Checks a second-factor code through the per-account limit (`TWO_FACTOR_ATTEMPTS` wrong codes per
    /// window); recovery codes count only where `recovery` is allowed (login, disable), and are used up.
    pub(super) fn limited_code_check(&self, user: UserId, code: &str, recovery: bool) -> Result<()> {
        if !self.limits.code_failures.try_acquire(&user, TWO_FACTOR_ATTEMPTS)? {
            return Err(Error::RateLimited);
        }
        let meta = self.meta.as_ref();
        let accepted = check_code(meta, &self.seal, user, code)? || (recovery && use_recovery_code(meta, user, code)?);
        if accepted {
            self.limits.code_failures.refund(&user);
            Ok(())
        } else {
            Err(Error::Unauthorized("invalid two-factor code".into()))
        }
    }

    /// Records a two-factor change of `user` by `actor` (`None`: the operator's command line).
    fn audit(&self, user: UserId, actor: Option<UserId>, action: &str, sign_ins_ended: u64) -> Result<()> {
        let detail = serde_json::json!({ "signInsEnded": sign_ins_ended });
        self.meta.insert_account_audit(user, now_ms(), actor, action, &detail)
    }
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
