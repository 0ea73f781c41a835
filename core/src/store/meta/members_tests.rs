//! Site members on each metadata engine (SQLite always, PostgreSQL when the harness is up), through `Members`
//! and `Websites` as the daemon calls them: an invitation accepted once by its own address only, the role
//! checks (a non-member not found, a role too low forbidden), role changes and their limits, removal counting
//! at once, and a site's or an account's deletion taking the memberships with it.

use std::net::IpAddr;

use super::testing::engines;
use crate::auth::Auth;
use crate::config::{Config, RegistrationMode};
use crate::error::Error;
use crate::model::{Caller, Role};
use crate::settings::Settings;
use crate::store::members::{MemberEmails, Members};
use crate::store::websites::{NewWebsite, Websites};

const SECRET: &[u8] = b"a test signing secret of 32 bytes or more";

#[test]
fn a_member_reaches_a_site_with_its_role_until_removed_on_each_engine() {
    for engine in engines() {
        let name = engine.name;
        let settings = Settings::new(Config::default());
        let auth = Auth::new(engine.meta.clone(), SECRET, settings.clone(), None);
        let websites = Websites::new(engine.meta.clone());
        let members = Members::new(engine.meta.clone(), websites.clone(), settings);
        // Accounts the operator makes count as confirmed: their invitations show without a token.
        let ann = auth.create_user("ann@example.com", "secret1").unwrap().id;
        let bob = auth.create_user("Bob@Example.com", "secret1").unwrap().id;
        let eve = auth.create_user("eve@example.com", "secret1").unwrap().id;
        let new = NewWebsite { name: "Shop".into(), domain: "shop.example.com".into(), tracking_level: None };
        let site = websites.create(ann, new).unwrap().id;

        // A stranger: not found, whatever the call needs.
        assert!(matches!(websites.get(bob, site), Err(Error::NotFound(_))), "{name}");
        let created =
            members.invite(Caller::new(ann, Role::Admin), site, "bob@example.com", "viewer", "http://x").unwrap();
        assert!(!created.emailed && created.link.as_deref().is_some_and(|l| l.contains("#id=")), "{name}");
        assert!(members.pending_for(eve).unwrap().is_empty(), "{name}");
        let pending = members.pending_for(bob).unwrap();
        assert_eq!(pending.iter().map(|i| (i.website_id, i.role)).collect::<Vec<_>>(), [(site, Role::Viewer)]);

        // Another account cannot take it, even with its id; its own address can, once.
        let id = created.invitation.id;
        assert!(matches!(members.accept(eve, id, None), Err(Error::NotFound(_))), "{name}");
        let (joined, role) = members.accept(bob, id, None).unwrap();
        assert_eq!((joined.id, role), (site, Role::Viewer), "{name}");
        assert!(matches!(members.accept(bob, id, None), Err(Error::NotFound(_))), "{name}: single use");

        // A viewer reads, and is forbidden what needs more; the site shows among its sites with its role.
        assert_eq!(websites.get(bob, site).unwrap().id, site, "{name}");
        assert!(matches!(websites.get(Caller::new(bob, Role::Editor), site), Err(Error::Forbidden(_))), "{name}");
        let visible = websites.visible(bob).unwrap();
        assert_eq!(visible.iter().map(|(w, r)| (w.id, *r)).collect::<Vec<_>>(), [(site, Role::Viewer)]);
        assert!(websites.list(bob).unwrap().is_empty(), "{name}: it owns none");

        // Roles: nobody changes their own, nobody makes an owner, the owner's is nobody's to change.
        let own = members.set_role(Caller::new(bob, Role::Viewer), site, bob, "admin");
        assert!(matches!(own, Err(Error::Forbidden(_))), "{name}: {own:?}");
        let owner = members.set_role(Caller::new(ann, Role::Admin), site, bob, "owner");
        assert!(matches!(owner, Err(Error::Invalid(_))), "{name}: {owner:?}");
        let changed = members.set_role(Caller::new(ann, Role::Admin), site, bob, "admin").unwrap();
        assert_eq!(changed.role, Role::Admin, "{name}");
        let on_owner = members.set_role(Caller::new(bob, Role::Admin), site, ann, "viewer");
        assert!(matches!(on_owner, Err(Error::Forbidden(_))), "{name}: {on_owner:?}");
        assert!(matches!(members.remove(Caller::new(bob, Role::Admin), site, ann), Err(Error::Forbidden(_))));
        let listed = members.list(ann, site).unwrap();
        let roles: Vec<_> = listed.members.iter().map(|m| (m.member_id, m.role)).collect();
        assert_eq!(roles, [(ann, Role::Owner), (bob, Role::Admin)], "{name}");

        // Removal counts at once.
        members.remove(Caller::new(ann, Role::Admin), site, bob).unwrap();
        assert!(matches!(websites.get(bob, site), Err(Error::NotFound(_))), "{name}");
        assert!(websites.visible(bob).unwrap().is_empty(), "{name}");

        // A site's deletion takes its members and invitations; an account's deletion its memberships.
        let again = members.invite(Caller::new(ann, Role::Admin), site, "bob@example.com", "editor", "http://x");
        members.accept(bob, again.unwrap().invitation.id, None).unwrap();
        members.invite(Caller::new(ann, Role::Admin), site, "eve@example.com", "viewer", "http://x").unwrap();
        auth.remove_user(bob).unwrap();
        assert_eq!(members.list(ann, site).unwrap().members.len(), 1, "{name}");
        websites.delete(ann, site).unwrap();
        assert!(members.pending_for(eve).unwrap().is_empty(), "{name}");
    }
}

