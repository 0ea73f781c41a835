//! Authentication: argon2id passwords, sign-ins as sessions of rotating refresh tokens, HS256 access tokens
//! checked against their session on every request, API keys (api_keys.rs), stream tickets, share sessions
//! (share_sessions.rs), and attempt limits.

mod api_keys;
mod argon_gate;
mod email_link;
mod limiter;
pub(crate) mod seal;
mod share_sessions;
mod tickets;
mod tokens;
mod two_factor;

use std::net::IpAddr;
use std::sync::{Arc, LazyLock};
use std::time::Duration;

use argon2::Argon2;
use argon2::password_hash::{PasswordHasher, PasswordVerifier, phc::PasswordHash};
use serde::Serialize;

use crate::cluster::pg::Pg;
use crate::config::RegistrationMode;
use crate::error::{Error, Result};
use crate::model::{User, UserId, now_ms};
use crate::settings::Settings;
use crate::store::meta::{Meta, Rotation};

pub use api_keys::{
    API_KEY_PREFIX, ApiKey, ApiKeyScope, CreatedApiKey, KeyUse, MAX_API_KEY_NAME, MAX_API_KEYS, is_api_key,
};
use argon_gate::ArgonGate;
pub use email_link::{CurrentUser, EMAIL_LINK_TTL_MS, EMAIL_LINKS_PER_HOUR};
pub use limiter::{AttemptLimiter, network_key};
use share_sessions::ShareKeys;
pub use share_sessions::{SHARE_TOKEN_TTL_SECS, ShareSession};
use tickets::StreamTickets;
pub use tickets::{STREAM_TICKET_TTL_SECS, StreamTicket};
pub use tokens::{
    ACCESS_TOKEN_TTL_SECS, AccessClaims, REFRESH_TOKEN_TTL_DAYS, TokenKeys, random_token as tokens_random,
};
pub(crate) use tokens::{hash_token, load_or_create_secret, new_secret_token};
pub use two_factor::{RECOVERY_CODES, TwoFactorSetup};

/// Minimum password length (spec part 1 §9).
pub const MIN_PASSWORD_LEN: usize = 6;
/// Longest password accepted; argon2 work is bounded by it.
pub const MAX_PASSWORD_LEN: usize = 1024;
/// How long after its rotation a refresh token may be presented again without counting as stolen (as long
/// as its successor is unused): two tabs of one browser refreshing at the same moment both present it, and
/// both get the same successor.
pub const REFRESH_REUSE_GRACE_MS: i64 = 10_000;

/// Failed password checks per account are counted over this window (per client network: one minute).
const ACCOUNT_WINDOW: Duration = Duration::from_secs(15 * 60);
/// Wrong two-factor codes accepted per account in `ACCOUNT_WINDOW`: a million codes, 5 guesses per 15 minutes.
pub const TWO_FACTOR_ATTEMPTS: u32 = 5;
/// A sign-in's last use is written at most this often (ms): enough to measure the session timeout by the minute.
const TOUCH_EVERY_MS: i64 = 60_000;

/// The answer to a successful login, registration or password change.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AuthSession {
    pub access_token: String,
    pub refresh_token: String,
    pub user: User,
}

/// The answer to a login: a sign-in, or (password right, two-factor on, no code given) a request for the code.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(untagged)]
pub enum Login {
    Session(AuthSession),
    #[serde(rename_all = "camelCase")]
    CodeRequired {
        two_factor_required: bool,
    },
}

/// A new token pair from a refresh.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RefreshedTokens {
    pub access_token: String,
    pub refresh_token: String,
}

/// Who a request is from: an account and the sign-in its token belongs to, or the API key it was signed with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Principal {
    pub user: UserId,
    pub session: i64,
    /// The account's token version the credential was issued under, and when (Unix seconds).
    pub version: i64,
    pub issued_at: i64,
    /// When the credential presented ends (Unix seconds); a live stream closes then.
    pub expires_at: i64,
    /// The API key the request was signed with (then `session` is 0), or `None` for a sign-in's token.
    pub api_key: Option<i64>,
}

/// Accounts and credentials.
#[derive(Clone)]
pub struct Auth {
    meta: Meta,
    keys: Arc<TokenKeys>,
    share_keys: Arc<ShareKeys>,
    limits: Arc<Limits>,
    tickets: Arc<StreamTickets>,
    argon: Arc<ArgonGate>,
    seal: Arc<two_factor::SecretSeal>,
    settings: Settings,
}

