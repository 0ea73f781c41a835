//! A site's members and invitations behind the metadata boundary (issue 37): who besides its owner may reach a
//! site and with which role, and the invitations out. `Members` (store/members.rs) decides who may do what and
//! calls these; `site_role` is the one read every site-scoped call makes, so a role removed or lowered counts
//! on the member's next request, on every daemon.

use rusqlite::{OptionalExtension, params};

use super::websites::{pg_row, sqlite_row};
use super::{PgMeta, SqliteMeta};
use crate::error::Result;
use crate::model::{Millis, Role, UserId, Website, WebsiteId};

/// A site's columns as [`sqlite_row`] / [`pg_row`] read them, from `websites w`.
/// The columns of `websites` as `websites.rs` reads them (its `sqlite_row` and `pg_row`), then the role at 9.
const SITE: &str = "w.id, w.user_id, w.name, w.domain, w.tracking_key, w.tracking_level, w.created_at, w.domain_only, w.umami_website_id, w.timezone";

/// A member of a site (its owner is not one: the site names it).
#[derive(Debug, Clone, PartialEq)]
pub struct MemberRow {
    pub user_id: UserId,
    pub email: String,
    pub role: Role,
    pub since: Millis,
}

/// An invitation not yet accepted, with the site it is to.
#[derive(Debug, Clone, PartialEq)]
pub struct InvitationRow {
    pub id: i64,
    pub website_id: WebsiteId,
    pub site_name: String,
    pub site_domain: String,
    pub email: String,
    pub role: Role,
    pub created_at: Millis,
    pub expires_at: Millis,
    /// The SHA-256 of its token.
    pub token_hash: Vec<u8>,
}

/// An invitation to store.
pub struct NewInvitation<'a> {
    pub website_id: WebsiteId,
    pub email: &'a str,
    pub role: Role,
    pub token_hash: &'a [u8],
    pub invited_by: UserId,
    pub created_at: Millis,
    pub expires_at: Millis,
}

/// Members and invitations: each method one statement or one transaction.
pub trait MemberStore {
    /// The site `id` with `user`'s role on it: `owner` for its creator, a member's role, `None` for anyone else
    /// (and for a missing site).
    fn site_role(&self, user: UserId, id: WebsiteId) -> Result<Option<(Website, Role)>>;
    /// The sites `user` is a member of (not those it owns), oldest first, with its role on each.
    fn shared_websites(&self, user: UserId) -> Result<Vec<(Website, Role)>>;
    /// A site's members, oldest first.
    fn members(&self, site: WebsiteId) -> Result<Vec<MemberRow>>;
    /// Stores an invitation; answers its id.
    fn insert_invitation(&self, new: NewInvitation) -> Result<i64>;
    /// A site's invitations still open at `now`, oldest first.
    fn site_invitations(&self, site: WebsiteId, now: Millis) -> Result<Vec<InvitationRow>>;
    /// The invitations to `email` (any case) still open at `now`, oldest first.
    fn invitations_for(&self, email: &str, now: Millis) -> Result<Vec<InvitationRow>>;
    /// The invitation `id` to `email` (any case) if still open at `now`.
    fn open_invitation(&self, id: i64, email: &str, now: Millis) -> Result<Option<InvitationRow>>;
    /// Uses up the invitation `id` to `email` still open at `now` and makes `user` a member with its role (a
    /// member already keeps the higher of the two; the site's owner stays its owner); answers the site and
    /// role, `None` when there is no such open invitation.
    fn accept_invitation(&self, id: i64, email: &str, user: UserId, now: Millis) -> Result<Option<(WebsiteId, Role)>>;
    /// Sets a member's role; false if `user` is not a member of the site.
    fn set_member_role(&self, site: WebsiteId, user: UserId, role: Role) -> Result<bool>;
    /// Removes a member; false if `user` is not a member of the site.
    fn delete_member(&self, site: WebsiteId, user: UserId) -> Result<bool>;
    /// Withdraws an invitation of a site; false if the site has no such invitation.
    fn delete_invitation(&self, site: WebsiteId, id: i64) -> Result<bool>;
    /// Makes the admin member `to` the owner of the site `from` owns, and `from` an admin member, in one
    /// transaction; false (nothing changed) unless `from` owns the site and `to` is an admin member of it.
    fn hand_over(&self, site: WebsiteId, from: UserId, to: UserId, now: Millis) -> Result<bool>;
}

