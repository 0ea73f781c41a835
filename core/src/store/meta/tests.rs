//! The same test bodies on each metadata engine: SQLite always, PostgreSQL when the harness is up. They go
//! through the services (`Auth`, `Websites`, `Account`) as the daemon does, so what is checked is the
//! behaviour a user sees, whichever store holds the rows.

use std::net::{IpAddr, Ipv4Addr};

use super::testing::{Engine, engines};
use crate::account::{Account, NotificationsUpdate, RECENT_SIGN_INS};
use crate::auth::{Auth, Login};
use crate::config::Config;
use crate::error::Error;
use crate::events::Filters;
use crate::model::TrackingLevel;
use crate::privacy::{Actor, AuditAction, Privacy, PrivacySettings, PrivacyUpdate};
use crate::settings::Settings;
use crate::store::websites::{NewWebsite, WebsiteChanges, Websites};

const CLIENT: IpAddr = IpAddr::V4(Ipv4Addr::LOCALHOST);
const SECRET: &[u8] = b"a test signing secret of 32 bytes or more";

struct Services {
    auth: Auth,
    websites: Websites,
    account: Account,
    privacy: Privacy,
}

fn services(engine: &Engine) -> Services {
    let settings = Settings::new(Config::default());
    Services {
        auth: Auth::new(engine.meta.clone(), SECRET, settings.clone(), None),
        websites: Websites::new(engine.meta.clone()),
        account: Account::new(engine.meta.clone(), settings),
        privacy: Privacy::new(engine.db.clone(), engine.meta.clone()),
    }
}

fn site(name: &str) -> NewWebsite {
    NewWebsite { name: name.into(), domain: format!("{name}.example.com"), tracking_level: None }
}

fn session(auth: &Auth, email: &str, password: &str) -> crate::auth::AuthSession {
    match auth.login(email, password, None, CLIENT).unwrap() {
        Login::Session(session) => session,
        other => panic!("expected a session, got {other:?}"),
    }
}

#[test]
fn an_email_is_taken_whatever_its_case_on_each_engine() {
    for engine in engines() {
        let s = services(&engine);
        let first = s.auth.create_user("Ann@Example.com", "secret1").unwrap();
        let again = s.auth.create_user("ann@example.COM", "secret2");
        assert!(matches!(again, Err(Error::Conflict(_))), "{}: {again:?}", engine.name);
        let other = s.auth.create_user("bob@example.com", "secret1").unwrap();
        let principal = s.auth.authenticate(&session(&s.auth, "bob@example.com", "secret1").access_token).unwrap();
        let taken = s.auth.change_email(principal, "ANN@example.com", "secret1", CLIENT);
        assert!(matches!(taken, Err(Error::Conflict(_))), "{}: {taken:?}", engine.name);
        assert_eq!(s.auth.find_user("ann@EXAMPLE.com").unwrap().id, first.id, "{}", engine.name);
        assert_eq!(s.auth.list_users().unwrap().len(), 2, "{}", engine.name);
        assert_eq!(s.auth.user(other.id).unwrap().email, "bob@example.com", "{}", engine.name);
    }
}

#[test]
fn a_deleted_accounts_tokens_no_longer_refresh_on_each_engine() {
    for engine in engines() {
        let s = services(&engine);
        let user = s.auth.create_user("gone@example.com", "secret1").unwrap();
        let signed_in = session(&s.auth, "gone@example.com", "secret1");
        let refreshed = s.auth.refresh(&signed_in.refresh_token).unwrap();
        s.auth.authenticate(&refreshed.access_token).unwrap();
        s.auth.remove_user(user.id).unwrap();
        let refused = s.auth.refresh(&refreshed.refresh_token);
        assert!(matches!(refused, Err(Error::Unauthorized(_))), "{}: {refused:?}", engine.name);
        let refused = s.auth.authenticate(&refreshed.access_token);
        assert!(matches!(refused, Err(Error::InvalidToken(_))), "{}: {refused:?}", engine.name);
    }
}

#[test]
fn a_rotated_token_presented_again_ends_its_sign_in_on_each_engine() {
    for engine in engines() {
        let s = services(&engine);
        s.auth.create_user("rot@example.com", "secret1").unwrap();
        let first = session(&s.auth, "rot@example.com", "secret1");
        let second = s.auth.refresh(&first.refresh_token).unwrap();
        let third = s.auth.refresh(&second.refresh_token).unwrap();
        // The first token's successor has been used: presenting it again is a stolen copy, not two tabs.
        assert!(s.auth.refresh(&first.refresh_token).is_err(), "{}", engine.name);
        assert!(s.auth.refresh(&third.refresh_token).is_err(), "{}: the sign-in is revoked", engine.name);
        assert!(s.auth.authenticate(&third.access_token).is_err(), "{}", engine.name);
        // Logout of another sign-in, and a password change, end theirs.
        let other = session(&s.auth, "rot@example.com", "secret1");
        s.auth.logout(&other.refresh_token).unwrap();
        assert!(s.auth.refresh(&other.refresh_token).is_err(), "{}", engine.name);
        let kept = session(&s.auth, "rot@example.com", "secret1");
        let principal = s.auth.authenticate(&kept.access_token).unwrap();
        let fresh = s.auth.change_password(principal, "secret1", "secret2", CLIENT).unwrap();
        assert!(s.auth.authenticate(&kept.access_token).is_err(), "{}", engine.name);
        assert!(s.auth.refresh(&kept.refresh_token).is_err(), "{}", engine.name);
        s.auth.authenticate(&fresh.access_token).unwrap();
        assert!(matches!(s.auth.login("rot@example.com", "secret1", None, CLIENT), Err(Error::Unauthorized(_))));
    }
}

