//! A site's team (issue 37): /api/websites/{id}/members (list, invite, change a role, remove) and
//! /api/websites/{id}/invitations/{invitationId} (withdraw) for the site's admins and owner,
//! /api/websites/{id}/owner (handing the site over to an admin) for its owner,
//! /api/websites/{id}/members/me/notifications (the caller's own emails of the site) for any role, and
//! /api/user/invitations for the invited account (its open invitations, accepting one). The role each needs
//! is in `roles.rs`; the rules beyond it (nobody changes their own role, nor the owner's) in core's `Members`.

use serde::Deserialize;
use tracker_core::Tracker;
use tracker_core::model::{Caller, WebsiteId};
use tracker_core::store::members::{CreatedInvitation, Invitation, Member, MemberEmails, SiteMembers};
use warp::http::StatusCode;
use warp::{Filter, Rejection, Reply};

use super::websites::WebsiteResponse;
use super::{api_body, base_url, blocking, host, user, with_tracker};
use crate::error::ErrorBody;

/// An invitation to send: the address and the role (viewer, editor or admin).
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
struct InviteRequest {
    email: String,
    /// viewer, editor or admin.
    role: String,
}

/// A member's new role (viewer, editor or admin).
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
struct RoleRequest {
    role: String,
}

/// The admin member to make the site's owner.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct HandOverRequest {
    /// The member's account id (`memberId` in the members' list); its role must be admin.
    member_id: i64,
}

/// What to change of the caller's own emails of a site; a field left out keeps its value.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
struct MemberEmailsRequest {
    /// The site's weekly report.
    reports: Option<bool>,
    /// The site's traffic-spike alerts.
    alerts: Option<bool>,
}

/// Accepting an invitation: the token of its link, needed while the account's address is not confirmed.
#[derive(Deserialize, Default, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
struct AcceptRequest {
    token: Option<String>,
}

pub fn routes(tracker: Tracker) -> impl Filter<Extract = (impl Reply,), Error = Rejection> + Clone {
    let caller = || with_tracker(tracker.clone()).and(user(tracker.clone()));
    let members = warp::path!("websites" / WebsiteId / "members");
    let member = warp::path!("websites" / WebsiteId / "members" / i64);
    let list = members.and(warp::get()).and(caller()).and_then(list);
    let invite = members.and(warp::post()).and(caller()).and(host()).and(api_body()).and_then(invite);
    let set_role = member.and(warp::put()).and(caller()).and(api_body()).and_then(set_role);
    let remove = member.and(warp::delete()).and(caller()).and_then(remove);
    let withdraw =
        warp::path!("websites" / WebsiteId / "invitations" / i64).and(warp::delete()).and(caller()).and_then(withdraw);
    let hand_over = warp::path!("websites" / WebsiteId / "owner")
        .and(warp::post())
        .and(caller())
        .and(api_body())
        .and_then(hand_over);
    let own_emails = warp::path!("websites" / WebsiteId / "members" / "me" / "notifications");
    let emails = own_emails.and(warp::get()).and(caller()).and_then(emails);
    let set_emails = own_emails.and(warp::put()).and(caller()).and(api_body()).and_then(set_emails);
    let pending = warp::path!("user" / "invitations").and(warp::get()).and(caller()).and_then(pending);
    let accept = warp::path!("user" / "invitations" / i64 / "accept")
        .and(warp::post())
        .and(caller())
        .and(host())
        .and(api_body())
        .and_then(accept);
    list.or(invite).or(set_role).or(remove).or(withdraw).or(hand_over).or(emails).or(set_emails).or(pending).or(accept)
}

/// The site's owner and members with their roles, and its open invitations (admin and up).
#[utoipa::path(
    get,
    path = "/api/websites/{id}/members",
    tag = "members",
    operation_id = "listMembers",
    params(("id" = i64, Path, description = "Website id")),
    responses((status = 200, description = "The owner first, then the members, and the open invitations", body = SiteMembers), (status = "4XX", description = "Refused: no valid sign-in, a role below admin (403), or not found (a site the caller has no role on too)", body = ErrorBody)),
    security(("bearer" = []))
)]
async fn list(site: WebsiteId, tracker: Tracker, caller: Caller) -> Result<impl Reply, Rejection> {
    let members = blocking(move || tracker.members.list(caller, site)).await?;
    Ok(warp::reply::json(&members))
}

