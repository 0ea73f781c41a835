//! Share links on each metadata engine (SQLite always, PostgreSQL when the harness is up), through
//! `SharedLinks` as the daemon calls it: creation with a 128-bit slug, listing without the password hash,
//! another site's link, password sessions bound to one link and their limit, deletion of a link or its site
//! ending access at once, and slugs sealed at rest.

use std::net::IpAddr;

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;

use super::testing::engines;
use crate::auth::Auth;
use crate::config::Config;
use crate::error::Error;
use crate::model::TrackingLevel;
use crate::settings::Settings;
use crate::store::shared_links::{NewLink, SharedLinks};

const SECRET: &[u8] = b"a test signing secret of 32 bytes or more";

#[test]
fn links_open_their_site_only_while_they_and_the_site_exist_on_each_engine() {
    for engine in engines() {
        let name = engine.name;
        let settings = Settings::new(Config { login_attempts_per_minute: 3, ..Config::default() });
        let auth = Auth::new(engine.meta.clone(), SECRET, settings, None);
        let links = SharedLinks::new(engine.meta.clone(), auth.clone(), SECRET);
        let ann = auth.create_user("ann@example.com", "secret1").unwrap();
        let site = |domain: &str, key: &str| {
            engine.meta.insert_website(ann.id, domain, domain, key, TrackingLevel::Light, 1).unwrap().unwrap().0
        };
        let (blog, shop) = (site("blog.example", "k1"), site("shop.example", "k2"));

        let open = links
            .create(
                blog,
                NewLink {
                    name: "  Public  ".into(),
                    filters: Some(serde_json::json!([["is", "visit:country", ["DE"]]])),
                    ..NewLink::default()
                },
            )
            .unwrap();
        assert_eq!(open.name, "Public", "{name}");
        assert_eq!(URL_SAFE_NO_PAD.decode(&open.slug).unwrap().len(), 16, "{name}: 128 random bits");
        assert!(!open.password_required && !open.embed, "{name}");
        let locked = links
            .create(
                blog,
                NewLink {
                    name: "Client".into(),
                    password: Some("hunter22".into()),
                    embed: true,
                    allowed_origins: vec!["https://Client.example/".into()],
                    ..NewLink::default()
                },
            )
            .unwrap();
        assert!(locked.password_required, "{name}");
        assert_eq!(locked.allowed_origins, vec!["https://client.example"], "{name}");
        assert_ne!(locked.slug, open.slug, "{name}");

        let listed = links.list(blog).unwrap();
        assert_eq!(listed, vec![locked.clone(), open.clone()], "{name}: newest first");
        let json = serde_json::to_string(&listed).unwrap();
        assert!(!json.contains("argon2") && !json.contains("hunter22"), "{name}: {json}");
        assert!(links.list(shop).unwrap().is_empty(), "{name}");

        // An open link needs no session and reads its own site under its filters.
        let access = links.access(&open.slug, None).unwrap();
        assert_eq!((access.website.id, access.filters.visit.len()), (blog, 1), "{name}");
        // A password link wants a token of its own; a wrong password is 401, then 429 past the limit.
        let refused = links.access(&locked.slug, None);
        assert!(matches!(refused, Err(Error::Unauthorized(_))), "{name}: {refused:?}");
        let client: IpAddr = "203.0.113.9".parse().unwrap();
        let session = links.open_session(&locked.slug, "hunter22", client).unwrap();
        assert!(session.expires_in > 0, "{name}");
        links.access(&locked.slug, Some(&session.token)).unwrap();
        let other = links
            .create(shop, NewLink { name: "Shop".into(), password: Some("hunter22".into()), ..NewLink::default() })
            .unwrap();
        let crossed = links.access(&other.slug, Some(&session.token));
        assert!(matches!(crossed, Err(Error::InvalidToken(_))), "{name}: a token opens its own link only");
        assert!(auth.authenticate(&session.token).is_err(), "{name}: a share token is no sign-in");
        for _ in 0..3 {
            let wrong = links.open_session(&locked.slug, "wrong password", client);
            assert!(matches!(wrong, Err(Error::Unauthorized(_))), "{name}: {wrong:?}");
        }
        let limited = links.open_session(&locked.slug, "hunter22", client);
        assert!(matches!(limited, Err(Error::RateLimited)), "{name}: {limited:?}");
        let no_password = links.open_session(&open.slug, "anything", client);
        assert!(matches!(no_password, Err(Error::Invalid(_))), "{name}: {no_password:?}");

        // Another site's link id is not found; deletion ends the link's token at once; the site's takes the rest.
        assert!(matches!(links.delete(shop, locked.id), Err(Error::NotFound(_))), "{name}");
        links.delete(blog, locked.id).unwrap();
        let gone = links.access(&locked.slug, Some(&session.token));
        assert!(matches!(gone, Err(Error::NotFound(_))), "{name}: {gone:?}");
        assert!(engine.meta.delete_website(ann.id, blog).unwrap(), "{name}");
        assert!(matches!(links.access(&open.slug, None), Err(Error::NotFound(_))), "{name}");
        assert!(links.list(blog).unwrap().is_empty(), "{name}");
        assert!(matches!(links.access("not-a-slug", None), Err(Error::NotFound(_))), "{name}");
    }
}