#[test]
fn a_token_presented_again_gets_its_one_successor_within_the_grace_and_revokes_past_it_on_each_engine() {
    use sha2::Digest;
    for engine in engines() {
        let s = services(&engine);
        let name = engine.name;
        s.auth.create_user("tabs@example.com", "secret1").unwrap();
        // Two tabs (or a page and its reload) refreshing with one token: the same successor for both, new
        // access tokens that work, and the sign-in goes on with that one successor.
        let first = session(&s.auth, "tabs@example.com", "secret1");
        let a = s.auth.refresh(&first.refresh_token).unwrap();
        let b = s.auth.refresh(&first.refresh_token).unwrap();
        assert_eq!(a.refresh_token, b.refresh_token, "{name}: one successor");
        s.auth.authenticate(&a.access_token).unwrap();
        s.auth.authenticate(&b.access_token).unwrap();
        let next = s.auth.refresh(&b.refresh_token).unwrap();
        s.auth.authenticate(&next.access_token).unwrap();
        s.auth.authenticate(&a.access_token).unwrap();
        // Past the grace a used token is a copy in other hands, even while its successor is unused.
        let other = session(&s.auth, "tabs@example.com", "secret1");
        let successor = s.auth.refresh(&other.refresh_token).unwrap();
        let late = crate::model::now_ms() + crate::auth::REFRESH_REUSE_GRACE_MS + 1_000;
        let hash = sha2::Sha256::digest(other.refresh_token.as_bytes()).to_vec();
        let rotation = engine.meta.rotate_refresh_token(&hash, &[7; 32], late, late + 86_400_000).unwrap();
        assert!(matches!(rotation, super::Rotation::Revoked { .. }), "{name}: {rotation:?}");
        assert!(s.auth.refresh(&successor.refresh_token).is_err(), "{name}: the sign-in is revoked");
        assert!(s.auth.authenticate(&successor.access_token).is_err(), "{name}");
        // The other sign-in is untouched.
        s.auth.authenticate(&next.access_token).unwrap();
    }
}

#[test]
fn another_accounts_website_is_not_found_on_each_engine() {
    for engine in engines() {
        let s = services(&engine);
        let owner = s.auth.create_user("owner@example.com", "secret1").unwrap();
        let other = s.auth.create_user("other@example.com", "secret1").unwrap();
        let theirs = s.websites.create(owner.id, site("theirs")).unwrap();
        let mine = s.websites.create(other.id, site("mine")).unwrap();
        let name = engine.name;
        assert!(matches!(s.websites.get(other.id, theirs.id), Err(Error::NotFound(_))), "{name}");
        let change = WebsiteChanges { name: Some("taken".into()), ..WebsiteChanges::default() };
        assert!(matches!(s.websites.update(other.id, theirs.id, change), Err(Error::NotFound(_))), "{name}");
        assert!(matches!(s.websites.delete(other.id, theirs.id), Err(Error::NotFound(_))), "{name}");
        assert_eq!(s.websites.list(other.id).unwrap(), vec![mine.clone()], "{name}");
        // The owner's site is untouched and reachable every way the services reach it.
        assert_eq!(s.websites.get(owner.id, theirs.id).unwrap(), theirs, "{name}");
        assert_eq!(s.websites.by_tracking_key(&theirs.tracking_key).unwrap(), theirs, "{name}");
        assert_eq!(s.websites.find("theirs.example.com").unwrap(), theirs, "{name}");
        let change = WebsiteChanges {
            name: Some("Renamed".into()),
            domain_only: Some(true),
            tracking_level: Some(crate::model::TrackingLevel::Professional),
            ..WebsiteChanges::default()
        };
        let updated = s.websites.update(owner.id, theirs.id, change).unwrap();
        assert_eq!(s.websites.get_any(theirs.id).unwrap(), updated, "{name}");
        assert_eq!(s.websites.list_all().unwrap().len(), 2, "{name}");
    }
}