/// Invites an address with a role (admin and up). With email configured the link is mailed; otherwise the
/// answer carries it, shown this once, for the inviter to pass on. It works for 7 days, once, and only for an
/// account with that address.
#[utoipa::path(
    post,
    path = "/api/websites/{id}/members",
    tag = "members",
    operation_id = "inviteMember",
    params(("id" = i64, Path, description = "Website id")),
    request_body(content = InviteRequest, content_type = "application/json"),
    responses((status = 201, description = "The invitation; `link` when it was not mailed", body = CreatedInvitation), (status = "4XX", description = "Refused: a bad address or role (400), a role below admin (403), not found, or the address has access already (409)", body = ErrorBody)),
    security(("bearer" = []))
)]
async fn invite(
    site: WebsiteId,
    tracker: Tracker,
    caller: Caller,
    host: Option<String>,
    body: InviteRequest,
) -> Result<impl Reply, Rejection> {
    let base = base_url(&tracker, host.as_deref());
    let created = blocking(move || tracker.members.invite(caller, site, &body.email, &body.role, &base)).await?;
    Ok(warp::reply::with_status(warp::reply::json(&created), StatusCode::CREATED))
}

/// Changes a member's role (admin and up): viewer, editor or admin. Nobody changes their own role, and the
/// owner's is nobody's to change.
#[utoipa::path(
    put,
    path = "/api/websites/{id}/members/{memberId}",
    tag = "members",
    operation_id = "updateMember",
    params(("id" = i64, Path, description = "Website id"), ("memberId" = i64, Path, description = "The member's account id")),
    request_body(content = RoleRequest, content_type = "application/json"),
    responses((status = 200, description = "The member with its new role", body = Member), (status = "4XX", description = "Refused: a bad role (400), a role below admin, the caller's own role or the owner's (403), or not found", body = ErrorBody)),
    security(("bearer" = []))
)]
async fn set_role(
    site: WebsiteId,
    member: i64,
    tracker: Tracker,
    caller: Caller,
    body: RoleRequest,
) -> Result<impl Reply, Rejection> {
    let member = blocking(move || tracker.members.set_role(caller, site, member, &body.role)).await?;
    Ok(warp::reply::json(&member))
}

/// Removes a member (admin and up); its next request to the site is a 404. The owner cannot be removed.
#[utoipa::path(
    delete,
    path = "/api/websites/{id}/members/{memberId}",
    tag = "members",
    operation_id = "removeMember",
    params(("id" = i64, Path, description = "Website id"), ("memberId" = i64, Path, description = "The member's account id")),
    responses((status = 204, description = "Removed"), (status = "4XX", description = "Refused: a role below admin, the owner (403), or not found", body = ErrorBody)),
    security(("bearer" = []))
)]
async fn remove(site: WebsiteId, member: i64, tracker: Tracker, caller: Caller) -> Result<impl Reply, Rejection> {
    blocking(move || tracker.members.remove(caller, site, member)).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Withdraws an open invitation (admin and up): its link stops working at once.
#[utoipa::path(
    delete,
    path = "/api/websites/{id}/invitations/{invitationId}",
    tag = "members",
    operation_id = "withdrawInvitation",
    params(("id" = i64, Path, description = "Website id"), ("invitationId" = i64, Path, description = "Invitation id")),
    responses((status = 204, description = "Withdrawn"), (status = "4XX", description = "Refused: a role below admin (403), or not found", body = ErrorBody)),
    security(("bearer" = []))
)]
async fn withdraw(site: WebsiteId, id: i64, tracker: Tracker, caller: Caller) -> Result<impl Reply, Rejection> {
    blocking(move || tracker.members.withdraw(caller, site, id)).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Hands the site over to one of its admins (owner only): the admin becomes the owner, the caller an admin
/// member. Recorded in the site's audit log. Any other member is a 409 (make them an admin first).
#[utoipa::path(
    post,
    path = "/api/websites/{id}/owner",
    tag = "members",
    operation_id = "handOverWebsite",
    params(("id" = i64, Path, description = "Website id")),
    request_body(content = HandOverRequest, content_type = "application/json"),
    responses((status = 200, description = "The site's team as it is now: the new owner first, the old one an admin", body = SiteMembers), (status = "4XX", description = "Refused: a bad body (400), a role below owner (403), not found (a member id not on the site too), or a member who is not an admin or already owns a site of this domain (409)", body = ErrorBody)),
    security(("bearer" = []))
)]
async fn hand_over(
    site: WebsiteId,
    tracker: Tracker,
    caller: Caller,
    body: HandOverRequest,
) -> Result<impl Reply, Rejection> {
    let members = blocking(move || tracker.members.hand_over(caller, site, body.member_id)).await?;
    Ok(warp::reply::json(&members))
}

