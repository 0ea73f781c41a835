//! The email record on each metadata engine (SQLite always, PostgreSQL when the harness is up): claims won
//! once, per recipient; the recipients of reports and alerts, owners by their account's switches and members by
//! their choice on the site, confirmed addresses only; a member removed after the list was read gets nothing.

use std::sync::Arc;

use super::super::testing::engines;
use super::super::{Meta, NewInvitation};
use super::*;
use crate::account::NotificationsUpdate;
use crate::model::{Role, TrackingLevel};

const WEEK: Millis = 1_763_942_400_000;

/// An account and a site of it on `meta`: (user, site).
fn owner_and_site(meta: &Meta, email: &str) -> (UserId, WebsiteId) {
    let user = meta.insert_user(email, "hash", 1, false).unwrap().unwrap().id;
    meta.vouch_for_email(user, 1).unwrap();
    let key = format!("key-{email}");
    let site = meta.insert_website(user, "Shop", "shop.example.com", &key, TrackingLevel::Light, 1).unwrap();
    (user, site.unwrap().0)
}

#[test]
fn a_report_is_claimed_once_and_a_released_one_can_be_claimed_again() {
    for engine in engines() {
        let meta = &engine.meta;
        let (user, site) = owner_and_site(meta, "ann@example.com");
        let (other, _) = owner_and_site(meta, "bob@example.com");
        let claim = EmailClaim { kind: EmailKind::WeeklyReport, site, user, period: WEEK, at: WEEK + 10 };
        let due = |meta: &Meta| -> Vec<WebsiteId> {
            meta.report_recipients(WEEK).unwrap().iter().filter(|r| r.user == user).map(|r| r.site).collect()
        };
        assert_eq!(due(meta), [site], "{}", engine.name);
        assert!(!meta.claim_email(&EmailClaim { user: other, ..claim }, None).unwrap(), "{}", engine.name);
        assert!(meta.claim_email(&claim, None).unwrap(), "{}", engine.name);
        assert!(!meta.claim_email(&EmailClaim { at: WEEK + 20, ..claim }, None).unwrap(), "{}", engine.name);
        assert!(due(meta).is_empty(), "{}", engine.name);
        meta.release_email(&claim).unwrap();
        assert_eq!(due(meta), [site], "{}: a released claim is due again", engine.name);
        assert!(meta.claim_email(&claim, None).unwrap(), "{}", engine.name);
        meta.email_refused(&claim).unwrap();
        assert!(due(meta).is_empty(), "{}: a refused report is not tried again", engine.name);
        assert!(!meta.claim_email(&claim, None).unwrap(), "{}", engine.name);
    }
}

#[test]
fn an_owner_whose_address_is_unconfirmed_gets_no_report_or_alert() {
    for engine in engines() {
        let meta = &engine.meta;
        let (user, site) = owner_and_site(meta, "ann@example.com");
        meta.update_notifications(
            user,
            crate::account::NotificationsUpdate { real_time_alerts: Some(true), ..Default::default() },
        )
        .unwrap();
        let sites = |meta: &Meta| {
            let reports = meta.report_recipients(WEEK).unwrap().iter().map(|r| r.site).collect::<Vec<_>>();
            let alerts = meta.alert_recipients(WEEK).unwrap().iter().map(|r| r.site).collect::<Vec<_>>();
            (reports, alerts)
        };
        assert_eq!(sites(meta), (vec![site], vec![site]), "{}", engine.name);
        meta.set_email(user, "changed@example.com").unwrap();
        assert_eq!(sites(meta), (vec![], vec![]), "{}: a changed address is unconfirmed", engine.name);
    }
}