#[test]
fn an_unconfirmed_address_accepts_with_the_links_token_only_on_each_engine() {
    for engine in engines() {
        let name = engine.name;
        let settings = Settings::new(Config { registration: RegistrationMode::Open, ..Config::default() });
        let auth = Auth::new(engine.meta.clone(), SECRET, settings.clone(), None);
        let websites = Websites::new(engine.meta.clone());
        let members = Members::new(engine.meta.clone(), websites.clone(), settings);
        let ann = auth.create_user("ann@example.com", "secret1").unwrap().id;
        // Signed up from the dashboard: the address is not confirmed.
        let bob = auth.register("bob@example.com", "secret1", IpAddr::from([127, 0, 0, 1])).unwrap().user.id;
        let new = NewWebsite { name: "Shop".into(), domain: "shop.example.com".into(), tracking_level: None };
        let site = websites.create(ann, new).unwrap().id;
        let created = members.invite(Caller::new(ann, Role::Admin), site, "bob@example.com", "editor", "").unwrap();
        let link = created.link.unwrap();
        let token = link.split("token=").nth(1).unwrap();
        assert!(members.pending_for(bob).unwrap().is_empty(), "{name}: an unconfirmed address lists none");
        let id = created.invitation.id;
        assert!(matches!(members.accept(bob, id, None), Err(Error::NotFound(_))), "{name}");
        assert!(matches!(members.accept(bob, id, Some("not-the-token")), Err(Error::NotFound(_))), "{name}");
        assert_eq!(members.accept(bob, id, Some(token)).unwrap().1, Role::Editor, "{name}");
    }
}