#[test]
fn bad_links_are_refused_before_anything_is_stored_on_each_engine() {
    for engine in engines() {
        let name = engine.name;
        let auth = Auth::new(engine.meta.clone(), SECRET, Settings::new(Config::default()), None);
        let links = SharedLinks::new(engine.meta.clone(), auth.clone(), SECRET);
        let ann = auth.create_user("ann@example.com", "secret1").unwrap();
        let blog =
            engine.meta.insert_website(ann.id, "b", "b.example", "k1", TrackingLevel::Light, 1).unwrap().unwrap().0;
        for bad in [
            NewLink { name: " ".into(), ..NewLink::default() },
            NewLink { name: "x".into(), password: Some("short".into()), ..NewLink::default() },
            NewLink {
                name: "x".into(),
                filters: Some(serde_json::json!([["is", "nope", ["x"]]])),
                ..NewLink::default()
            },
            NewLink { name: "x".into(), embed: true, ..NewLink::default() },
            NewLink { name: "x".into(), embed: true, allowed_origins: vec!["*".into()], ..NewLink::default() },
            NewLink { name: "x".into(), allowed_origins: vec!["https://a.example".into()], ..NewLink::default() },
        ] {
            let refused = links.create(blog, bad.clone());
            assert!(matches!(refused, Err(Error::Invalid(_))), "{name}: {bad:?} → {refused:?}");
        }
        assert!(links.list(blog).unwrap().is_empty(), "{name}");
        let gone = links.create(blog + 1000, NewLink { name: "x".into(), ..NewLink::default() });
        assert!(gone.is_err(), "{name}: a missing site gets no link");
    }
}

/// A copy of the database opens no shared dashboard: a slug is stored sealed and found by its hash; a link stored
/// in plain by an older version is sealed at start and keeps its address; under another instance secret the owner
/// can no longer be shown the address, and the link still opens for whoever holds it.
#[test]
fn slugs_are_sealed_at_rest_on_each_engine() {
    for engine in engines() {
        let name = engine.name;
        let auth = Auth::new(engine.meta.clone(), SECRET, Settings::new(Config::default()), None);
        let links = SharedLinks::new(engine.meta.clone(), auth.clone(), SECRET);
        let ann = auth.create_user("ann@example.com", "secret1").unwrap();
        let blog =
            engine.meta.insert_website(ann.id, "b", "b.example", "k1", TrackingLevel::Light, 1).unwrap().unwrap().0;
        let made = links.create(blog, NewLink { name: "Public".into(), ..NewLink::default() }).unwrap();
        let stored = engine.meta.shared_links(blog).unwrap();
        assert!(stored[0].slug.starts_with("sealed:"), "{name}: {}", stored[0].slug);
        assert!(!stored[0].slug.contains(&made.slug), "{name}");
        assert_eq!(links.list(blog).unwrap()[0].slug, made.slug, "{name}: the owner is shown the address");

        // As versions before sealing stored it: the slug in plain, no hash.
        let old = "AbCdEfGhIjKlMnOpQrStUv";
        engine.execute(&format!(
            "INSERT INTO shared_links (website_id, slug, name, created_at) VALUES ({blog}, '{old}', 'Old', 1)"
        ));
        assert_eq!(links.seal_plain_slugs().unwrap(), 1, "{name}");
        assert_eq!(links.seal_plain_slugs().unwrap(), 0, "{name}: once");
        assert!(engine.meta.shared_links(blog).unwrap().iter().all(|l| l.slug.starts_with("sealed:")), "{name}");
        assert_eq!(links.access(old, None).unwrap().website.id, blog, "{name}: the old address still opens");
        let shown: Vec<String> = links.list(blog).unwrap().into_iter().map(|l| l.slug).collect();
        assert_eq!(shown, vec![old.to_string(), made.slug.clone()], "{name}");

        let elsewhere = SharedLinks::new(engine.meta.clone(), auth.clone(), b"another instance secret of 32 bytes");
        assert!(elsewhere.list(blog).unwrap().iter().all(|l| l.slug.is_empty()), "{name}");
        assert_eq!(elsewhere.access(&made.slug, None).unwrap().website.id, blog, "{name}");
    }
}
