//! A site's team (issue 37): inviting an address with a role, the invited account accepting, the members'
//! list, role changes and removals, each recorded in the site's audit log with who did it. Who may call what
//! is the caller's role on the site (`Websites::access`); the rules beyond a plain rank are here: nobody
//! changes their own role, the owner's role is nobody's to change, and no member is made an owner.

use serde::Serialize;
use serde_json::json;

use crate::auth::{hash_token, new_secret_token, validate_email};
use crate::email::{Delivery, Mailer, Outgoing, escape};
use crate::error::{Error, Result};
use crate::model::{Caller, Millis, Role, UserId, Website, WebsiteId, now_ms, ser_iso};
use crate::settings::Settings;
use crate::store::meta::{InvitationRow, Meta, NewInvitation};
use crate::store::websites::Websites;

/// How long an invitation may be accepted.
pub const INVITATION_TTL_MS: Millis = 7 * 24 * 3_600_000;
/// Invitations a site may have open at once: enough for a team, too few to make the server mail a crowd.
pub const MAX_OPEN_INVITATIONS: usize = 50;
/// A token is 43 characters; anything much longer is not one.
const MAX_TOKEN_LEN: usize = 128;

/// One account with a role on a site: its owner or a member.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Member {
    /// The member's account id (the path's `memberId`).
    pub member_id: UserId,
    pub email: String,
    pub role: Role,
    /// When it joined (the owner: when the site was created).
    #[serde(serialize_with = "ser_iso")]
    #[schema(value_type = String, format = DateTime)]
    pub since: Millis,
}

/// An invitation not yet accepted.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Invitation {
    pub id: i64,
    pub website_id: WebsiteId,
    pub website_name: String,
    pub website_domain: String,
    pub email: String,
    pub role: Role,
    #[serde(serialize_with = "ser_iso")]
    #[schema(value_type = String, format = DateTime)]
    pub created_at: Millis,
    #[serde(serialize_with = "ser_iso")]
    #[schema(value_type = String, format = DateTime)]
    pub expires_at: Millis,
}

impl From<InvitationRow> for Invitation {
    fn from(row: InvitationRow) -> Invitation {
        Invitation {
            id: row.id,
            website_id: row.website_id,
            website_name: row.site_name,
            website_domain: row.site_domain,
            email: row.email,
            role: row.role,
            created_at: row.created_at,
            expires_at: row.expires_at,
        }
    }
}

/// A site's owner and members, and its open invitations.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SiteMembers {
    /// The owner first, then the members, oldest first.
    pub members: Vec<Member>,
    pub invitations: Vec<Invitation>,
}

/// Which of a site's emails an account gets: a member's own choice on the site, or the owner's account switches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MemberEmails {
    /// The site's weekly report (Mondays).
    pub reports: bool,
    /// The site's traffic-spike alerts (at most one every 6 hours).
    pub alerts: bool,
    /// True for the site's owner, whose emails follow the account's Notifications switches (Weekly Reports,
    /// Real-time Alerts, `PUT /api/user/notifications`) rather than a choice per site.
    pub follows_account: bool,
}

/// A new invitation: mailed to the address when email is configured, else its link for the inviter to pass on.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreatedInvitation {
    #[serde(flatten)]
    pub invitation: Invitation,
    /// Whether the link was mailed to the address.
    pub emailed: bool,
    /// The link to accept it (only when it was not mailed): shown this once, for the inviter to copy.
    pub link: Option<String>,
}

/// A site's members and invitations.
#[derive(Clone)]
pub struct Members {
    meta: Meta,
    websites: Websites,
    settings: Settings,
}

impl Members {
    pub(crate) fn new(meta: Meta, websites: Websites, settings: Settings) -> Members {
        Members { meta, websites, settings }
    }

    /// The site's owner and members with their roles, and its open invitations.
    pub fn list(&self, caller: impl Into<Caller>, site: WebsiteId) -> Result<SiteMembers> {
        let site = self.websites.get(caller, site)?;
        let owner = self.meta.user(site.user_id)?.ok_or(Error::NotFound("website"))?;
        let mut members =
            vec![Member { member_id: owner.id, email: owner.email, role: Role::Owner, since: site.created_at }];
        members.extend(self.meta.members(site.id)?.into_iter().map(|m| Member {
            member_id: m.user_id,
            email: m.email,
            role: m.role,
            since: m.since,
        }));
        let invitations = self.meta.site_invitations(site.id, now_ms())?.into_iter().map(Invitation::from).collect();
        Ok(SiteMembers { members, invitations })
    }