/// Attempt counters: failed password checks per client network and per account, sign-ups per network.
struct Limits {
    network_failures: AttemptLimiter<IpAddr>,
    account_failures: AttemptLimiter<String>,
    registrations: AttemptLimiter<IpAddr>,
    code_failures: AttemptLimiter<UserId>,
    /// Verification links mailed per account (email_link.rs).
    email_links: AttemptLimiter<UserId>,
    /// Requests per API key and hour (api_keys.rs).
    api_key_requests: AttemptLimiter<i64>,
    /// Wrong share-link passwords per client network and per link (share_sessions.rs).
    share_network_failures: AttemptLimiter<IpAddr>,
    share_link_failures: AttemptLimiter<i64>,
}

/// A hash verified when the email is unknown, so a login takes as long whether or not the account exists.
static DUMMY_HASH: LazyLock<String> = LazyLock::new(|| hash_password("not a password of anyone").unwrap_or_default());

impl Auth {
    /// Accounts on `meta`; with `shared` (cluster mode) stream tickets and attempt counts are kept in that
    /// PostgreSQL, so that every daemon sees them, else in this process's memory.
    pub(crate) fn new(meta: Meta, secret: &[u8], settings: Settings, shared: Option<Arc<Pg>>) -> Auth {
        let pg = shared.as_ref();
        let limits = Limits {
            network_failures: AttemptLimiter::in_cluster_or_memory("login_network", Duration::from_secs(60), pg),
            account_failures: AttemptLimiter::in_cluster_or_memory("login_account", ACCOUNT_WINDOW, pg),
            registrations: AttemptLimiter::in_cluster_or_memory("registrations", Duration::from_secs(3600), pg),
            code_failures: AttemptLimiter::in_cluster_or_memory("two_factor", ACCOUNT_WINDOW, pg),
            email_links: AttemptLimiter::in_cluster_or_memory("email_links", Duration::from_secs(3600), pg),
            api_key_requests: AttemptLimiter::in_cluster_or_memory("api_keys", Duration::from_secs(3600), pg),
            share_network_failures: AttemptLimiter::in_cluster_or_memory("share_network", Duration::from_secs(60), pg),
            share_link_failures: AttemptLimiter::in_cluster_or_memory("share_link", ACCOUNT_WINDOW, pg),
        };
        Auth {
            meta,
            keys: Arc::new(TokenKeys::new(secret)),
            share_keys: Arc::new(ShareKeys::new(secret)),
            limits: Arc::new(limits),
            tickets: Arc::new(StreamTickets::new(shared)),
            argon: Arc::new(ArgonGate::new()),
            seal: Arc::new(two_factor::SecretSeal::new(secret)),
            settings,
        }
    }

    /// Seals two-factor secrets that an older version stored in plain form; answers how many.
    pub(crate) fn seal_plain_secrets(&self) -> Result<usize> {
        // Looked for under a read first (inside): after the first start there are none, and every open (each
        // CLI command too) would otherwise queue behind a running daemon's writer for nothing.
        two_factor::seal_plain_secrets(self.meta.as_ref(), &self.seal)
    }

    /// The sign-up mode in force, and whether a sign-up would be accepted now.
    pub fn registration(&self) -> Result<(RegistrationMode, bool)> {
        let mode = self.settings.read(|s| s.registration);
        let open = match mode {
            RegistrationMode::Open => true,
            RegistrationMode::Closed => false,
            RegistrationMode::FirstUser => !self.any_user()?,
        };
        Ok((mode, open))
    }

    /// Creates an account through the API (subject to the registration mode and a per-network limit) and
    /// signs it in. Its address is unconfirmed: with email configured, a link to confirm it is mailed to it;
    /// without, the Settings screen offers the link once the operator configures email.
    pub fn register(&self, email: &str, password: &str, client: IpAddr) -> Result<AuthSession> {
        let mode = self.settings.read(|s| s.registration);
        if mode == RegistrationMode::Closed {
            return Err(closed());
        }
        let email = validate_email(email)?;
        validate_password(password)?;
        let per_hour = self.settings.read(|s| s.registrations_per_hour);
        if !self.limits.registrations.try_acquire(&network_key(client), per_hour)? {
            return Err(Error::RateLimited);
        }
        let only_first = mode == RegistrationMode::FirstUser;
        if only_first && self.any_user()? {
            return Err(closed());
        }
        let hash = self.argon.run(|| hash_password(password))?;
        let user = self.insert_user(&email, &hash, only_first)?;
        if self.mailer()?.is_some() {
            self.take_link_allowance(user.id)?;
        }
        self.mail_link_after_change(user.id)?;
        self.sign_in(user)
    }

