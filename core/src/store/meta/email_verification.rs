//! Whether an account's address is confirmed, behind the metadata boundary (issue 33, finding 4): the hash of the
//! one link token an account has out, bound to the address it was mailed to, and when the address was
//! confirmed. `Auth` issues and redeems the tokens; the email run reads the confirmation in its recipients' SQL
//! (emails.rs), and an email change clears it (users.rs, `set_email`).

use rusqlite::{OptionalExtension, params};

use super::{PgMeta, SqliteMeta};
use crate::error::Result;
use crate::model::{Millis, UserId};

/// `UserStore::set_email`'s statement (users.rs): another address loses the old one's confirmation and link
/// token, so the link mailed to the old address cannot confirm the new one, nor reports go to it unconfirmed;
/// the same address in another case keeps them.
pub(super) const SQLITE_SET_EMAIL: &str = "UPDATE users SET email = ?1,
     email_verified_at = CASE WHEN lower(email) = lower(?1) THEN email_verified_at END,
     email_token_hash = CASE WHEN lower(email) = lower(?1) THEN email_token_hash END,
     email_token_expires_at = CASE WHEN lower(email) = lower(?1) THEN email_token_expires_at END
     WHERE id = ?2";

/// PostgreSQL's form of [`SQLITE_SET_EMAIL`].
pub(super) const PG_SET_EMAIL: &str = "UPDATE users SET email = $1,
     email_verified_at = CASE WHEN lower(email) = lower($1) THEN email_verified_at END,
     email_token_hash = CASE WHEN lower(email) = lower($1) THEN email_token_hash END,
     email_token_expires_at = CASE WHEN lower(email) = lower($1) THEN email_token_expires_at END
     WHERE id = $2";

/// What presenting a link token did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Confirmation {
    /// The account's address is confirmed now; the token is used up.
    Confirmed(UserId),
    /// The token was issued but its time is over (it stays unusable; a new one replaces it).
    Expired,
    /// No account has this token out: never issued, used already, or replaced by a later one or an email change.
    Unknown,
}

/// Address confirmation; each method one statement or one transaction.
pub trait EmailVerificationStore {
    /// Whether the account's address is confirmed; `None` when there is no such account.
    fn email_verified(&self, id: UserId) -> Result<Option<bool>>;
    /// Keeps `hash` as the account's one link token until `expires_at`, replacing any earlier one, if the
    /// account's address is still `email` and not confirmed; false otherwise (nothing is stored, so a token
    /// for an address the account no longer has is never kept).
    fn store_email_token(&self, id: UserId, email: &str, hash: &[u8], expires_at: Millis) -> Result<bool>;
    /// Redeems a link token by its hash: confirms the address and forgets the token while it is unexpired.
    fn confirm_email(&self, hash: &[u8], now: Millis) -> Result<Confirmation>;
    /// Confirms the address without a link (the operator's word: an account made by `tracker users add`).
    fn vouch_for_email(&self, id: UserId, now: Millis) -> Result<()>;
}

impl EmailVerificationStore for SqliteMeta {
    fn email_verified(&self, id: UserId) -> Result<Option<bool>> {
        self.db.read(|conn| {
            Ok(conn
                .query_row("SELECT email_verified_at IS NOT NULL FROM users WHERE id = ?1", [id], |r| r.get(0))
                .optional()?)
        })
    }

    fn store_email_token(&self, id: UserId, email: &str, hash: &[u8], expires_at: Millis) -> Result<bool> {
        self.db.write(|conn| {
            Ok(conn.execute(
                "UPDATE users SET email_token_hash = ?1, email_token_expires_at = ?2
                 WHERE id = ?3 AND email = ?4 AND email_verified_at IS NULL",
                params![hash, expires_at, id, email],
            )? == 1)
        })
    }

    fn confirm_email(&self, hash: &[u8], now: Millis) -> Result<Confirmation> {
        self.db.write(|conn| {
            let tx = conn.transaction()?;
            let found: Option<(UserId, Millis)> = tx
                .query_row("SELECT id, email_token_expires_at FROM users WHERE email_token_hash = ?1", [hash], |r| {
                    Ok((r.get(0)?, r.get(1)?))
                })
                .optional()?;
            let confirmation = match found {
                None => Confirmation::Unknown,
                Some((_, expires_at)) if expires_at <= now => Confirmation::Expired,
                Some((id, _)) => {
                    tx.execute(
                        "UPDATE users SET email_verified_at = ?1, email_token_hash = NULL, email_token_expires_at = NULL
                         WHERE id = ?2",
                        params![now, id],
                    )?;
                    Confirmation::Confirmed(id)
                }
            };
            tx.commit()?;
            Ok(confirmation)
        })
    }

    fn vouch_for_email(&self, id: UserId, now: Millis) -> Result<()> {
        self.db.write(|conn| {
            conn.execute(
                "UPDATE users SET email_verified_at = coalesce(email_verified_at, ?1), email_token_hash = NULL,
                 email_token_expires_at = NULL WHERE id = ?2",
                params![now, id],
            )?;
            Ok(())
        })
    }
}