fn role_of(stored: &str) -> Role {
    // The column's CHECK admits only member roles; anything else would be read as the least.
    Role::parse(stored).unwrap_or(Role::Viewer)
}

/// An invitation's columns as the row readers take them, from `site_invitations i JOIN websites w`.
const INVITATION: &str =
    "i.id, i.website_id, w.name, w.domain, i.email, i.role, i.created_at, i.expires_at, i.token_hash";

fn sqlite_invitation(r: &rusqlite::Row) -> rusqlite::Result<InvitationRow> {
    let role: String = r.get(5)?;
    Ok(InvitationRow {
        id: r.get(0)?,
        website_id: r.get(1)?,
        site_name: r.get(2)?,
        site_domain: r.get(3)?,
        email: r.get(4)?,
        role: role_of(&role),
        created_at: r.get(6)?,
        expires_at: r.get(7)?,
        token_hash: r.get(8)?,
    })
}

fn pg_invitation(r: &postgres::Row) -> InvitationRow {
    let role: String = r.get(5);
    InvitationRow {
        id: r.get(0),
        website_id: r.get(1),
        site_name: r.get(2),
        site_domain: r.get(3),
        email: r.get(4),
        role: role_of(&role),
        created_at: r.get(6),
        expires_at: r.get(7),
        token_hash: r.get(8),
    }
}

impl MemberStore for SqliteMeta {
    fn site_role(&self, user: UserId, id: WebsiteId) -> Result<Option<(Website, Role)>> {
        self.db.read(|conn| {
            Ok(conn
                .query_row(
                    &format!(
                        "SELECT {SITE}, CASE WHEN w.user_id = ?2 THEN 'owner' ELSE m.role END
                         FROM websites w LEFT JOIN site_members m ON m.website_id = w.id AND m.user_id = ?2
                         WHERE w.id = ?1 AND (w.user_id = ?2 OR m.user_id IS NOT NULL)"
                    ),
                    params![id, user],
                    |r| Ok((sqlite_row(r)?, Role::parse(&r.get::<_, String>(10)?).unwrap_or(Role::Viewer))),
                )
                .optional()?)
        })
    }

    fn shared_websites(&self, user: UserId) -> Result<Vec<(Website, Role)>> {
        self.db.read(|conn| {
            let mut stmt = conn.prepare(&format!(
                "SELECT {SITE}, m.role FROM site_members m JOIN websites w ON w.id = m.website_id
                 WHERE m.user_id = ?1 AND w.user_id <> ?1 ORDER BY w.id"
            ))?;
            let rows = stmt.query_map([user], |r| Ok((sqlite_row(r)?, role_of(&r.get::<_, String>(10)?))))?;
            Ok(rows.collect::<rusqlite::Result<_>>()?)
        })
    }

    fn members(&self, site: WebsiteId) -> Result<Vec<MemberRow>> {
        self.db.read(|conn| {
            let mut stmt = conn.prepare(
                "SELECT m.user_id, u.email, m.role, m.created_at FROM site_members m JOIN users u ON u.id = m.user_id
                 WHERE m.website_id = ?1 ORDER BY m.created_at, m.user_id",
            )?;
            let rows = stmt.query_map([site], |r| {
                Ok(MemberRow {
                    user_id: r.get(0)?,
                    email: r.get(1)?,
                    role: role_of(&r.get::<_, String>(2)?),
                    since: r.get(3)?,
                })
            })?;
            Ok(rows.collect::<rusqlite::Result<_>>()?)
        })
    }