/// The caller's own emails of the site (any role): for a member its choice on the site, off until it turns
/// them on; for the owner the account's Notifications switches (`followsAccount`).
#[utoipa::path(
    get,
    path = "/api/websites/{id}/members/me/notifications",
    tag = "members",
    operation_id = "getOwnSiteEmails",
    params(("id" = i64, Path, description = "Website id")),
    responses((status = 200, description = "Whether the caller gets the site's weekly report and traffic alerts", body = MemberEmails), (status = "4XX", description = "Refused: no valid sign-in, or not found (a site the caller has no role on too)", body = ErrorBody)),
    security(("bearer" = []))
)]
async fn emails(site: WebsiteId, tracker: Tracker, caller: Caller) -> Result<impl Reply, Rejection> {
    let emails = blocking(move || tracker.members.emails(caller, site)).await?;
    Ok(warp::reply::json(&emails))
}

/// Turns the calling member's weekly report and traffic alerts of the site on or off (any role; a field left
/// out keeps its value). They go only to a confirmed address. The owner's follow the account's switches
/// (`PUT /api/user/notifications`): 409 here.
#[utoipa::path(
    put,
    path = "/api/websites/{id}/members/me/notifications",
    tag = "members",
    operation_id = "setOwnSiteEmails",
    params(("id" = i64, Path, description = "Website id")),
    request_body(content = MemberEmailsRequest, content_type = "application/json"),
    responses((status = 200, description = "The member's choice as saved", body = MemberEmails), (status = "4XX", description = "Refused: a bad body (400), no valid sign-in, not found (a site the caller has no role on too), or the site's owner (409)", body = ErrorBody)),
    security(("bearer" = []))
)]
async fn set_emails(
    site: WebsiteId,
    tracker: Tracker,
    caller: Caller,
    body: MemberEmailsRequest,
) -> Result<impl Reply, Rejection> {
    let emails = blocking(move || tracker.members.set_emails(caller, site, body.reports, body.alerts)).await?;
    Ok(warp::reply::json(&emails))
}

/// The open invitations to the signed-in account's address, once that address is confirmed (until then an
/// invitation is accepted from its link).
#[utoipa::path(
    get,
    path = "/api/user/invitations",
    tag = "members",
    operation_id = "listInvitations",
    responses((status = 200, description = "Open invitations to the account's confirmed address, oldest first", body = Vec<Invitation>), (status = "4XX", description = "Refused: no valid sign-in", body = ErrorBody)),
    security(("bearer" = []))
)]
async fn pending(tracker: Tracker, caller: Caller) -> Result<impl Reply, Rejection> {
    let invitations = blocking(move || tracker.members.pending_for(caller.user)).await?;
    Ok(warp::reply::json(&invitations))
}

/// Accepts an invitation to the signed-in account's address; with an unconfirmed address, only with the
/// link's `token`. Another account's invitation, a used, withdrawn or expired one is not found. Answers the
/// site with the account's role on it.
#[utoipa::path(
    post,
    path = "/api/user/invitations/{id}/accept",
    tag = "members",
    operation_id = "acceptInvitation",
    params(("id" = i64, Path, description = "Invitation id")),
    request_body(content = AcceptRequest, content_type = "application/json"),
    responses((status = 200, description = "The site, with the account's role on it", body = WebsiteResponse), (status = "4XX", description = "Refused: no valid sign-in, or not found (another account's invitation too)", body = ErrorBody)),
    security(("bearer" = []))
)]
async fn accept(
    id: i64,
    tracker: Tracker,
    caller: Caller,
    host: Option<String>,
    body: AcceptRequest,
) -> Result<impl Reply, Rejection> {
    let base = base_url(&tracker, host.as_deref());
    let (site, role) = blocking(move || tracker.members.accept(caller.user, id, body.token.as_deref())).await?;
    Ok(warp::reply::json(&WebsiteResponse::new(site, role, &base)))
}