    /// The caller's own choice of the site's weekly report and traffic alerts (any role on the site; a member
    /// starts with neither); for the owner, the account's Notifications switches.
    pub fn emails(&self, caller: impl Into<Caller>, site: WebsiteId) -> Result<MemberEmails> {
        let caller = caller.into();
        let (site, role) = self.websites.access(caller, site)?;
        if role == Role::Owner {
            let (_, switches, _) = self.meta.settings(caller.user)?.ok_or(Error::NotFound("website"))?;
            return Ok(MemberEmails {
                reports: switches.weekly_reports,
                alerts: switches.real_time_alerts,
                follows_account: true,
            });
        }
        let (reports, alerts) = self.meta.member_emails(site.id, caller.user)?.ok_or(Error::NotFound("website"))?;
        Ok(MemberEmails { reports, alerts, follows_account: false })
    }

    /// Saves what is given of the calling member's choice of the site's weekly report and traffic alerts (any
    /// role on the site). The owner's follow the account's switches: a choice here would be silently beside
    /// them, so it is refused.
    pub fn set_emails(
        &self,
        caller: impl Into<Caller>,
        site: WebsiteId,
        reports: Option<bool>,
        alerts: Option<bool>,
    ) -> Result<MemberEmails> {
        let caller = caller.into();
        let (site, role) = self.websites.access(caller, site)?;
        if role == Role::Owner {
            return Err(Error::Conflict(
                "the owner's reports and alerts follow the account's Notifications settings (PUT /api/user/notifications)"
                    .into(),
            ));
        }
        // A member removed since the role was read is not one any more: not found, as on its next request.
        let (reports, alerts) =
            self.meta.set_member_emails(site.id, caller.user, reports, alerts)?.ok_or(Error::NotFound("website"))?;
        Ok(MemberEmails { reports, alerts, follows_account: false })
    }

    /// Invites `email` to the site with `role` (viewer, editor or admin). With email configured the link is
    /// mailed to the address; otherwise (or when the mail server cannot take it) the answer carries the link
    /// for the inviter to pass on. `base` is the dashboard's address the link starts with.
    pub fn invite(
        &self,
        caller: impl Into<Caller>,
        site: WebsiteId,
        email: &str,
        role: &str,
        base: &str,
    ) -> Result<CreatedInvitation> {
        let caller = caller.into();
        let site = self.websites.get(caller, site)?;
        let email = validate_email(email)?;
        let role = Role::parse_member(role)?;
        let now = now_ms();
        let listed = self.list(caller.user, site.id)?;
        if listed.members.iter().any(|m| m.email.eq_ignore_ascii_case(&email)) {
            return Err(Error::Conflict(format!("{email} already has access to this website")));
        }
        if listed.invitations.len() >= MAX_OPEN_INVITATIONS {
            return Err(Error::Conflict(format!(
                "this website has {MAX_OPEN_INVITATIONS} open invitations: withdraw one first"
            )));
        }
        let (token, token_hash) = new_secret_token();
        let new = NewInvitation {
            website_id: site.id,
            email: &email,
            role,
            token_hash: &token_hash,
            invited_by: caller.user,
            created_at: now,
            expires_at: now + INVITATION_TTL_MS,
        };
        let id = self.meta.insert_invitation(new)?;
        self.audit(site.id, caller.user, "member_invited", json!({ "email": email, "role": role }))?;
        let invitation = self
            .meta
            .open_invitation(id, &email, now)?
            .map(Invitation::from)
            .ok_or_else(|| Error::Internal("an invitation just stored is gone".into()))?;
        let link = invitation_link(base, id, &token);
        let emailed = self.mail(&site, &invitation, &link);
        Ok(CreatedInvitation { invitation, emailed, link: (!emailed).then_some(link) })
    }