#[test]
fn ids_are_not_reused_after_deletion_on_each_engine() {
    for engine in engines() {
        let s = services(&engine);
        let user = s.auth.create_user("first@example.com", "secret1").unwrap();
        let site_a = s.websites.create(user.id, site("a")).unwrap();
        s.websites.delete(user.id, site_a.id).unwrap();
        let site_b = s.websites.create(user.id, site("b")).unwrap();
        assert!(site_b.id > site_a.id, "{}: site id {} reused", engine.name, site_a.id);
        s.auth.remove_user(user.id).unwrap();
        assert!(s.websites.list_all().unwrap().is_empty(), "{}: sites go with their account", engine.name);
        let next = s.auth.create_user("first@example.com", "secret1").unwrap();
        assert!(next.id > user.id, "{}: account id {} reused", engine.name, user.id);
        let refused = s.websites.create(user.id, site("c"));
        assert!(matches!(refused, Err(Error::Unauthorized(_))), "{}: {refused:?}", engine.name);
    }
}

#[test]
fn account_settings_and_sign_ins_on_each_engine() {
    for engine in engines() {
        let s = services(&engine);
        let name = engine.name;
        let user = s.auth.create_user("set@example.com", "secret1").unwrap();
        let profile = s.account.update_profile(user.id, " Ann ", "Acme", "Europe/Paris").unwrap();
        assert_eq!((profile.name.as_str(), profile.timezone.as_str()), ("Ann", "Europe/Paris"), "{name}");
        let update = NotificationsUpdate { marketing_emails: Some(true), ..NotificationsUpdate::default() };
        let notifications = s.account.update_notifications(user.id, update).unwrap();
        assert!(notifications.marketing_emails && notifications.weekly_reports, "{name}");
        for _ in 0..RECENT_SIGN_INS + 2 {
            s.account.record_sign_in(user.id, CLIENT, "Firefox").unwrap();
        }
        assert_eq!(s.account.settings(user.id).unwrap().recent_sign_ins.len(), RECENT_SIGN_INS, "{name}");
        let security = s.account.update_security(user.id, Some(60), Some(false)).unwrap();
        assert_eq!((security.session_timeout, security.login_notifications), (60, false), "{name}");
        let settings = s.account.settings(user.id).unwrap();
        assert!(settings.recent_sign_ins.is_empty(), "{name}: turning notifications off forgets them");
        assert_eq!(settings.profile.company, "Acme", "{name}");
        s.account.record_sign_in(user.id, CLIENT, "Firefox").unwrap();
        assert!(s.account.settings(user.id).unwrap().recent_sign_ins.is_empty(), "{name}: not recorded when off");
        s.auth.remove_user(user.id).unwrap();
        assert!(matches!(s.account.settings(user.id), Err(Error::Unauthorized(_))), "{name}");
    }
}

#[test]
fn two_factor_codes_are_used_once_on_each_engine() {
    for engine in engines() {
        let s = services(&engine);
        let name = engine.name;
        s.auth.create_user("tf@example.com", "secret1").unwrap();
        let principal = s.auth.authenticate(&session(&s.auth, "tf@example.com", "secret1").access_token).unwrap();
        let other = session(&s.auth, "tf@example.com", "secret1");
        let wrong = s.auth.begin_two_factor(principal, "guess!!", CLIENT);
        assert!(matches!(wrong, Err(Error::Unauthorized(_))), "{name}: {wrong:?}");
        let setup = s.auth.begin_two_factor(principal, "secret1", CLIENT).unwrap();
        let secret = totp_rs::Secret::Encoded(setup.secret).to_bytes().unwrap();
        let totp = totp_rs::TOTP::new(totp_rs::Algorithm::SHA1, 6, 1, 30, secret, None, String::new()).unwrap();
        let code = totp.generate_current().unwrap();
        let wrong = s.auth.enable_two_factor(principal, "guess!!", &code, CLIENT);
        assert!(matches!(wrong, Err(Error::Unauthorized(_))), "{name}: {wrong:?}");
        let codes = s.auth.enable_two_factor(principal, "secret1", &code, CLIENT).unwrap();
        assert_eq!(s.auth.recovery_codes_left(principal.user).unwrap(), codes.len() as i64, "{name}");
        // Every other sign-in ended with it; the caller's goes on.
        assert!(s.auth.authenticate(&other.access_token).is_err(), "{name}");
        assert!(s.auth.refresh(&other.refresh_token).is_err(), "{name}");
        s.auth.still_valid(principal).unwrap();
        let asked = s.auth.login("tf@example.com", "secret1", None, CLIENT).unwrap();
        assert!(matches!(asked, Login::CodeRequired { .. }), "{name}");
        // The code that enabled it was used: the same step is refused; a recovery code works once.
        let reused = s.auth.login("tf@example.com", "secret1", Some(&code), CLIENT);
        assert!(reused.is_err(), "{name}");
        assert!(matches!(s.auth.login("tf@example.com", "secret1", Some(&codes[0]), CLIENT), Ok(Login::Session(_))));
        assert!(s.auth.login("tf@example.com", "secret1", Some(&codes[0]), CLIENT).is_err(), "{name}");
        assert_eq!(s.auth.recovery_codes_left(principal.user).unwrap(), codes.len() as i64 - 1, "{name}");
        assert!(engine.meta.plain_secrets(b"tk1").unwrap().is_empty(), "{name}: the secret is stored sealed");
        let no_code = s.auth.disable_two_factor(principal, "secret1", "", CLIENT);
        assert!(matches!(no_code, Err(Error::Invalid(_))), "{name}: {no_code:?}");
        s.auth.disable_two_factor(principal, "secret1", &codes[1], CLIENT).unwrap();
        assert!(matches!(s.auth.login("tf@example.com", "secret1", None, CLIENT), Ok(Login::Session(_))));
        let audit = s.auth.account_audit(principal.user).unwrap();
        let actions: Vec<(&str, &str)> = audit.iter().map(|e| (e.actor.as_str(), e.action.as_str())).collect();
        assert_eq!(actions, [("tf@example.com", "two_factor_disabled"), ("tf@example.com", "two_factor_enabled")]);
        assert_eq!(audit[1].detail, serde_json::json!({"signInsEnded": 1}), "{name}");
        // A secret stored in plain form (as before sealing) is found, and resealed only while still plain.
        engine.meta.set_pending_secret(principal.user, b"plain secret").unwrap();
        assert_eq!(engine.meta.plain_secrets(b"tk1").unwrap(), vec![(principal.user, b"plain secret".to_vec())]);
        engine.meta.reseal_secret(principal.user, b"another secret", b"tk1 not this").unwrap();
        engine.meta.reseal_secret(principal.user, b"plain secret", b"tk1 sealed").unwrap();
        assert!(engine.meta.plain_secrets(b"tk1").unwrap().is_empty(), "{name}");
        let stored = engine.meta.two_factor(principal.user).unwrap().unwrap().secret;
        assert_eq!(stored.as_deref(), Some(&b"tk1 sealed"[..]), "{name}");
        // The operator's reset clears the (pending) secret, ends every sign-in and is recorded.
        assert_eq!(s.auth.reset_two_factor(principal.user).unwrap(), 3, "{name}: the caller's and two later logins");
        assert!(engine.meta.two_factor(principal.user).unwrap().unwrap().secret.is_none(), "{name}");
        assert!(s.auth.still_valid(principal).is_err(), "{name}");
        let latest = &s.auth.account_audit(principal.user).unwrap()[0];
        assert_eq!((latest.actor.as_str(), latest.action.as_str()), ("cli", "two_factor_reset"), "{name}");
        assert!(matches!(s.auth.reset_two_factor(principal.user), Err(Error::Conflict(_))), "{name}");
    }
}