#[test]
fn the_owner_hands_a_site_to_an_admin_and_becomes_one_on_each_engine() {
    for engine in engines() {
        let name = engine.name;
        let settings = Settings::new(Config::default());
        let auth = Auth::new(engine.meta.clone(), SECRET, settings.clone(), None);
        let websites = Websites::new(engine.meta.clone());
        let members = Members::new(engine.meta.clone(), websites.clone(), settings);
        let ann = auth.create_user("ann@example.com", "secret1").unwrap().id;
        let bob = auth.create_user("bob@example.com", "secret1").unwrap().id;
        let eve = auth.create_user("eve@example.com", "secret1").unwrap().id;
        let new = NewWebsite { name: "Shop".into(), domain: "shop.example.com".into(), tracking_level: None };
        let site = websites.create(ann, new).unwrap().id;
        for (email, role) in [("bob@example.com", "editor"), ("eve@example.com", "admin")] {
            let created = members.invite(Caller::new(ann, Role::Admin), site, email, role, "").unwrap();
            let user = if email.starts_with("bob") { bob } else { eve };
            members.accept(user, created.invitation.id, None).unwrap();
        }

        // Only the owner hands over, only to an admin, never to itself or a stranger.
        let by_admin = members.hand_over(Caller::new(eve, Role::Admin), site, eve);
        assert!(matches!(by_admin, Err(Error::Forbidden(_))), "{name}: {by_admin:?}");
        let to_editor = members.hand_over(Caller::new(ann, Role::Owner), site, bob);
        assert!(matches!(to_editor, Err(Error::Conflict(_))), "{name}: {to_editor:?}");
        let to_self = members.hand_over(Caller::new(ann, Role::Owner), site, ann);
        assert!(matches!(to_self, Err(Error::Conflict(_))), "{name}: {to_self:?}");
        let stranger = auth.create_user("sam@example.com", "secret1").unwrap().id;
        let to_stranger = members.hand_over(Caller::new(ann, Role::Owner), site, stranger);
        assert!(matches!(to_stranger, Err(Error::NotFound(_))), "{name}: {to_stranger:?}");

        let team = members.hand_over(Caller::new(ann, Role::Owner), site, eve).unwrap();
        let roles: Vec<_> = team.members.iter().map(|m| (m.member_id, m.role)).collect();
        assert_eq!(roles, [(eve, Role::Owner), (bob, Role::Editor), (ann, Role::Admin)], "{name}");
        assert_eq!(websites.access(eve, site).unwrap().1, Role::Owner, "{name}");
        assert_eq!(websites.access(ann, site).unwrap().1, Role::Admin, "{name}");
        // Ann's account had Weekly Reports on and Real-time Alerts off: as a member she keeps the same emails.
        let kept = members.emails(ann, site).unwrap();
        assert_eq!(kept, MemberEmails { reports: true, alerts: false, follows_account: false }, "{name}");
        assert_eq!(websites.list(eve).unwrap().iter().map(|w| w.id).collect::<Vec<_>>(), [site], "{name}");
        assert!(websites.list(ann).unwrap().is_empty(), "{name}");
        // The old owner cannot take it back; the new one can hand it back.
        let back = members.hand_over(Caller::new(ann, Role::Owner), site, ann);
        assert!(matches!(back, Err(Error::Forbidden(_))), "{name}: {back:?}");
        members.hand_over(Caller::new(eve, Role::Owner), site, ann).unwrap();
        assert_eq!(websites.access(ann, site).unwrap().1, Role::Owner, "{name}");

        // A new owner tracking the same domain already would track it twice: refused, nothing changed.
        let own = NewWebsite { name: "Own".into(), domain: "shop.example.com".into(), tracking_level: None };
        websites.create(eve, own).unwrap();
        let twice = members.hand_over(Caller::new(ann, Role::Owner), site, eve);
        assert!(matches!(twice, Err(Error::Conflict(_))), "{name}: {twice:?}");
        assert_eq!(websites.access(ann, site).unwrap().1, Role::Owner, "{name}");
        assert_eq!(websites.access(eve, site).unwrap().1, Role::Admin, "{name}");
    }
}

#[test]
fn a_members_email_choice_is_its_own_and_the_owners_is_the_accounts_on_each_engine() {
    for engine in engines() {
        let name = engine.name;
        let settings = Settings::new(Config::default());
        let auth = Auth::new(engine.meta.clone(), SECRET, settings.clone(), None);
        let websites = Websites::new(engine.meta.clone());
        let members = Members::new(engine.meta.clone(), websites.clone(), settings);
        let ann = auth.create_user("ann@example.com", "secret1").unwrap().id;
        let bob = auth.create_user("bob@example.com", "secret1").unwrap().id;
        let eve = auth.create_user("eve@example.com", "secret1").unwrap().id;
        let new = NewWebsite { name: "Shop".into(), domain: "shop.example.com".into(), tracking_level: None };
        let site = websites.create(ann, new).unwrap().id;
        let invited = members.invite(Caller::new(ann, Role::Admin), site, "bob@example.com", "viewer", "").unwrap();
        members.accept(bob, invited.invitation.id, None).unwrap();

        // A viewer starts with neither and turns on what it wants, the rest kept.
        let none = MemberEmails { reports: false, alerts: false, follows_account: false };
        assert_eq!(members.emails(bob, site).unwrap(), none, "{name}");
        let chosen = members.set_emails(bob, site, Some(true), None).unwrap();
        assert_eq!(chosen, MemberEmails { reports: true, ..none }, "{name}");
        assert_eq!(members.emails(bob, site).unwrap(), chosen, "{name}");

        // The owner's are the account's switches (weekly reports on, alerts off by default), not set here.
        let owner = members.emails(ann, site).unwrap();
        assert_eq!(owner, MemberEmails { reports: true, alerts: false, follows_account: true }, "{name}");
        assert!(matches!(members.set_emails(ann, site, Some(false), None), Err(Error::Conflict(_))), "{name}");

        // A stranger, or a member once removed, finds no site.
        assert!(matches!(members.emails(eve, site), Err(Error::NotFound(_))), "{name}");
        assert!(matches!(members.set_emails(eve, site, Some(true), None), Err(Error::NotFound(_))), "{name}");
        members.remove(Caller::new(ann, Role::Admin), site, bob).unwrap();
        assert!(matches!(members.set_emails(bob, site, None, Some(true)), Err(Error::NotFound(_))), "{name}");
    }
}
