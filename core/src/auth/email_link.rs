//! Confirming an account's address by a mailed link (issue 33, finding 4), so that nobody can make the
//! operator's server mail reports and alerts to an address that is not theirs. The link's token is 256 random
//! bits, kept only as its SHA-256 with an expiry, bound to the address it was mailed to (an email change forgets
//! it) and used once. The link carries it after `#`, which browsers never send: it reaches no server log, proxy
//! or Referer; the dashboard's /verify-email page posts it to `POST /api/user/email/verify`.

use serde::Serialize;

use super::{Auth, Principal, tokens};
use crate::email::{Delivery, Mailer, Outgoing, escape};
use crate::error::{Error, Result};
use crate::model::{Millis, User, UserId, now_ms};
use crate::store::meta::Confirmation;

/// How long a mailed link confirms its address.
pub const EMAIL_LINK_TTL_MS: Millis = 24 * 3_600_000;
/// Links mailed per account in an hour (sign-up, email changes and resends together): enough for a typo or a
/// lost mail, too few to bomb an inbox with the operator's server.
pub const EMAIL_LINKS_PER_HOUR: u32 = 5;
/// A token is 43 characters; anything much longer is not one.
const MAX_TOKEN_LEN: usize = 128;

/// The signed-in account, as `GET /api/user` answers it.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CurrentUser {
    #[serde(flatten)]
    pub user: User,
    /// Whether reports and alerts may go to the address: it was confirmed by a mailed link (or vouched for by
    /// the operator, or the account is older than confirmation).
    pub email_verified: bool,
}

impl Auth {
    /// The account behind an id with whether its address is confirmed (401 when it no longer exists).
    pub fn current_user(&self, id: UserId) -> Result<CurrentUser> {
        let user = self.user(id)?;
        Ok(CurrentUser { email_verified: self.email_verified(id)?, user })
    }

    /// Whether the account's address is confirmed.
    pub fn email_verified(&self, id: UserId) -> Result<bool> {
        self.meta.email_verified(id)?.ok_or_else(|| Error::Unauthorized("account no longer exists".into()))
    }

    /// Mails a new link to the signed-in account's unconfirmed address (the Settings screen's "resend"); the
    /// links mailed before stop working. A mail server that cannot take it now is a 503.
    pub fn resend_email_link(&self, principal: Principal) -> Result<()> {
        let Some((mailer, base)) = self.mailer()? else {
            return Err(Error::invalid("email is not configured on this server: there is no address to confirm"));
        };
        if self.email_verified(principal.user)? {
            return Err(Error::Conflict("this email address is already verified".into()));
        }
        self.take_link_allowance(principal.user)?;
        match self.mail_link(&mailer, &base, principal.user) {
            Ok(Delivery::Sent) => Ok(()),
            Ok(Delivery::Refused(_)) => Err(Error::invalid("the mail server refused this address")),
            Err(Error::Internal(e)) => {
                tracing::warn!(user = principal.user, error = %e, "verification mail not sent");
                Err(Error::Unavailable("the mail server cannot take the message now: try again later".into()))
            }
            Err(e) => Err(e),
        }
    }

    /// Confirms the address a link was mailed to; answers the account. A token unknown, used, replaced or
    /// expired is a 400 that says which.
    pub fn confirm_email(&self, token: &str) -> Result<User> {
        let token = token.trim();
        if token.is_empty() || token.len() > MAX_TOKEN_LEN || !token.bytes().all(|b| b.is_ascii_graphic()) {
            return Err(unknown_link());
        }
        match self.meta.confirm_email(&tokens::hash_token(token), now_ms())? {
            Confirmation::Confirmed(id) => self.user(id),
            Confirmation::Expired => {
                Err(Error::invalid("this verification link has expired: send a new one from Settings"))
            }
            Confirmation::Unknown => Err(unknown_link()),
        }
    }

    /// Counts the address as confirmed on the operator's word (`tracker users add`).
    pub fn vouch_for_email(&self, user: UserId) -> Result<()> {
        self.meta.vouch_for_email(user, now_ms())
    }

    /// After a sign-up or an email change: mails a link to the account's address when email is configured and
    /// the address is not confirmed. A server out of reach does not undo what was done: it is logged, and the
    /// Settings screen offers to send the link again.
    pub(crate) fn mail_link_after_change(&self, user: UserId) -> Result<()> {
        let Some((mailer, base)) = self.mailer()? else { return Ok(()) };
        if self.email_verified(user)? {
            return Ok(());
        }
        match self.mail_link(&mailer, &base, user) {
            Ok(Delivery::Sent) => {}
            // The account id only: the address is the account's, not the log's, and the link never goes there.
            Ok(Delivery::Refused(reason)) => tracing::warn!(user, reason = %reason, "verification mail refused"),
            Err(e) => tracing::warn!(user, error = %e, "verification mail not sent"),
        }
        Ok(())
    }

    /// Takes one of the account's links of this hour (429 when they are used up).
    pub(crate) fn take_link_allowance(&self, user: UserId) -> Result<()> {
        if self.limits.email_links.try_acquire(&user, EMAIL_LINKS_PER_HOUR)? { Ok(()) } else { Err(Error::RateLimited) }
    }

    /// Whether email is configured, with its mailer and the server's public address.
    pub(crate) fn mailer(&self) -> Result<Option<(Mailer, String)>> {
        let config = self.settings.get();
        Ok(Mailer::from_config(&config)?.map(|mailer| (mailer, config.base_url())))
    }

    /// Keeps a new token for the account's current address and mails the link to it.
    fn mail_link(&self, mailer: &Mailer, base: &str, user: UserId) -> Result<Delivery> {
        let email = self.user(user)?.email;
        let (token, hash) = tokens::new_secret_token();
        if !self.meta.store_email_token(user, &email, &hash, now_ms() + EMAIL_LINK_TTL_MS)? {
            // Confirmed, or the address changed, since it was read: no link for it.
            return Err(Error::Conflict("this email address is already verified".into()));
        }
        mailer.send(&link_mail(base, &email, &token))
    }
}

fn unknown_link() -> Error {
    Error::invalid(
        "this verification link is not valid: it was used already, or a newer one was sent, or the address \
         changed since",
    )
}

/// The mail with the link. It holds nothing an account chose (no name, no site): only the server's address,
/// the recipient's own and the link, so it cannot carry someone else's words to a stranger.
fn link_mail(base: &str, email: &str, token: &str) -> Outgoing {
    let link = format!("{base}/verify-email#token={token}");
    let text = format!(
        "Someone, hopefully you, asked tracker at {base} to send weekly reports and traffic alerts to {email}.\n\n\
         Open this link within 24 hours to confirm this address:\n{link}\n\n\
         If it was not you, ignore this message: no report or alert goes to this address until the link is \
         followed.\n"
    );
    let html = format!(
        "<!doctype html><html><body style=\"font-family:sans-serif;color:#111\">\
         <p>Someone, hopefully you, asked tracker at {} to send weekly reports and traffic alerts to {}.</p>\
         <p><a href=\"{}\">Confirm this address</a> (the link works for 24 hours).</p>\
         <p style=\"color:#666;font-size:12px\">If it was not you, ignore this message: no report or alert goes to \
         this address until the link is followed.</p></body></html>",
        escape(base),
        escape(email),
        escape(&link)
    );
    Outgoing { to: email.to_string(), subject: "Confirm your email address for tracker".into(), text, html }
}