#[test]
fn event_definitions_of_a_site_on_each_engine() {
    use crate::store::event_definitions::{EventDefinitions, MAX_DEFINITIONS, NewEventDefinition};
    let named = |name: &str| NewEventDefinition {
        name: Some(name.into()),
        display_name: Some(format!("The {name}")),
        event_type: Some("click".into()),
        selector: Some("#buy".into()),
        is_conversion: Some(true),
        conversion_value: Some(serde_json::json!(49.99)),
        ..NewEventDefinition::default()
    };
    for engine in engines() {
        let s = services(&engine);
        let events = EventDefinitions::new(engine.meta.clone());
        let name = engine.name;
        let user = s.auth.create_user("ev@example.com", "secret1").unwrap();
        let a = s.websites.create(user.id, site("a")).unwrap().id;
        let b = s.websites.create(user.id, site("b")).unwrap().id;
        let buy = events.create(a, named("buy")).unwrap();
        assert_eq!(buy.conversion_value.as_deref(), Some("49.99"), "{name}");
        assert!(matches!(events.create(a, named("buy")), Err(Error::Conflict(_))), "{name}");
        let other = events.create(b, named("buy")).unwrap();
        let signup = events.create(a, named("signup")).unwrap();
        assert_eq!(events.list(a).unwrap(), vec![signup.clone(), buy.clone()], "{name}: newest first");
        assert!(matches!(events.get(a, other.id), Err(Error::NotFound(_))), "{name}: another site's id");
        assert!(matches!(events.delete(a, other.id), Err(Error::NotFound(_))), "{name}");
        let rename = NewEventDefinition { name: Some("buy".into()), ..NewEventDefinition::default() };
        assert!(matches!(events.update(a, signup.id, rename), Err(Error::Conflict(_))), "{name}");
        let off = NewEventDefinition { is_active: Some(false), ..NewEventDefinition::default() };
        assert!(!events.update(a, signup.id, off).unwrap().is_active, "{name}");
        assert_eq!(events.active(a).unwrap().len(), 1, "{name}");
        events.delete(a, buy.id).unwrap();
        assert_eq!(events.list(a).unwrap().len(), 1, "{name}");
        for i in 1..MAX_DEFINITIONS {
            events.create(b, named(&format!("e{i}"))).unwrap();
        }
        let over = events.create(b, named("one too many"));
        assert!(matches!(over, Err(Error::Invalid(_))), "{name}: {over:?}");
        s.websites.delete(user.id, b).unwrap();
        assert!(events.list(b).unwrap().is_empty(), "{name}: definitions go with their site");
    }
}