    /// Creates an account without signing in (the CLI's `users add`, whatever the registration mode). The
    /// operator typed the address: it counts as confirmed.
    pub fn create_user(&self, email: &str, password: &str) -> Result<User> {
        let email = validate_email(email)?;
        validate_password(password)?;
        let hash = self.argon.run(|| hash_password(password))?;
        let user = self.insert_user(&email, &hash, false)?;
        self.vouch_for_email(user.id)?;
        Ok(user)
    }

    fn any_user(&self) -> Result<bool> {
        self.meta.any_user()
    }

    /// Inserts an account; with `only_first`, only into an empty table (the check and the insert are one
    /// statement, so two first sign-ups racing cannot both win).
    fn insert_user(&self, email: &str, hash: &str, only_first: bool) -> Result<User> {
        self.meta.insert_user(email, hash, now_ms(), only_first)?.ok_or_else(closed)
    }

    /// Checks credentials, limiting failures per client network and per account; with two-factor on, the
    /// second factor too (a TOTP code or an unused recovery code), or answers that one is needed.
    pub fn login(&self, email: &str, password: &str, code: Option<&str>, client: IpAddr) -> Result<Login> {
        let account = email.trim().to_lowercase();
        // No address holds one, and in cluster mode the attempt counters key PostgreSQL rows by it.
        crate::model::check_line("email", &account)?;
        let found = self.meta.credentials_by_email(&account)?;
        let (user, hash) = match found {
            Some((user, hash)) => (Some(user), hash),
            None => (None, DUMMY_HASH.clone()),
        };
        self.limited_check(client, &account, password, &hash)?;
        let Some(user) = user else {
            return Err(bad_credentials());
        };
        if self.meta.two_factor(user.id)?.is_some_and(|row| row.enabled) {
            match code.map(str::trim).filter(|c| !c.is_empty()) {
                None => return Ok(Login::CodeRequired { two_factor_required: true }),
                Some(code) => self.limited_code_check(user.id, code, true)?,
            }
        }
        Ok(Login::Session(self.sign_in(user)?))
    }

    /// Changes the account's email after checking the current password; answers the new address. Another
    /// address is unconfirmed until the link mailed to it is followed (with email configured, one of the
    /// account's links of the hour is taken first: none left is a 429 and no change).
    pub fn change_email(
        &self,
        principal: Principal,
        new_email: &str,
        password: &str,
        client: IpAddr,
    ) -> Result<String> {
        let email = validate_email(new_email)?;
        self.check_password(principal.user, password, client)?;
        let another = !self.user(principal.user)?.email.eq_ignore_ascii_case(&email);
        if another && self.mailer()?.is_some() {
            self.take_link_allowance(principal.user)?;
        }
        self.meta.set_email(principal.user, &email)?;
        if another {
            self.mail_link_after_change(principal.user)?;
        }
        Ok(email)
    }

    /// Runs one password check through the attempt limits: refused outright once the client network or the
    /// account is over its limit, counted as a failure unless the password is right.
    fn limited_check(&self, client: IpAddr, account: &str, password: &str, hash: &str) -> Result<()> {
        let limit = self.settings.read(|s| s.login_attempts_per_minute);
        let network = network_key(client);
        let account = account.to_string();
        if !self.limits.network_failures.try_acquire(&network, limit)? {
            return Err(Error::RateLimited);
        }
        if !self.limits.account_failures.try_acquire(&account, limit)? {
            self.limits.network_failures.refund(&network);
            return Err(Error::RateLimited);
        }
        if self.argon.run(|| Ok(verify_password(password, hash)))? {
            self.limits.network_failures.refund(&network);
            self.limits.account_failures.refund(&account);
            Ok(())
        } else {
            Err(bad_credentials())
        }
    }

    /// Exchanges a refresh token for a new pair; the presented token is used up. Presented again within a short
    /// grace while its successor is unused (two tabs, or a reload, refreshing at once), it answers that same
    /// successor, so one sign-in keeps one line of tokens; presented again later, or once the successor was
    /// used, it revokes its whole sign-in: someone holds a copy.
    pub fn refresh(&self, refresh_token: &str) -> Result<RefreshedTokens> {
        let hash = tokens::hash_token(refresh_token);
        let now = now_ms();
        let rejected = || Error::Unauthorized("invalid or expired refresh token".into());
        let (refresh_token, new_hash) = self.keys.successor(refresh_token);
        let expires_at = now + REFRESH_TOKEN_TTL_DAYS * 86_400_000;
        match self.meta.rotate_refresh_token(&hash, &new_hash, now, expires_at)? {
            Rotation::Rotated { user, session, version } => {
                Ok(RefreshedTokens { access_token: self.keys.access_token(user, session, version)?, refresh_token })
            }
            Rotation::Rejected => Err(rejected()),
            Rotation::Revoked { user, session } => {
                tracing::warn!(user, session, "a rotated refresh token was presented again; sign-in revoked");
                Err(rejected())
            }
        }
    }