    fn insert_invitation(&self, new: NewInvitation) -> Result<i64> {
        self.db.write(|conn| {
            conn.execute(
                "INSERT INTO site_invitations (website_id, email, role, token_hash, invited_by, created_at, expires_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                params![
                    new.website_id,
                    new.email,
                    new.role.as_str(),
                    new.token_hash,
                    new.invited_by,
                    new.created_at,
                    new.expires_at
                ],
            )?;
            Ok(conn.last_insert_rowid())
        })
    }

    fn site_invitations(&self, site: WebsiteId, now: Millis) -> Result<Vec<InvitationRow>> {
        self.db.read(|conn| {
            let mut stmt = conn.prepare(&format!(
                "SELECT {INVITATION} FROM site_invitations i JOIN websites w ON w.id = i.website_id
                 WHERE i.website_id = ?1 AND i.expires_at > ?2 ORDER BY i.id"
            ))?;
            let rows = stmt.query_map(params![site, now], sqlite_invitation)?;
            Ok(rows.collect::<rusqlite::Result<_>>()?)
        })
    }

    fn invitations_for(&self, email: &str, now: Millis) -> Result<Vec<InvitationRow>> {
        self.db.read(|conn| {
            let mut stmt = conn.prepare(&format!(
                "SELECT {INVITATION} FROM site_invitations i JOIN websites w ON w.id = i.website_id
                 WHERE lower(i.email) = lower(?1) AND i.expires_at > ?2 ORDER BY i.id"
            ))?;
            let rows = stmt.query_map(params![email, now], sqlite_invitation)?;
            Ok(rows.collect::<rusqlite::Result<_>>()?)
        })
    }

    fn open_invitation(&self, id: i64, email: &str, now: Millis) -> Result<Option<InvitationRow>> {
        self.db.read(|conn| {
            Ok(conn
                .query_row(
                    &format!(
                        "SELECT {INVITATION} FROM site_invitations i JOIN websites w ON w.id = i.website_id
                         WHERE i.id = ?1 AND lower(i.email) = lower(?2) AND i.expires_at > ?3"
                    ),
                    params![id, email, now],
                    sqlite_invitation,
                )
                .optional()?)
        })
    }

    fn accept_invitation(&self, id: i64, email: &str, user: UserId, now: Millis) -> Result<Option<(WebsiteId, Role)>> {
        self.db.write(|conn| {
            let tx = conn.transaction()?;
            let found: Option<(WebsiteId, String)> = tx
                .query_row(
                    "DELETE FROM site_invitations WHERE id = ?1 AND lower(email) = lower(?2) AND expires_at > ?3
                     RETURNING website_id, role",
                    params![id, email, now],
                    |r| Ok((r.get(0)?, r.get(1)?)),
                )
                .optional()?;
            let Some((site, role)) = found else { return Ok(None) };
            // Roles are stored by name; the higher of two is kept by comparing their ranks here.
            tx.execute(
                "INSERT INTO site_members (website_id, user_id, role, created_at)
                 SELECT ?1, ?2, ?3, ?4 WHERE NOT EXISTS (SELECT 1 FROM websites WHERE id = ?1 AND user_id = ?2)
                 ON CONFLICT (website_id, user_id) DO UPDATE SET role = CASE
                     WHEN instr('viewer editor admin', excluded.role) > instr('viewer editor admin', role)
                     THEN excluded.role ELSE role END",
                params![site, user, role, now],
            )?;
            tx.commit()?;
            Ok(Some((site, role_of(&role))))
        })
    }

    fn set_member_role(&self, site: WebsiteId, user: UserId, role: Role) -> Result<bool> {
        self.db.write(|conn| {
            Ok(conn.execute(
                "UPDATE site_members SET role = ?3 WHERE website_id = ?1 AND user_id = ?2",
                params![site, user, role.as_str()],
            )? > 0)
        })
    }

    fn delete_member(&self, site: WebsiteId, user: UserId) -> Result<bool> {
        self.db.write(|conn| {
            Ok(conn.execute("DELETE FROM site_members WHERE website_id = ?1 AND user_id = ?2", params![site, user])?
                > 0)
        })
    }

    fn delete_invitation(&self, site: WebsiteId, id: i64) -> Result<bool> {
        self.db.write(|conn| {
            Ok(conn.execute("DELETE FROM site_invitations WHERE website_id = ?1 AND id = ?2", params![site, id])? > 0)
        })
    }

    fn hand_over(&self, site: WebsiteId, from: UserId, to: UserId, now: Millis) -> Result<bool> {
        self.db.write(|conn| {
            let tx = conn.transaction()?;
            // Dropped without a commit when either row is missing: nothing changes then.
            let was_admin = tx.execute(
                "DELETE FROM site_members WHERE website_id = ?1 AND user_id = ?2 AND role = 'admin'",
                params![site, to],
            )? == 1;
            if !was_admin
                || tx.execute(
                    "UPDATE websites SET user_id = ?3 WHERE id = ?1 AND user_id = ?2",
                    params![site, from, to],
                )? != 1
            {
                return Ok(false);
            }
            // The old owner keeps getting the site's emails its account's switches asked for, now as its choice.
            tx.execute(
                "INSERT INTO site_members (website_id, user_id, role, created_at, email_reports, email_alerts)
                 SELECT ?1, id, 'admin', ?3, weekly_reports, real_time_alerts FROM users WHERE id = ?2",
                params![site, from, now],
            )?;
            tx.commit()?;
            Ok(true)
        })
    }
}