/// Daemons racing: of first sign-ups at the same moment exactly one wins, and one email taken by several
/// sign-ups at once is stored once.
#[test]
fn racing_sign_ups_store_one_account_on_each_engine() {
    for engine in engines() {
        const RACERS: usize = 6;
        // Each racer takes a connection, then all wait for the others, so the inserts start together.
        let race = |email: fn(usize) -> String, only_first: bool| -> Vec<_> {
            let start = std::sync::Barrier::new(RACERS);
            std::thread::scope(|scope| {
                let handles: Vec<_> = (0..RACERS)
                    .map(|i| {
                        let (meta, start) = (engine.meta.clone(), &start);
                        scope.spawn(move || {
                            meta.any_user().unwrap();
                            start.wait();
                            meta.insert_user(&email(i), "hash", 1, only_first)
                        })
                    })
                    .collect();
                handles.into_iter().map(|h| h.join().unwrap()).collect()
            })
        };
        let first = race(|i| format!("first{i}@example.com"), true);
        let won = first.iter().filter(|r| matches!(r, Ok(Some(_)))).count();
        assert_eq!(won, 1, "{}: {first:?}", engine.name);
        assert!(first.iter().all(Result::is_ok), "{}: {first:?}", engine.name);
        let same = race(|_| "same@example.com".to_string(), false);
        let stored = same.iter().filter(|r| matches!(r, Ok(Some(_)))).count();
        assert_eq!(stored, 1, "{}: {same:?}", engine.name);
        assert!(same.iter().all(|r| matches!(r, Ok(Some(_)) | Err(Error::Conflict(_)))), "{}: {same:?}", engine.name);
        assert_eq!(engine.meta.list_users().unwrap().len(), 2, "{}", engine.name);
    }
}

#[test]
fn privacy_settings_and_their_audit_log_on_each_engine() {
    for engine in engines() {
        let s = services(&engine);
        let name = engine.name;
        let user = s.auth.create_user("owner@example.com", "secret1").unwrap();
        let light = s.websites.create(user.id, site("light")).unwrap();
        let pro = NewWebsite { tracking_level: Some(TrackingLevel::Professional), ..site("pro") };
        let pro = s.websites.create(user.id, pro).unwrap();
        assert_eq!(s.privacy.settings(light.id).unwrap(), PrivacySettings::default(), "{name}");
        assert!(s.privacy.settings(pro.id).unwrap().mask_all_text, "{name}: professional sites mask all text");

        let update = PrivacyUpdate {
            cookie_consent: Some(true),
            anonymize_ips: Some(false),
            respect_do_not_track: Some(false),
            data_retention_days: Some(30),
            data_processing_basis: Some("contract".into()),
            consent_message: Some("Bitte 'zustimmen' \\ ok".into()),
            privacy_policy_url: Some(" https://light.example.com/privacy ".into()),
            mask_all_text: Some(false),
            replay_remote_assets: Some(true),
            ..PrivacyUpdate::default()
        };
        let changed = s.privacy.update_settings(pro.id, update).unwrap();
        let stored = s.privacy.settings(pro.id).unwrap();
        assert_eq!(stored, changed, "{name}");
        assert!(stored.cookie_consent && !stored.anonymize_ips && !stored.respect_do_not_track, "{name}: {stored:?}");
        assert_eq!(stored.privacy_policy_url, "https://light.example.com/privacy", "{name}");
        assert_eq!((stored.mask_all_text, stored.mask_all_text_choice), (false, Some(false)), "{name}");
        assert!(stored.replay_remote_assets, "{name}: the replay player may load the recorded page's assets");
        // Absent fields stay; a bad value changes nothing.
        let update = PrivacyUpdate { respect_do_not_track: Some(true), ..PrivacyUpdate::default() };
        let again = s.privacy.update_settings(pro.id, update).unwrap();
        assert_eq!(again, PrivacySettings { respect_do_not_track: true, ..stored.clone() }, "{name}");
        let bad = PrivacyUpdate { data_retention_days: Some(0), cookie_consent: Some(false), ..Default::default() };
        assert!(matches!(s.privacy.update_settings(pro.id, bad), Err(Error::Invalid(_))), "{name}");
        assert_eq!(s.privacy.settings(pro.id).unwrap(), again, "{name}");
        assert_eq!(
            s.privacy.settings(light.id).unwrap(),
            PrivacySettings::default(),
            "{name}: other sites keep theirs"
        );

        // The audit log keeps who (the account's email, also after the account is gone) and what.
        let detail = serde_json::json!({"cookieConsent": true});
        s.privacy.record_audit(pro.id, Actor::User(user.id), AuditAction::SettingsChanged, detail.clone()).unwrap();
        s.privacy.record_audit(pro.id, Actor::Cli, AuditAction::RetentionChanged, serde_json::json!({})).unwrap();
        let page = s.privacy.audit_logs(pro.id, 0, 100).unwrap();
        assert_eq!(page.total, 2, "{name}");
        let entries: Vec<_> = page.entries.iter().map(|e| (e.actor.as_str(), e.action.as_str())).collect();
        assert!(entries.contains(&("owner@example.com", "settings_changed")), "{name}: {entries:?}");
        assert!(entries.contains(&("cli", "retention_changed")), "{name}: {entries:?}");
        assert_eq!(s.privacy.audit_logs(pro.id, 1, 1).unwrap().entries.len(), 1, "{name}");
        assert_eq!(s.privacy.audit_logs(light.id, 0, 100).unwrap().total, 0, "{name}");

        // Both go with their site.
        s.websites.delete(user.id, pro.id).unwrap();
        assert_eq!(s.privacy.audit_logs(pro.id, 0, 100).unwrap().total, 0, "{name}");
        assert_eq!(s.privacy.settings(pro.id).unwrap(), PrivacySettings::default(), "{name}");
    }
}