    /// Ends the sign-in a refresh token belongs to (whatever state the token is in).
    pub fn logout(&self, refresh_token: &str) -> Result<()> {
        let hash = tokens::hash_token(refresh_token);
        if !self.meta.revoke_by_token(&hash, now_ms())? {
            return Err(Error::Unauthorized("invalid refresh token".into()));
        }
        Ok(())
    }

    /// Ends one sign-in of a user (logout with the access token only).
    pub fn end_session(&self, principal: Principal) -> Result<()> {
        self.meta.end_session(principal.user, principal.session, now_ms())
    }

    /// Verifies an access token and that its sign-in still stands: the account exists, the token is not
    /// older than the account, its session is not revoked and the account's token version has not moved.
    pub fn authenticate(&self, access_token: &str) -> Result<Principal> {
        let claims = self.keys.verify(access_token)?;
        let principal = Principal {
            user: claims.sub,
            session: claims.sid,
            version: claims.ver,
            issued_at: claims.iat,
            expires_at: claims.exp,
            api_key: None,
        };
        self.check_session(principal)?;
        Ok(principal)
    }

    /// Whether a credential still stands: not expired, and its sign-in as [`Self::authenticate`] checks it
    /// (a live stream re-checks with this).
    pub fn still_valid(&self, principal: Principal) -> Result<()> {
        if chrono::Utc::now().timestamp() >= principal.expires_at {
            return Err(Error::InvalidToken("token expired".into()));
        }
        match principal.api_key {
            Some(key) => self.key_still_stands(principal.user, key),
            None => self.check_session(principal),
        }
    }

    /// The account exists, the credential is not older than it, its session is not revoked and the token
    /// version has not moved.
    fn check_session(&self, principal: Principal) -> Result<()> {
        let found = self.meta.session_state(principal.user, principal.session)?;
        let now = now_ms();
        match found {
            // iat has whole seconds: a token issued in the second the account was made is still after it.
            Some(state)
                if state.revoked_at.is_none()
                    && state.version == principal.version
                    && (principal.issued_at + 1) * 1000 >= state.user_created_at =>
            {
                // The session timeout counts from the last request of the sign-in, not only its last refresh.
                if now - state.last_used_at >= crate::account::session_timeout_ms(state.session_timeout) {
                    return Err(Error::InvalidToken("session timed out, please sign in again".into()));
                }
                if now - state.last_used_at >= TOUCH_EVERY_MS {
                    self.meta.touch_session(principal.session, now)?;
                }
                Ok(())
            }
            _ => Err(Error::InvalidToken(SESSION_ENDED.into())),
        }
    }

    /// A single-use ticket that opens the live stream for `STREAM_TICKET_TTL_SECS`, so the access token
    /// never goes into a URL.
    pub fn stream_ticket(&self, principal: Principal) -> Result<StreamTicket> {
        api_keys::refuse_keys(principal)?;
        self.tickets.issue(principal)
    }

    /// Redeems a stream ticket (once) for the sign-in it was issued to, checking the sign-in still stands.
    pub fn redeem_stream_ticket(&self, ticket: &str) -> Result<Principal> {
        let principal = self
            .tickets
            .redeem(ticket)?
            .ok_or_else(|| Error::Unauthorized("invalid or expired stream ticket".into()))?;
        self.still_valid(principal)?;
        Ok(principal)
    }

    /// The account behind an id (401 when it no longer exists: its token outlived it).
    pub fn user(&self, id: UserId) -> Result<User> {
        self.meta.user(id)?.ok_or_else(|| Error::Unauthorized("account no longer exists".into()))
    }

    /// Every account, oldest first.
    pub fn list_users(&self) -> Result<Vec<User>> {
        self.meta.list_users()
    }

    /// Finds an account by email (case-insensitive).
    pub fn find_user(&self, email: &str) -> Result<User> {
        self.meta.user_by_email(email.trim())?.ok_or(Error::NotFound("user"))
    }

    /// Sets a new password after checking the current one: every sign-in and every access token issued so
    /// far ends, and the caller gets a new sign-in.
    pub fn change_password(
        &self,
        principal: Principal,
        current: &str,
        new: &str,
        client: IpAddr,
    ) -> Result<AuthSession> {
        validate_password(new)?;
        self.check_password(principal.user, current, client)?;
        self.set_password(principal.user, new)?;
        let user = self.user(principal.user)?;
        self.sign_in(user)
    }