impl MemberStore for PgMeta {
    fn site_role(&self, user: UserId, id: WebsiteId) -> Result<Option<(Website, Role)>> {
        self.pg.with(|c| {
            let row = c.query_opt(
                &format!(
                    "SELECT {SITE}, CASE WHEN w.user_id = $2 THEN 'owner' ELSE m.role END
                     FROM websites w LEFT JOIN site_members m ON m.website_id = w.id AND m.user_id = $2
                     WHERE w.id = $1 AND (w.user_id = $2 OR m.user_id IS NOT NULL)"
                ),
                &[&id, &user],
            )?;
            Ok(row.map(|r| (pg_row(&r), Role::parse(r.get::<_, &str>(10)).unwrap_or(Role::Viewer))))
        })
    }

    fn shared_websites(&self, user: UserId) -> Result<Vec<(Website, Role)>> {
        self.pg.with(|c| {
            let rows = c.query(
                &format!(
                    "SELECT {SITE}, m.role FROM site_members m JOIN websites w ON w.id = m.website_id
                     WHERE m.user_id = $1 AND w.user_id <> $1 ORDER BY w.id"
                ),
                &[&user],
            )?;
            Ok(rows.iter().map(|r| (pg_row(r), role_of(r.get(10)))).collect())
        })
    }

    fn members(&self, site: WebsiteId) -> Result<Vec<MemberRow>> {
        self.pg.with(|c| {
            let rows = c.query(
                "SELECT m.user_id, u.email, m.role, m.created_at FROM site_members m JOIN users u ON u.id = m.user_id
                 WHERE m.website_id = $1 ORDER BY m.created_at, m.user_id",
                &[&site],
            )?;
            Ok(rows
                .iter()
                .map(|r| MemberRow { user_id: r.get(0), email: r.get(1), role: role_of(r.get(2)), since: r.get(3) })
                .collect())
        })
    }

    fn insert_invitation(&self, new: NewInvitation) -> Result<i64> {
        self.pg.with(|c| {
            Ok(c.query_one(
                "INSERT INTO site_invitations (website_id, email, role, token_hash, invited_by, created_at, expires_at)
                 VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id",
                &[
                    &new.website_id,
                    &new.email,
                    &new.role.as_str(),
                    &new.token_hash,
                    &new.invited_by,
                    &new.created_at,
                    &new.expires_at,
                ],
            )?
            .get(0))
        })
    }

    fn site_invitations(&self, site: WebsiteId, now: Millis) -> Result<Vec<InvitationRow>> {
        self.pg.with(|c| {
            let rows = c.query(
                &format!(
                    "SELECT {INVITATION} FROM site_invitations i JOIN websites w ON w.id = i.website_id
                     WHERE i.website_id = $1 AND i.expires_at > $2 ORDER BY i.id"
                ),
                &[&site, &now],
            )?;
            Ok(rows.iter().map(pg_invitation).collect())
        })
    }