#[test]
fn consent_choices_and_retention_days_on_each_engine() {
    use crate::privacy::{ConsentData, ConsentRecord, ConsentType, Retention, RetentionUpdate};

    for engine in engines() {
        let s = services(&engine);
        let name = engine.name;
        let user = s.auth.create_user("owner@example.com", "secret1").unwrap();
        let (one, two) =
            (s.websites.create(user.id, site("one")).unwrap(), s.websites.create(user.id, site("two")).unwrap());
        let choice = |site: i64, key: &str, ts: i64, analytics: bool, marketing: bool| ConsentRecord {
            website_id: site,
            session_key: key.into(),
            ts,
            ip_address: (ts % 2 == 0).then(|| "198.51.100.0".to_string()),
            data: ConsentData { analytics, marketing },
        };
        // A batch in order: visitor a accepts then declines; a choice for a site that does not exist is
        // skipped, not a failure of the batch; a hostile key is one value.
        let stored = engine
            .meta
            .insert_consents(&[
                choice(one.id, "a", 1_000, true, true),
                choice(one.id, "b", 1_001, true, false),
                choice(one.id, "a", 1_002, false, false),
                choice(9_999, "a", 1_003, true, true),
                choice(two.id, "x' OR '1'='1", 1_004, true, true),
            ])
            .unwrap();
        assert_eq!(stored, [one.id, two.id].into_iter().collect(), "{name}");
        let keys = [(one.id, "a"), (one.id, "b"), (one.id, "never"), (two.id, "a"), (two.id, "x' OR '1'='1")];
        let keys: Vec<(i64, String)> = keys.iter().map(|(site, key)| (*site, key.to_string())).collect();
        let latest = engine.meta.latest_analytics_choices(&keys).unwrap();
        let expected = [((one.id, "a"), false), ((one.id, "b"), true), ((two.id, "x' OR '1'='1"), true)];
        let expected = expected.iter().map(|((site, key), choice)| ((*site, key.to_string()), *choice)).collect();
        assert_eq!(latest, expected, "{name}: the latest choice of each visit that made one");

        let logs = s.privacy.consent_logs(one.id).unwrap();
        let summary: Vec<_> = logs.iter().map(|l| (l.session_id.as_str(), l.consent_type, l.timestamp)).collect();
        assert_eq!(
            summary,
            [
                ("a", ConsentType::Declined, 1_002),
                ("b", ConsentType::Partial, 1_001),
                ("a", ConsentType::Accepted, 1_000)
            ],
            "{name}: newest first"
        );
        assert_eq!(logs[0].ip_address.as_deref(), Some("198.51.100.0"), "{name}");
        assert_eq!(logs[1].ip_address, None, "{name}");
        assert_eq!(logs[1].consent_data, ConsentData { analytics: true, marketing: false }, "{name}");
        let page: Vec<_> = s.privacy.consent_logs_page(one.id, 1, 1).unwrap().iter().map(|l| l.timestamp).collect();
        assert_eq!(page, [1_001], "{name}");
        assert_eq!(s.privacy.consent_logs(two.id).unwrap().len(), 1, "{name}");

        // One visitor's choices under its session ids, oldest first; erased, and no one else's with them.
        let keys = |list: &[&str]| list.iter().map(|k| k.to_string()).collect::<Vec<_>>();
        let of_a: Vec<_> = engine.meta.visitor_consents(one.id, &keys(&["a", "none"])).unwrap();
        assert_eq!(of_a.iter().map(|l| l.timestamp).collect::<Vec<_>>(), [1_000, 1_002], "{name}");
        assert_eq!(engine.meta.visitor_consents(two.id, &keys(&["a"])).unwrap(), [], "{name}: per site");
        assert_eq!(engine.meta.delete_visitor_consents(one.id, &keys(&["a", "x' OR '1'='1"])).unwrap(), 2, "{name}");
        assert_eq!(engine.meta.visitor_consents(one.id, &keys(&["a"])).unwrap(), [], "{name}");
        assert_eq!(s.privacy.consent_logs(one.id).unwrap().len(), 1, "{name}: b's choice stays");
        assert_eq!(s.privacy.consent_logs(two.id).unwrap().len(), 1, "{name}: the hostile key is one value");

        // Retention days: defaults, a change of some, a bad value changing nothing; other settings untouched.
        assert_eq!(s.privacy.retention(one.id).unwrap(), Retention::default(), "{name}");
        let consent = PrivacyUpdate { cookie_consent: Some(true), ..PrivacyUpdate::default() };
        s.privacy.update_settings(one.id, consent).unwrap();
        let update = RetentionUpdate { pageviews: Some(7), conversions: Some(30), ..RetentionUpdate::default() };
        let changed = s.privacy.update_retention(one.id, update).unwrap();
        let expected = Retention { pageviews: 7, conversions: 30, ..Retention::default() };
        assert_eq!((changed, s.privacy.retention(one.id).unwrap()), (expected, expected), "{name}");
        let bad = RetentionUpdate { events: Some(400), pageviews: Some(3), ..RetentionUpdate::default() };
        assert!(matches!(s.privacy.update_retention(one.id, bad), Err(Error::Invalid(_))), "{name}");
        assert_eq!(s.privacy.retention(one.id).unwrap(), expected, "{name}");
        assert!(s.privacy.settings(one.id).unwrap().cookie_consent, "{name}: the settings keep their values");
        // Settings saved after the days keep the days.
        s.privacy.update_settings(one.id, PrivacyUpdate { gdpr_compliant: Some(false), ..Default::default() }).unwrap();
        assert_eq!(s.privacy.retention(one.id).unwrap(), expected, "{name}");
        let all = engine.meta.all_retention().unwrap();
        assert_eq!(all, [(one.id, expected), (two.id, Retention::default())], "{name}");

        // Both go with their site.
        s.websites.delete(user.id, one.id).unwrap();
        assert_eq!(s.privacy.consent_logs(one.id).unwrap(), [], "{name}");
        assert_eq!(s.privacy.retention(one.id).unwrap(), Retention::default(), "{name}");
        assert_eq!(engine.meta.all_retention().unwrap(), [(two.id, Retention::default())], "{name}");
    }
}