#[test]
fn alerts_claimed_at_once_at_different_clocks_keep_the_quiet_period() {
    const QUIET: Millis = 6 * 3_600_000;
    for engine in engines() {
        let meta = &engine.meta;
        let (user, site) = owner_and_site(meta, "ann@example.com");
        // Eight daemons, each its own clock a second apart, claim the same spike's alert at once.
        let won: usize = (0..8)
            .map(|i| {
                let meta = Arc::clone(meta);
                std::thread::spawn(move || {
                    let at = WEEK + i * 1_000;
                    let claim = EmailClaim { kind: EmailKind::SpikeAlert, site, user, period: at, at };
                    meta.claim_email(&claim, Some(at - QUIET)).unwrap()
                })
            })
            .collect::<Vec<_>>()
            .into_iter()
            .map(|t| usize::from(t.join().unwrap()))
            .sum();
        assert_eq!(won, 1, "{}", engine.name);
        let after = WEEK + QUIET + 10_000;
        let claim = EmailClaim { kind: EmailKind::SpikeAlert, site, user, period: after, at: after };
        assert!(meta.claim_email(&claim, Some(after - QUIET)).unwrap(), "{}: after the quiet period", engine.name);
    }
}

/// An account with a confirmed address made a member of `site` with `role` (by an invitation it accepts).
fn member_of(meta: &Meta, site: WebsiteId, owner: UserId, email: &str, role: Role) -> UserId {
    let user = meta.insert_user(email, "hash", 1, false).unwrap().unwrap().id;
    meta.vouch_for_email(user, 1).unwrap();
    let invitation = NewInvitation {
        website_id: site,
        email,
        role,
        token_hash: email.as_bytes(),
        invited_by: owner,
        created_at: 1,
        expires_at: i64::MAX,
    };
    let id = meta.insert_invitation(invitation).unwrap();
    meta.accept_invitation(id, email, user, 2).unwrap().unwrap();
    user
}

/// (user, owner) of each recipient of `site`.
fn recipients_of(list: Vec<EmailRecipient>, site: WebsiteId) -> Vec<(UserId, bool)> {
    list.into_iter().filter(|r| r.site == site).map(|r| (r.user, r.owner)).collect()
}

