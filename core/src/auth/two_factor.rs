//! Two-factor authentication: TOTP (RFC 6238: SHA-1, 6 digits, 30-second steps, one step of skew) enrolled
//! through an otpauth URI and its QR code, confirmed by a first code, then asked at every login; single-use
//! recovery codes stored as hashes. `Auth` runs the attempt limits around these checks.

use qrcode::QrCode;
use qrcode::render::svg;
use rand::Rng;
use rusqlite::{Connection, OptionalExtension, params};
use serde::Serialize;
use sha2::{Digest, Sha256};
use totp_rs::{Algorithm, Secret, TOTP};

use crate::error::{Error, Result};
use crate::model::{UserId, now_ms};

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

fn totp(secret: Vec<u8>, email: &str) -> Result<TOTP> {
    // The otpauth label may not hold a colon (it separates issuer and account).
    let account = email.replace(':', "_");
    TOTP::new(Algorithm::SHA1, 6, 1, STEP, secret, Some(ISSUER.into()), account)
        .map_err(|e| Error::Internal(format!("totp: {e}")))
}

/// Starts (or restarts) enrolment: a new pending secret, not yet asked at login.
pub(super) fn begin(conn: &Connection, user: UserId) -> Result<TwoFactorSetup> {
    let (email, enabled): (String, bool) = conn
        .query_row("SELECT email, totp_enabled FROM users WHERE id = ?1", [user], |r| Ok((r.get(0)?, r.get(1)?)))
        .optional()?
        .ok_or_else(|| Error::Unauthorized("account no longer exists".into()))?;
    if enabled {
        return Err(Error::Conflict("two-factor authentication is already on".into()));
    }
    let secret = Secret::generate_secret().to_bytes().map_err(|e| Error::Internal(format!("totp secret: {e}")))?;
    let totp = totp(secret.clone(), &email)?;
    conn.execute("UPDATE users SET totp_secret = ?1, totp_last_step = 0 WHERE id = ?2", params![secret, user])?;
    let otpauth_url = totp.get_url();
    let qr_svg = QrCode::new(otpauth_url.as_bytes())
        .map_err(|e| Error::Internal(format!("qr code: {e}")))?
        .render::<svg::Color>()
        .min_dimensions(200, 200)
        .quiet_zone(true)
        .build();
    Ok(TwoFactorSetup { secret: totp.get_secret_base32(), otpauth_url, qr_svg })
}

/// Whether the account asks for a code at login.
pub(super) fn enabled(conn: &Connection, user: UserId) -> Result<bool> {
    Ok(conn
        .query_row("SELECT totp_enabled FROM users WHERE id = ?1", [user], |r| r.get(0))
        .optional()?
        .unwrap_or(false))
}

/// Checks a 6-digit code against the account's secret (pending or enabled); a code of a step already used
/// is refused, and the accepted step is remembered.
pub(super) fn check_code(conn: &Connection, user: UserId, code: &str) -> Result<bool> {
    let code = code.trim().replace(' ', "");
    if code.len() != 6 || !code.bytes().all(|b| b.is_ascii_digit()) {
        return Ok(false);
    }
    let found: Option<(Option<Vec<u8>>, String, i64)> = conn
        .query_row("SELECT totp_secret, email, totp_last_step FROM users WHERE id = ?1", [user], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?))
        })
        .optional()?;
    let Some((Some(secret), email, last_step)) = found else {
        return Ok(false);
    };
    let totp = totp(secret, &email)?;
    let now = (now_ms() / 1000) as u64;
    let current = now / STEP;
    for step in [current.saturating_sub(1), current, current + 1] {
        if step as i64 > last_step && same(totp.generate(step * STEP).as_bytes(), code.as_bytes()) {
            conn.execute("UPDATE users SET totp_last_step = ?1 WHERE id = ?2", params![step as i64, user])?;
            return Ok(true);
        }
    }
    Ok(false)
}

/// Uses up a recovery code if it is one of the account's unused ones.
pub(super) fn use_recovery_code(conn: &Connection, user: UserId, code: &str) -> Result<bool> {
    let used = conn.execute(
        "UPDATE recovery_codes SET used_at = ?1 WHERE user_id = ?2 AND code_hash = ?3 AND used_at IS NULL",
        params![now_ms(), user, recovery_hash(code)],
    )?;
    Ok(used == 1)
}

/// Turns the pending secret on and hands out fresh recovery codes (shown once; only their hashes stay).
pub(super) fn enable(conn: &Connection, user: UserId) -> Result<Vec<String>> {
    conn.execute("UPDATE users SET totp_enabled = 1 WHERE id = ?1", [user])?;
    conn.execute("DELETE FROM recovery_codes WHERE user_id = ?1", [user])?;
    let mut codes = Vec::with_capacity(RECOVERY_CODES);
    for _ in 0..RECOVERY_CODES {
        let code = new_recovery_code();
        conn.execute(
            "INSERT INTO recovery_codes (user_id, code_hash) VALUES (?1, ?2)",
            params![user, recovery_hash(&code)],
        )?;
        codes.push(code);
    }
    Ok(codes)
}

/// Turns two-factor authentication off and forgets the secret and the recovery codes.
pub(super) fn disable(conn: &Connection, user: UserId) -> Result<()> {
    conn.execute("UPDATE users SET totp_enabled = 0, totp_secret = NULL, totp_last_step = 0 WHERE id = ?1", [user])?;
    conn.execute("DELETE FROM recovery_codes WHERE user_id = ?1", [user])?;
    Ok(())
}

/// How many unused recovery codes an account has left.
pub(super) fn recovery_codes_left(conn: &Connection, user: UserId) -> Result<i64> {
    Ok(conn.query_row("SELECT count(*) FROM recovery_codes WHERE user_id = ?1 AND used_at IS NULL", [user], |r| {
        r.get(0)
    })?)
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

    #[test]
    fn codes_compare_in_full() {
        assert!(same(b"123456", b"123456"));
        assert!(!same(b"123456", b"123457"));
        assert!(!same(b"12345", b"123456"));
    }
}