#[test]
fn funnels_are_their_owners_alone_on_each_engine() {
    use crate::store::funnels::{FunnelInput, Funnels, StepInput};
    for engine in engines() {
        let s = services(&engine);
        // Figures of the engine's own kind: SQLite's stored hours name funnels of its own database.
        let cluster = (engine.name == "postgres").then(|| crate::cluster::testing::fresh().unwrap());
        let figures = match &cluster {
            Some(cluster) => crate::events::clickhouse_engine(cluster, &engine.db),
            None => crate::events::sqlite_engine(&engine.db, engine.meta.clone()),
        };
        let funnels = Funnels::new(engine.meta.clone(), figures, Websites::new(engine.meta.clone()));
        let ann = s.auth.create_user("ann@example.com", "secret1").unwrap();
        let bob = s.auth.create_user("bob@example.com", "secret1").unwrap();
        let ann_site = s.websites.create(ann.id, site("ann")).unwrap().id;
        let bob_site = s.websites.create(bob.id, site("bob")).unwrap().id;
        let step = |url: &str| StepInput { name: Some(url.into()), url: Some(url.into()), event_name: None };
        let input = |site: i64| FunnelInput {
            name: Some("Checkout".into()),
            website_id: Some(site.into()),
            steps: Some(vec![step("/cart"), step("https://ann.example.com/paid?x=1")]),
            status: None,
        };
        let range = crate::analytics::TimeRange::parse("30d", crate::model::now_ms()).unwrap();
        let id = funnels.create(ann.id, input(ann_site)).unwrap();
        let listed = funnels.list(ann.id, None, range, &Filters::none()).unwrap();
        assert_eq!(listed.len(), 1, "{}", engine.name);
        assert_eq!(
            (listed[0].status.as_str(), listed[0].steps[1].url.as_str()),
            ("active", "/paid"),
            "{}",
            engine.name
        );
        assert!(matches!(funnels.create(ann.id, input(bob_site)), Err(Error::NotFound("website"))), "{}", engine.name);
        assert!(
            matches!(funnels.list(ann.id, Some(bob_site), range, &Filters::none()), Err(Error::NotFound(_))),
            "{}",
            engine.name
        );
        assert!(funnels.list(bob.id, None, range, &Filters::none()).unwrap().is_empty(), "{}", engine.name);
        assert!(
            matches!(funnels.get(bob.id, id, range, &Filters::none()), Err(Error::NotFound("funnel"))),
            "{}",
            engine.name
        );
        let pause = FunnelInput { status: Some("paused".into()), ..FunnelInput::default() };
        assert!(matches!(funnels.update(bob.id, id, pause.clone()), Err(Error::NotFound(_))), "{}", engine.name);
        assert!(matches!(funnels.delete(bob.id, id), Err(Error::NotFound(_))), "{}", engine.name);
        assert!(!funnels.update(ann.id, id, pause).unwrap(), "{}: a pause keeps the figures", engine.name);
        let moved = FunnelInput { steps: Some(vec![step("/a"), step("/b"), step("/c")]), ..FunnelInput::default() };
        assert!(funnels.update(ann.id, id, moved).unwrap(), "{}: new steps are counted again", engine.name);
        let edited = funnels.get(ann.id, id, range, &Filters::none()).unwrap();
        assert_eq!((edited.status.as_str(), edited.steps.len()), ("paused", 3), "{}", engine.name);
        let one_step = FunnelInput { steps: Some(vec![step("/a")]), ..input(ann_site) };
        let refused = funnels.create(ann.id, one_step).unwrap_err().to_string();
        assert_eq!(refused, "At least 2 steps are required", "{}", engine.name);
        funnels.delete(ann.id, id).unwrap();
        assert!(matches!(funnels.get(ann.id, id, range, &Filters::none()), Err(Error::NotFound(_))), "{}", engine.name);
    }
}