#[test]
fn members_get_reports_and_alerts_they_asked_for_and_nothing_else_on_each_engine() {
    for engine in engines() {
        let (meta, name) = (&engine.meta, engine.name);
        let (ann, site) = owner_and_site(meta, "ann@example.com");
        meta.update_notifications(ann, NotificationsUpdate { real_time_alerts: Some(true), ..Default::default() })
            .unwrap();
        let bob = member_of(meta, site, ann, "bob@example.com", Role::Viewer);
        let cat = member_of(meta, site, ann, "cat@example.com", Role::Admin);
        let (dan, other_site) = owner_and_site(meta, "dan@example.com");

        // Members start with neither.
        assert_eq!(meta.member_emails(site, bob).unwrap(), Some((false, false)), "{name}");
        assert_eq!(recipients_of(meta.report_recipients(WEEK).unwrap(), site), [(ann, true)], "{name}");
        assert_eq!(recipients_of(meta.alert_recipients(WEEK).unwrap(), site), [(ann, true)], "{name}");

        // Bob asks for reports, Cat for alerts: each gets what it asked for, not the other.
        assert_eq!(meta.set_member_emails(site, bob, Some(true), None).unwrap(), Some((true, false)), "{name}");
        assert_eq!(meta.set_member_emails(site, cat, None, Some(true)).unwrap(), Some((false, true)), "{name}");
        assert_eq!(recipients_of(meta.report_recipients(WEEK).unwrap(), site), [(ann, true), (bob, false)], "{name}");
        assert_eq!(recipients_of(meta.alert_recipients(WEEK).unwrap(), site), [(ann, true), (cat, false)], "{name}");
        // Asking on one site says nothing of another, and a non-member has no choice to make.
        assert!(recipients_of(meta.report_recipients(WEEK).unwrap(), other_site).iter().all(|r| r.0 == dan));
        assert_eq!(meta.set_member_emails(other_site, bob, Some(true), Some(true)).unwrap(), None, "{name}");
        assert_eq!(meta.member_emails(other_site, bob).unwrap(), None, "{name}");
        assert_eq!(meta.member_emails(site, ann).unwrap(), None, "{name}: the owner is not a member");

        // A member's own claim is theirs: the owner's report does not stand for it, nor block it.
        let report = |user| EmailClaim { kind: EmailKind::WeeklyReport, site, user, period: WEEK, at: WEEK + 1 };
        assert!(meta.claim_email(&report(ann), None).unwrap(), "{name}");
        assert!(!meta.claim_email(&report(cat), None).unwrap(), "{name}: cat did not ask for reports");
        assert_eq!(recipients_of(meta.report_recipients(WEEK).unwrap(), site), [(bob, false)], "{name}");
        assert!(meta.claim_email(&report(bob), None).unwrap(), "{name}");
        assert!(!meta.claim_email(&report(bob), None).unwrap(), "{name}: once");

        // A member who turned the choice off since the list was read, or was removed, gets nothing.
        let alert = |user, at| EmailClaim { kind: EmailKind::SpikeAlert, site, user, period: at, at };
        let listed = recipients_of(meta.alert_recipients(WEEK).unwrap(), site);
        assert_eq!(listed, [(ann, true), (cat, false)], "{name}");
        assert!(meta.delete_member(site, cat).unwrap(), "{name}");
        assert!(!meta.claim_email(&alert(cat, WEEK + 5), Some(WEEK)).unwrap(), "{name}: removed after the list");
        assert_eq!(recipients_of(meta.alert_recipients(WEEK).unwrap(), site), [(ann, true)], "{name}");
        meta.set_member_emails(site, bob, Some(false), Some(true)).unwrap();
        meta.set_member_emails(site, bob, None, Some(false)).unwrap();
        assert!(!meta.claim_email(&alert(bob, WEEK + 6), Some(WEEK)).unwrap(), "{name}: bob turned alerts off");

        // An unconfirmed member address gets nothing, whatever it asked for.
        meta.set_member_emails(site, bob, Some(true), Some(true)).unwrap();
        assert_eq!(recipients_of(meta.alert_recipients(WEEK).unwrap(), site), [(ann, true), (bob, false)], "{name}");
        meta.set_email(bob, "bob.new@example.com").unwrap();
        assert_eq!(recipients_of(meta.alert_recipients(WEEK).unwrap(), site), [(ann, true)], "{name}");
    }
}

#[test]
fn each_recipient_has_its_own_alert_quiet_period_on_each_engine() {
    const QUIET: Millis = 6 * 3_600_000;
    for engine in engines() {
        let (meta, name) = (&engine.meta, engine.name);
        let (ann, site) = owner_and_site(meta, "ann@example.com");
        let bob = member_of(meta, site, ann, "bob@example.com", Role::Editor);
        meta.set_member_emails(site, bob, None, Some(true)).unwrap();
        let alert = |user, at: Millis| EmailClaim { kind: EmailKind::SpikeAlert, site, user, period: at, at };
        assert!(meta.claim_email(&alert(ann, WEEK), Some(WEEK - QUIET)).unwrap(), "{name}");
        // The owner's alert does not use up the member's: a minute later the member's is still due.
        let later = WEEK + 60_000;
        assert_eq!(recipients_of(meta.alert_recipients(later - QUIET).unwrap(), site), [(bob, false)], "{name}");
        assert!(meta.claim_email(&alert(bob, later), Some(later - QUIET)).unwrap(), "{name}");
        assert!(!meta.claim_email(&alert(ann, later), Some(later - QUIET)).unwrap(), "{name}: ann is quiet");
        assert!(!meta.claim_email(&alert(bob, later + 1), Some(later + 1 - QUIET)).unwrap(), "{name}: so is bob");
        assert!(recipients_of(meta.alert_recipients(later - QUIET).unwrap(), site).is_empty(), "{name}");
    }
}