    /// Sets an account's password without the current one (the operator's `tracker users passwd`): every
    /// sign-in and every access token issued so far ends.
    pub fn set_password(&self, user: UserId, new: &str) -> Result<()> {
        validate_password(new)?;
        let hash = self.argon.run(|| hash_password(new))?;
        if !self.meta.replace_password(user, &hash, now_ms())? {
            return Err(Error::NotFound("user"));
        }
        Ok(())
    }

    /// Deletes an account's metadata with all its websites' (SQLite's foreign keys take their events too; in
    /// cluster mode `Tracker::remove_user` deletes the events first).
    pub fn remove_user(&self, user: UserId) -> Result<()> {
        self.meta.delete_user(user)
    }

    /// Fails with 401 unless `password` is the user's current password; counted like a login.
    pub fn check_password(&self, user: UserId, password: &str, client: IpAddr) -> Result<()> {
        let (email, hash) = self.meta.credentials(user)?.ok_or_else(revoked)?;
        self.limited_check(client, &email.to_lowercase(), password, &hash).map_err(|e| match e {
            Error::Unauthorized(_) => Error::Unauthorized("current password is incorrect".into()),
            other => other,
        })
    }

    /// Starts a sign-in: a session, its first refresh token and an access token.
    fn sign_in(&self, user: User) -> Result<AuthSession> {
        let now = now_ms();
        let (refresh_token, hash) = tokens::new_secret_token();
        let (session, version) = self
            .meta
            .start_session(user.id, now, now + REFRESH_TOKEN_TTL_DAYS * 86_400_000, &hash)?
            .ok_or_else(|| Error::Unauthorized("account no longer exists".into()))?;
        let access_token = self.keys.access_token(user.id, session, version)?;
        Ok(AuthSession { access_token, refresh_token, user })
    }
}

fn bad_credentials() -> Error {
    Error::Unauthorized("invalid email or password".into())
}

const SESSION_ENDED: &str = "session ended, please sign in again";

fn revoked() -> Error {
    Error::Unauthorized(SESSION_ENDED.into())
}

fn closed() -> Error {
    Error::Forbidden("sign-up is closed on this server: ask its operator to create your account".into())
}

/// Normalises and checks an email address: one `@` between a local part (at most 64 characters, dots not at
/// its ends nor doubled) and a domain of two or more labels (letters, digits and inner hyphens), no spaces,
/// quotes or control characters, at most 254 characters. Quoted local parts, legal but never a real
/// person's address, are refused with the rest: a report must not go to `x@@example.com`.
pub fn validate_email(email: &str) -> Result<String> {
    let email = email.trim();
    let bad = || Error::invalid("please enter a valid email address");
    if email.len() > 254 || email.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err(bad());
    }
    let (local, domain) = email.split_once('@').ok_or_else(bad)?;
    let local_ok = !local.is_empty()
        && local.chars().count() <= 64
        && !local.starts_with('.')
        && !local.ends_with('.')
        && !local.contains("..")
        && !local.chars().any(|c| matches!(c, '"' | '(' | ')' | ',' | ':' | ';' | '<' | '>' | '[' | ']' | '\\'));
    let labels: Vec<&str> = domain.split('.').collect();
    let domain_ok = labels.len() >= 2
        && labels.iter().all(|label| {
            !label.is_empty()
                && label.chars().count() <= 63
                && !label.starts_with('-')
                && !label.ends_with('-')
                && label.chars().all(|c| c.is_alphanumeric() || c == '-')
        });
    if !local_ok || !domain_ok {
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
    crate::model::check_line("password", password)
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
        assert_eq!(
            validate_email("first.last+tag@mail.example-1.co.uk").unwrap(),
            "first.last+tag@mail.example-1.co.uk"
        );
        assert!(validate_email("ünï@exämple.de").is_ok(), "international addresses");
        for bad in [
            "",
            "a",
            "a@",
            "@b.co",
            "a@b",
            "a b@c.de",
            "a@.co",
            "a@b.co.",
            "x@@example.com",
            "x@y@example.com",
            ".x@example.com",
            "x.@example.com",
            "x..y@example.com",
            "\"x\"@example.com",
            "x@-example.com",
            "x@example-.com",
            "x@exa_mple.com",
            "x@example..com",
            "<x>@example.com",
            "x@[127.0.0.1]",
        ] {
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