/// PostgreSQL refuses U+0000 in text (SQLSTATE 22021): should validation ever let one through, the error says
/// what the server said (not a bare "db error") and is known for the input's fault, which the daemon answers 400.
#[test]
fn a_nul_byte_refused_by_postgresql_is_the_inputs_fault_and_says_why() {
    for engine in engines().into_iter().filter(|e| e.name == "postgres") {
        let refused = engine.meta.insert_user("nul\0@example.com", "hash", 1, false).unwrap_err();
        assert!(refused.is_refused_text(), "{refused:?}");
        let shown = refused.to_string();
        assert!(shown.contains("22021") && shown.contains("0x00"), "{shown}");
    }
}

/// Found by the chaos benchmark on the cluster (issue 33): a privacy request on a site whose deletion was
/// under way passed its ownership check, and its audit entry then named a deleted site; the foreign key
/// refused it and the request answered 500. The entry of a site that is gone is the site's 404.
#[test]
fn an_audit_entry_for_a_site_deleted_meanwhile_is_not_found_on_each_engine() {
    for engine in engines() {
        let s = services(&engine);
        let owner = s.auth.create_user("owner@example.com", "secret1").unwrap();
        let gone = s.websites.create(owner.id, site("gone")).unwrap();
        s.websites.delete(owner.id, gone.id).unwrap();
        let detail = serde_json::json!({"dataType": "all"});
        let refused = engine.meta.insert_audit(gone.id, 1, Some(owner.id), "delete_data", &detail).unwrap_err();
        assert!(matches!(refused, Error::NotFound("website")), "{}: {refused:?}", engine.name);
    }
}

/// Issue 38: a site's old Umami website id reaches it (Umami's `POST /api/send`), is recorded by an import only
/// where no site has it, is edited or cleared in the settings, and names one site on the instance.
#[test]
fn an_umami_website_id_names_one_site_on_each_engine() {
    for engine in engines() {
        let s = services(&engine);
        let name = engine.name;
        let owner = s.auth.create_user("umami@example.com", "secret1").unwrap();
        let other = s.auth.create_user("other@example.com", "secret1").unwrap();
        let a = s.websites.create(owner.id, site("a")).unwrap();
        let b = s.websites.create(other.id, site("b")).unwrap();
        let id = "6f9c3b1e-1d2a-4c5b-9e8f-0a1b2c3d4e5f";
        assert!(s.websites.record_umami_id(a.id, &id.to_ascii_uppercase()).unwrap(), "{name}");
        assert_eq!(s.websites.by_umami_id(id).unwrap().id, a.id, "{name}");
        assert!(!s.websites.record_umami_id(b.id, id).unwrap(), "{name}: taken by a");
        assert!(
            !s.websites.record_umami_id(a.id, "0a1b2c3d-1d2a-4c5b-9e8f-0a1b2c3d4e5f").unwrap(),
            "{name}: a has one"
        );
        assert!(!s.websites.record_umami_id(b.id, "not-a-uuid").unwrap(), "{name}");
        let take = |umami: Option<&str>| WebsiteChanges {
            umami_website_id: Some(umami.map(str::to_string)),
            ..WebsiteChanges::default()
        };
        let refused = s.websites.update(other.id, b.id, take(Some(id))).unwrap_err();
        assert!(matches!(refused, Error::Conflict(_)), "{name}: {refused:?}");
        assert!(matches!(s.websites.update(other.id, b.id, take(Some("x"))), Err(Error::Invalid(_))), "{name}");
        assert_eq!(s.websites.update(owner.id, a.id, take(None)).unwrap().umami_website_id, None, "{name}");
        assert!(matches!(s.websites.by_umami_id(id), Err(Error::NotFound(_))), "{name}");
        let moved = s.websites.update(other.id, b.id, take(Some(id))).unwrap();
        assert_eq!(moved.umami_website_id.as_deref(), Some(id), "{name}");
        assert_eq!(s.websites.get_any(b.id).unwrap(), moved, "{name}");
    }
}