    /// Withdraws an open invitation of the site.
    pub fn withdraw(&self, caller: impl Into<Caller>, site: WebsiteId, id: i64) -> Result<()> {
        let caller = caller.into();
        let site = self.websites.get(caller, site)?;
        if !self.meta.delete_invitation(site.id, id)? {
            return Err(Error::NotFound("invitation"));
        }
        self.audit(site.id, caller.user, "invitation_withdrawn", json!({ "invitation": id }))
    }

    /// The open invitations to the account's address, once that address is confirmed (an unconfirmed address
    /// may be anyone's: its invitations are accepted with the link's token instead).
    pub fn pending_for(&self, user: UserId) -> Result<Vec<Invitation>> {
        let account = self.meta.user(user)?.ok_or_else(|| Error::Unauthorized("account no longer exists".into()))?;
        if self.meta.email_verified(user)? != Some(true) {
            return Ok(Vec::new());
        }
        Ok(self.meta.invitations_for(&account.email, now_ms())?.into_iter().map(Invitation::from).collect())
    }

    /// Accepts the invitation `id` for the signed-in account: it must be to the account's address, open, and
    /// either the address confirmed or `token` the invitation's own. Anything else, another account's
    /// invitation included, is `NotFound`. Answers the site with the role the account has on it now.
    pub fn accept(&self, user: UserId, id: i64, token: Option<&str>) -> Result<(Website, Role)> {
        let account = self.meta.user(user)?.ok_or_else(|| Error::Unauthorized("account no longer exists".into()))?;
        let now = now_ms();
        let open = self.meta.open_invitation(id, &account.email, now)?.ok_or(Error::NotFound("invitation"))?;
        let verified = self.meta.email_verified(user)? == Some(true);
        let token_matches = token
            .map(str::trim)
            .filter(|t| !t.is_empty() && t.len() <= MAX_TOKEN_LEN)
            .is_some_and(|t| constant_time_eq(&hash_token(t), &open.token_hash));
        if !verified && !token_matches {
            return Err(Error::NotFound("invitation"));
        }
        let (site, role) =
            self.meta.accept_invitation(id, &account.email, user, now)?.ok_or(Error::NotFound("invitation"))?;
        self.audit(site, user, "member_joined", json!({ "email": account.email, "role": role }))?;
        self.websites.access(user, site)
    }

    /// Changes a member's role. Nobody changes their own; the owner's is nobody's to change; no one is made
    /// owner this way.
    pub fn set_role(&self, caller: impl Into<Caller>, site: WebsiteId, member: UserId, role: &str) -> Result<Member> {
        let caller = caller.into();
        let site = self.websites.get(caller, site)?;
        let role = Role::parse_member(role)?;
        let current = self.member(&site, member)?;
        if member == caller.user {
            return Err(Error::Forbidden("you cannot change your own role".into()));
        }
        if current.role == Role::Owner {
            return Err(Error::Forbidden("the owner's role cannot be changed".into()));
        }
        if !self.meta.set_member_role(site.id, member, role)? {
            return Err(Error::NotFound("member"));
        }
        let detail = json!({ "email": current.email, "from": current.role, "to": role });
        self.audit(site.id, caller.user, "member_role_changed", detail)?;
        Ok(Member { role, ..current })
    }

    /// Removes a member from the site: its next request to the site is a 404. The owner cannot be removed.
    pub fn remove(&self, caller: impl Into<Caller>, site: WebsiteId, member: UserId) -> Result<()> {
        let caller = caller.into();
        let site = self.websites.get(caller, site)?;
        let current = self.member(&site, member)?;
        if current.role == Role::Owner {
            return Err(Error::Forbidden("the owner cannot be removed from their website".into()));
        }
        if !self.meta.delete_member(site.id, member)? {
            return Err(Error::NotFound("member"));
        }
        self.audit(site.id, caller.user, "member_removed", json!({ "email": current.email, "role": current.role }))
    }

