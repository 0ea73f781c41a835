//! Authentication: argon2id passwords, HS256 access tokens, hashed refresh tokens, login rate limiting.

mod limiter;
mod tokens;

use std::net::IpAddr;
use std::path::Path;
use std::sync::Arc;

use argon2::Argon2;
use argon2::password_hash::{PasswordHasher, PasswordVerifier, phc::PasswordHash};
use rusqlite::{OptionalExtension, params};
use serde::Serialize;

use crate::db::Db;
use crate::error::{Error, Result};
use crate::model::{User, UserId, now_ms};
use crate::settings::Settings;

pub use limiter::LoginLimiter;
pub use tokens::{ACCESS_TOKEN_TTL_SECS, REFRESH_TOKEN_TTL_DAYS, TokenKeys, random_token as tokens_random};

/// Minimum password length (spec part 1 §9).
pub const MIN_PASSWORD_LEN: usize = 6;
/// Longest password accepted; argon2 work is bounded by it.
pub const MAX_PASSWORD_LEN: usize = 1024;

/// The answer to a successful login or registration.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AuthSession {
    pub access_token: String,
    pub refresh_token: String,
    pub user: User,
}

/// Accounts and credentials.
#[derive(Clone)]
pub struct Auth {
    db: Db,
    keys: Arc<TokenKeys>,
    limiter: Arc<LoginLimiter>,
    settings: Settings,
}

impl Auth {
    pub(crate) fn new(db: Db, secret: &[u8], settings: Settings) -> Auth {
        Auth { db, keys: Arc::new(TokenKeys::new(secret)), limiter: Arc::new(LoginLimiter::default()), settings }
    }

    /// Creates an account and signs it in.
    pub fn register(&self, email: &str, password: &str) -> Result<AuthSession> {
        let user = self.create_user(email, password)?;
        self.issue(user)
    }

    /// Creates an account without signing in (the CLI's `users add`).
    pub fn create_user(&self, email: &str, password: &str) -> Result<User> {
        let email = validate_email(email)?;
        validate_password(password)?;
        let hash = hash_password(password)?;
        let created_at = now_ms();
        self.db.write(|conn| {
            let inserted = conn.execute(
                "INSERT INTO users (email, password_hash, created_at) VALUES (?1, ?2, ?3)
                 ON CONFLICT (email) DO NOTHING",
                params![email, hash, created_at],
            )?;
            if inserted == 0 {
                return Err(Error::Conflict("an account with this email already exists".into()));
            }
            Ok(User { id: conn.last_insert_rowid(), email: email.clone(), created_at })
        })
    }

    /// Checks credentials, limiting failures per client address.
    pub fn login(&self, email: &str, password: &str, client: IpAddr) -> Result<AuthSession> {
        let limit = self.settings.read(|settings| settings.login_attempts_per_minute);
        if self.limiter.is_blocked(client, limit) {
            return Err(Error::RateLimited);
        }
        let found = self.db.read(|conn| {
            Ok(conn
                .query_row(
                    "SELECT id, email, created_at, password_hash FROM users WHERE email = ?1",
                    [email.trim()],
                    |r| Ok((User { id: r.get(0)?, email: r.get(1)?, created_at: r.get(2)? }, r.get::<_, String>(3)?)),
                )
                .optional()?)
        })?;
        match found {
            Some((user, hash)) if verify_password(password, &hash) => self.issue(user),
            _ => {
                self.limiter.record_failure(client);
                Err(Error::Unauthorized("invalid email or password".into()))
            }
        }
    }

    /// Exchanges a refresh token for a new access token; the refresh token itself stays.
    pub fn refresh(&self, refresh_token: &str) -> Result<String> {
        let hash = tokens::hash_refresh_token(refresh_token);
        let user_id: Option<UserId> = self.db.read(|conn| {
            Ok(conn
                .query_row(
                    "SELECT user_id FROM refresh_tokens WHERE token_hash = ?1 AND expires_at > ?2",
                    params![hash, now_ms()],
                    |r| r.get(0),
                )
                .optional()?)
        })?;
        let user_id = user_id.ok_or_else(|| Error::Unauthorized("invalid or expired refresh token".into()))?;
        self.keys.access_token(user_id)
    }

    /// Verifies an access token and returns its user (401 for anything wrong with it).
    pub fn authenticate(&self, access_token: &str) -> Result<UserId> {
        self.keys.verify(access_token)
    }

    /// The account behind an id (401 when it no longer exists: its token outlived it).
    pub fn user(&self, id: UserId) -> Result<User> {
        self.db
            .read(|conn| {
                Ok(conn
                    .query_row("SELECT id, email, created_at FROM users WHERE id = ?1", [id], |r| {
                        Ok(User { id: r.get(0)?, email: r.get(1)?, created_at: r.get(2)? })
                    })
                    .optional()?)
            })?
            .ok_or_else(|| Error::Unauthorized("account no longer exists".into()))
    }

    /// Every account, oldest first.
    pub fn list_users(&self) -> Result<Vec<User>> {
        self.db.read(|conn| {
            let mut stmt = conn.prepare("SELECT id, email, created_at FROM users ORDER BY id")?;
            let rows = stmt.query_map([], |r| Ok(User { id: r.get(0)?, email: r.get(1)?, created_at: r.get(2)? }))?;
            Ok(rows.collect::<rusqlite::Result<_>>()?)
        })
    }