    fn invitations_for(&self, email: &str, now: Millis) -> Result<Vec<InvitationRow>> {
        self.pg.with(|c| {
            let rows = c.query(
                &format!(
                    "SELECT {INVITATION} FROM site_invitations i JOIN websites w ON w.id = i.website_id
                     WHERE lower(i.email) = lower($1) AND i.expires_at > $2 ORDER BY i.id"
                ),
                &[&email, &now],
            )?;
            Ok(rows.iter().map(pg_invitation).collect())
        })
    }

    fn open_invitation(&self, id: i64, email: &str, now: Millis) -> Result<Option<InvitationRow>> {
        self.pg.with(|c| {
            let row = c.query_opt(
                &format!(
                    "SELECT {INVITATION} FROM site_invitations i JOIN websites w ON w.id = i.website_id
                     WHERE i.id = $1 AND lower(i.email) = lower($2) AND i.expires_at > $3"
                ),
                &[&id, &email, &now],
            )?;
            Ok(row.as_ref().map(pg_invitation))
        })
    }

    fn accept_invitation(&self, id: i64, email: &str, user: UserId, now: Millis) -> Result<Option<(WebsiteId, Role)>> {
        self.pg.with(|c| {
            let mut tx = c.transaction()?;
            let found = tx.query_opt(
                "DELETE FROM site_invitations WHERE id = $1 AND lower(email) = lower($2) AND expires_at > $3
                 RETURNING website_id, role",
                &[&id, &email, &now],
            )?;
            let Some(found) = found else { return Ok(None) };
            let (site, role): (WebsiteId, String) = (found.get(0), found.get(1));
            tx.execute(
                "INSERT INTO site_members (website_id, user_id, role, created_at)
                 SELECT $1::BIGINT, $2::BIGINT, $3::TEXT, $4::BIGINT
                 WHERE NOT EXISTS (SELECT 1 FROM websites WHERE id = $1 AND user_id = $2)
                 ON CONFLICT (website_id, user_id) DO UPDATE SET role = CASE
                     WHEN strpos('viewer editor admin', excluded.role) > strpos('viewer editor admin', site_members.role)
                     THEN excluded.role ELSE site_members.role END",
                &[&site, &user, &role, &now],
            )?;
            tx.commit()?;
            Ok(Some((site, role_of(&role))))
        })
    }

    fn set_member_role(&self, site: WebsiteId, user: UserId, role: Role) -> Result<bool> {
        self.pg.with(|c| {
            Ok(c.execute(
                "UPDATE site_members SET role = $3 WHERE website_id = $1 AND user_id = $2",
                &[&site, &user, &role.as_str()],
            )? > 0)
        })
    }

    fn delete_member(&self, site: WebsiteId, user: UserId) -> Result<bool> {
        self.pg.with(|c| {
            Ok(c.execute("DELETE FROM site_members WHERE website_id = $1 AND user_id = $2", &[&site, &user])? > 0)
        })
    }

    fn delete_invitation(&self, site: WebsiteId, id: i64) -> Result<bool> {
        self.pg.with(|c| {
            Ok(c.execute("DELETE FROM site_invitations WHERE website_id = $1 AND id = $2", &[&site, &id])? > 0)
        })
    }

    fn hand_over(&self, site: WebsiteId, from: UserId, to: UserId, now: Millis) -> Result<bool> {
        self.pg.with(|c| {
            let mut tx = c.transaction()?;
            // Rolled back on drop when either row is missing: nothing changes then.
            let was_admin = tx.execute(
                "DELETE FROM site_members WHERE website_id = $1 AND user_id = $2 AND role = 'admin'",
                &[&site, &to],
            )? == 1;
            if !was_admin
                || tx
                    .execute("UPDATE websites SET user_id = $3 WHERE id = $1 AND user_id = $2", &[&site, &from, &to])?
                    != 1
            {
                return Ok(false);
            }
            // The old owner keeps getting the site's emails its account's switches asked for, now as its choice.
            tx.execute(
                "INSERT INTO site_members (website_id, user_id, role, created_at, email_reports, email_alerts)
                 SELECT $1::BIGINT, id, 'admin', $3::BIGINT, weekly_reports, real_time_alerts FROM users WHERE id = $2",
                &[&site, &from, &now],
            )?;
            tx.commit()?;
            Ok(true)
        })
    }
}