    /// Hands the site over to one of its admins (owner only): the admin becomes the owner and the old owner an
    /// admin member. Only an admin may be made the owner, so the one receiving a site has managed it already;
    /// any other member is a `Conflict` (make them an admin first). Answers the site's team as it is now.
    pub fn hand_over(&self, caller: impl Into<Caller>, site: WebsiteId, member: UserId) -> Result<SiteMembers> {
        let caller = caller.into();
        let (site, role) = self.websites.access(caller, site)?;
        // Whatever the route asks, a site changes hands only by its owner's own decision.
        if role != Role::Owner {
            return Err(Error::Forbidden("only the website's owner can hand it over".into()));
        }
        let current = self.member(&site, member)?;
        match current.role {
            Role::Owner => return Err(Error::Conflict(format!("{} owns this website already", current.email))),
            Role::Admin => {}
            role => {
                return Err(Error::Conflict(format!(
                    "{} is {}: only an admin can be made the owner (make them an admin first)",
                    current.email,
                    role.as_str()
                )));
            }
        }
        let previous = self.meta.user(site.user_id)?.ok_or(Error::NotFound("website"))?;
        self.websites.hand_over(site.user_id, site.id, member)?;
        let detail = json!({ "from": previous.email, "to": current.email });
        self.audit(site.id, caller.user, "owner_changed", detail)?;
        self.list(member, site.id)
    }

    /// The owner or a member of the site by account id (`NotFound` for anyone else).
    fn member(&self, site: &Website, member: UserId) -> Result<Member> {
        if member == site.user_id {
            let owner = self.meta.user(member)?.ok_or(Error::NotFound("member"))?;
            return Ok(Member { member_id: owner.id, email: owner.email, role: Role::Owner, since: site.created_at });
        }
        let row = self.meta.members(site.id)?.into_iter().find(|m| m.user_id == member);
        let row = row.ok_or(Error::NotFound("member"))?;
        Ok(Member { member_id: row.user_id, email: row.email, role: row.role, since: row.since })
    }

    fn audit(&self, site: WebsiteId, actor: UserId, action: &str, detail: serde_json::Value) -> Result<()> {
        self.meta.insert_audit(site, now_ms(), Some(actor), action, &detail)
    }

    /// Mails the link when email is configured; false when it was not sent (the inviter gets the link then).
    fn mail(&self, site: &Website, invitation: &Invitation, link: &str) -> bool {
        let mailer = match Mailer::from_config(&self.settings.get()) {
            Ok(Some(mailer)) => mailer,
            Ok(None) => return false,
            Err(e) => {
                tracing::warn!(site = site.id, error = %e, "invitation mail not sent");
                return false;
            }
        };
        match mailer.send(&invitation_mail(site, invitation, link)) {
            Ok(Delivery::Sent) => true,
            Ok(Delivery::Refused(reason)) => {
                tracing::warn!(site = site.id, reason = %reason, "invitation mail refused");
                false
            }
            Err(e) => {
                tracing::warn!(site = site.id, error = %e, "invitation mail not sent");
                false
            }
        }
    }
}

/// The dashboard's page that accepts an invitation. Its token rides after `#`, which browsers never send: it
/// reaches no server log, proxy or Referer.
fn invitation_link(base: &str, id: i64, token: &str) -> String {
    format!("{}/invitations#id={id}&token={token}", base.trim_end_matches('/'))
}

fn invitation_mail(site: &Website, invitation: &Invitation, link: &str) -> Outgoing {
    let role = invitation.role.as_str();
    let text = format!(
        "You are invited to the analytics of {} ({}) as {role}.\n\nSign in (or sign up) with this address and open \
         this link within 7 days to accept:\n{link}\n\nIf you did not expect it, ignore this message.\n",
        site.name, site.domain
    );
    let html = format!(
        "<!doctype html><html><body style=\"font-family:sans-serif;color:#111\">\
         <p>You are invited to the analytics of {} ({}) as {role}.</p>\
         <p><a href=\"{}\">Accept the invitation</a> (sign in or sign up with this address; the link works for 7 \
         days).</p><p style=\"color:#666;font-size:12px\">If you did not expect it, ignore this message.</p>\
         </body></html>",
        escape(&site.name),
        escape(&site.domain),
        escape(link)
    );
    Outgoing { to: invitation.email.clone(), subject: format!("Invitation to {} on tracker", site.name), text, html }
}

/// Compares two hashes in time independent of where they differ.
fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}