impl EmailVerificationStore for PgMeta {
    fn email_verified(&self, id: UserId) -> Result<Option<bool>> {
        self.pg.with(|c| {
            Ok(c.query_opt("SELECT email_verified_at IS NOT NULL FROM users WHERE id = $1", &[&id])?.map(|r| r.get(0)))
        })
    }

    fn store_email_token(&self, id: UserId, email: &str, hash: &[u8], expires_at: Millis) -> Result<bool> {
        self.pg.with(|c| {
            Ok(c.execute(
                "UPDATE users SET email_token_hash = $1, email_token_expires_at = $2
                 WHERE id = $3 AND email = $4 AND email_verified_at IS NULL",
                &[&hash, &expires_at, &id, &email],
            )? == 1)
        })
    }

    fn confirm_email(&self, hash: &[u8], now: Millis) -> Result<Confirmation> {
        self.pg.with(|c| {
            // One statement: two daemons redeeming the same token at once cannot both confirm with it (the
            // second's update finds the hash gone and reads as unknown).
            let row = c.query_opt(
                "WITH found AS (SELECT id, email_token_expires_at > $2 AS live FROM users WHERE email_token_hash = $1),
                 confirmed AS (
                    UPDATE users SET email_verified_at = $2, email_token_hash = NULL, email_token_expires_at = NULL
                    WHERE id IN (SELECT id FROM found WHERE live) AND email_token_hash = $1 RETURNING id)
                 SELECT (SELECT id FROM confirmed), (SELECT live FROM found)",
                &[&hash, &now],
            )?;
            let (confirmed, live): (Option<UserId>, Option<bool>) = row.map_or((None, None), |r| (r.get(0), r.get(1)));
            Ok(match (confirmed, live) {
                (Some(id), _) => Confirmation::Confirmed(id),
                (None, Some(false)) => Confirmation::Expired,
                _ => Confirmation::Unknown,
            })
        })
    }

    fn vouch_for_email(&self, id: UserId, now: Millis) -> Result<()> {
        self.pg.with(|c| {
            c.execute(
                "UPDATE users SET email_verified_at = coalesce(email_verified_at, $1), email_token_hash = NULL,
                 email_token_expires_at = NULL WHERE id = $2",
                &[&now, &id],
            )?;
            Ok(())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::engines;
    use super::*;

    const DAY: Millis = 86_400_000;

    #[test]
    fn a_token_confirms_only_the_address_it_was_stored_for_once_before_it_expires() {
        for engine in engines() {
            let (meta, name) = (&engine.meta, engine.name);
            let user = meta.insert_user("ann@example.com", "hash", 1, false).unwrap().unwrap().id;
            assert_eq!(meta.email_verified(user).unwrap(), Some(false), "{name}: a new account is unconfirmed");
            assert_eq!(meta.email_verified(user + 1000).unwrap(), None, "{name}");
            assert!(!meta.store_email_token(user, "bob@example.com", b"h0", DAY).unwrap(), "{name}: not its address");
            assert!(meta.store_email_token(user, "ann@example.com", b"h1", DAY).unwrap(), "{name}");
            // A later token replaces the first.
            assert!(meta.store_email_token(user, "ann@example.com", b"h2", 2 * DAY).unwrap(), "{name}");
            assert_eq!(meta.confirm_email(b"h1", 10).unwrap(), Confirmation::Unknown, "{name}");
            assert_eq!(meta.confirm_email(b"h2", 2 * DAY).unwrap(), Confirmation::Expired, "{name}");
            assert_eq!(meta.email_verified(user).unwrap(), Some(false), "{name}");
            assert!(meta.store_email_token(user, "ann@example.com", b"h3", 2 * DAY).unwrap(), "{name}");
            assert_eq!(meta.confirm_email(b"h3", 10).unwrap(), Confirmation::Confirmed(user), "{name}");
            assert_eq!(meta.confirm_email(b"h3", 11).unwrap(), Confirmation::Unknown, "{name}: used once");
            assert_eq!(meta.email_verified(user).unwrap(), Some(true), "{name}");
            assert!(!meta.store_email_token(user, "ann@example.com", b"h4", DAY).unwrap(), "{name}: confirmed");

            // A token out when the address changes is forgotten with the confirmation; the same address in
            // another case keeps it.
            meta.set_email(user, "ANN@example.com").unwrap();
            assert_eq!(meta.email_verified(user).unwrap(), Some(true), "{name}");
            meta.set_email(user, "new@example.com").unwrap();
            assert_eq!(meta.email_verified(user).unwrap(), Some(false), "{name}: a new address is unconfirmed");
            assert!(meta.store_email_token(user, "new@example.com", b"h5", DAY).unwrap(), "{name}");
            meta.set_email(user, "newer@example.com").unwrap();
            assert_eq!(meta.confirm_email(b"h5", 10).unwrap(), Confirmation::Unknown, "{name}: an old address's token");
            assert_eq!(meta.email_verified(user).unwrap(), Some(false), "{name}");
            meta.vouch_for_email(user, 20).unwrap();
            assert_eq!(meta.email_verified(user).unwrap(), Some(true), "{name}");
        }
    }
}