    /// Finds an account by email (case-insensitive).
    pub fn find_user(&self, email: &str) -> Result<User> {
        self.db
            .read(|conn| {
                Ok(conn
                    .query_row("SELECT id, email, created_at FROM users WHERE email = ?1", [email.trim()], |r| {
                        Ok(User { id: r.get(0)?, email: r.get(1)?, created_at: r.get(2)? })
                    })
                    .optional()?)
            })?
            .ok_or(Error::NotFound("user"))
    }

    /// Sets a new password after checking the current one, and revokes every refresh token.
    pub fn change_password(&self, user: UserId, current: &str, new: &str) -> Result<()> {
        self.check_password(user, current)?;
        validate_password(new)?;
        let hash = hash_password(new)?;
        self.db.write(|conn| {
            let tx = conn.transaction()?;
            tx.execute("UPDATE users SET password_hash = ?1 WHERE id = ?2", params![hash, user])?;
            tx.execute("DELETE FROM refresh_tokens WHERE user_id = ?1", [user])?;
            tx.commit()?;
            Ok(())
        })
    }

    /// Deletes an account with all its websites and their data, after checking its password.
    pub fn delete_account(&self, user: UserId, password: &str) -> Result<()> {
        self.check_password(user, password)?;
        self.db.write(|conn| {
            conn.execute("DELETE FROM users WHERE id = ?1", [user])?;
            Ok(())
        })
    }

    /// Fails with 401 unless `password` is the user's current password.
    pub fn check_password(&self, user: UserId, password: &str) -> Result<()> {
        let hash: Option<String> = self.db.read(|conn| {
            Ok(conn.query_row("SELECT password_hash FROM users WHERE id = ?1", [user], |r| r.get(0)).optional()?)
        })?;
        match hash {
            Some(hash) if verify_password(password, &hash) => Ok(()),
            _ => Err(Error::Unauthorized("current password is incorrect".into())),
        }
    }

    fn issue(&self, user: User) -> Result<AuthSession> {
        let access_token = self.keys.access_token(user.id)?;
        let (refresh_token, hash) = tokens::new_refresh_token();
        let now = now_ms();
        let expires_at = now + REFRESH_TOKEN_TTL_DAYS * 86_400_000;
        self.db.write(|conn| {
            conn.execute(
                "INSERT INTO refresh_tokens (token_hash, user_id, created_at, expires_at) VALUES (?1, ?2, ?3, ?4)",
                params![hash, user.id, now, expires_at],
            )?;
            conn.execute("DELETE FROM refresh_tokens WHERE expires_at <= ?1", [now])?;
            Ok(())
        })?;
        Ok(AuthSession { access_token, refresh_token, user })
    }
}

/// Loads the signing secret from the config, or from `secret.key` in the data folder (creating it, mode 0600).
pub(crate) fn load_or_create_secret(configured: Option<&str>, data_dir: &Path) -> Result<Vec<u8>> {
    if let Some(secret) = configured {
        if secret.len() < 32 {
            return Err(Error::invalid("jwt_secret must be at least 32 characters"));
        }
        return Ok(secret.as_bytes().to_vec());
    }
    let path = data_dir.join("secret.key");
    match std::fs::read(&path) {
        Ok(bytes) if bytes.len() >= 32 => return Ok(bytes),
        Ok(_) => {
            return Err(Error::invalid(format!("{} is too short to be a signing secret", path.display())));
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(e.into()),
    }
    let secret = tokens::random_token(48).into_bytes();
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    match options.open(&path) {
        Ok(mut file) => {
            std::io::Write::write_all(&mut file, &secret)?;
            Ok(secret)
        }
        // Another process (daemon and CLI starting together) created it first: use theirs.
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(std::fs::read(&path)?),
        Err(e) => Err(e.into()),
    }
}

/// Normalises and checks an email address: something@domain.tld, no spaces, at most 254 characters.
pub fn validate_email(email: &str) -> Result<String> {
    let email = email.trim();
    let bad = || Error::invalid("please enter a valid email address");
    if email.len() > 254 || email.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err(bad());
    }
    let (local, domain) = email.rsplit_once('@').ok_or_else(bad)?;
    let domain_ok = domain.contains('.')
        && !domain.starts_with('.')
        && !domain.ends_with('.')
        && !domain.contains("..")
        && !domain.contains('@');
    if local.is_empty() || !domain_ok {
        return Err(bad());
    }
    Ok(email.to_string())
}

/// Checks the password length rules.
pub fn validate_password(password: &str) -> Result<()> {
    if password.chars().count() < MIN_PASSWORD_LEN {
        return Err(Error::invalid("password must be at least 6 characters"));
    }
    if password.len() > MAX_PASSWORD_LEN {
        return Err(Error::invalid("password must be at most 1024 characters"));
    }
    Ok(())
}

fn hash_password(password: &str) -> Result<String> {
    Argon2::default()
        .hash_password(password.as_bytes())
        .map(|hash| hash.to_string())
        .map_err(|e| Error::Internal(format!("password hashing failed: {e}")))
}

fn verify_password(password: &str, hash: &str) -> bool {
    PasswordHash::new(hash).is_ok_and(|parsed| Argon2::default().verify_password(password.as_bytes(), &parsed).is_ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn emails_are_checked() {
        assert_eq!(validate_email(" a@b.co ").unwrap(), "a@b.co");
        for bad in ["", "a", "a@", "@b.co", "a@b", "a b@c.de", "a@.co", "a@b.co."] {
            assert!(validate_email(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn passwords_hash_and_verify() {
        let hash = hash_password("secret1").unwrap();
        assert!(hash.starts_with("$argon2id$"));
        assert!(verify_password("secret1", &hash));
        assert!(!verify_password("secret2", &hash));
        assert!(validate_password("12345").is_err());
        assert!(validate_password("123456").is_ok());
    }
}
