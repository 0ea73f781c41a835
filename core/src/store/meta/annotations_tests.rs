//! Annotations and saved segments on each metadata engine (SQLite always, PostgreSQL when the harness is up),
//! through their services as the daemon calls them: writing, listing by range, changing and deleting within
//! one site (another site's id is not found), the caps, one spike mark per quiet period, the author's account
//! going, and the site's and the owner's deletion taking them.

use serde_json::json;

use super::testing::engines;
use crate::analytics::TimeRange;
use crate::auth::Auth;
use crate::config::Config;
use crate::error::Error;
use crate::model::Role;
use crate::settings::Settings;
use crate::store::annotations::{AnnotationRequest, AnnotationSource, Annotations, NewAnnotation, mark_spike};
use crate::store::segments::{SegmentRequest, Segments};
use crate::store::websites::{NewWebsite, Websites};

const SECRET: &[u8] = b"a test signing secret of 32 bytes or more";
const HOUR: i64 = 3_600_000;

fn site(name: &str) -> NewWebsite {
    NewWebsite { name: name.into(), domain: format!("{name}.example.com"), tracking_level: None }
}

fn note(date: &str, text: &str) -> AnnotationRequest {
    AnnotationRequest { date: date.into(), text: text.into() }
}

#[test]
fn annotations_are_kept_per_site_listed_by_range_and_go_with_their_site_on_each_engine() {
    for engine in engines() {
        let name = engine.name;
        let auth = Auth::new(engine.meta.clone(), SECRET, Settings::new(Config::default()), None);
        let websites = Websites::new(engine.meta.clone());
        let annotations = Annotations::new(engine.meta.clone());
        let ann = auth.create_user("ann@example.com", "secret1").unwrap();
        let bob = auth.create_user("bob@example.com", "secret1").unwrap();
        let shop = websites.create(ann.id, site("shop")).unwrap().id;
        let blog = websites.create(ann.id, site("blog")).unwrap().id;

        let release = annotations.create(shop, Some(ann.id), &note("2026-11-10", "  Release 2.0 ")).unwrap();
        let launch = annotations.create(shop, Some(ann.id), &note("2026-11-01", "Launch")).unwrap();
        let on_blog = annotations.create(blog, Some(ann.id), &note("2026-11-05", "First post")).unwrap();
        assert_eq!((release.text.as_str(), release.date.as_str()), ("Release 2.0", "2026-11-10"), "{name}");
        assert_eq!(release.created_by.as_deref(), Some("ann@example.com"), "{name}");
        assert_eq!(release.source, AnnotationSource::User, "{name}");
        let operator = annotations.create(shop, None, &note("2026-11-20", "Deploy from cron")).unwrap();
        assert_eq!((operator.source, operator.created_by.clone()), (AnnotationSource::Cli, None), "{name}");

        // By day; a range takes the days it touches, both ends included.
        let all = annotations.list(shop, None).unwrap();
        assert_eq!(all, vec![launch.clone(), release.clone(), operator.clone()], "{name}");
        let november_10_on = TimeRange::custom("2026-11-10", "2026-11-19").unwrap();
        assert_eq!(annotations.list(shop, Some(november_10_on)).unwrap(), vec![release.clone()], "{name}");
        let marks = annotations.marks(shop, TimeRange::custom("2026-11-01", "2026-11-01").unwrap()).unwrap();
        assert_eq!(marks.len(), 1, "{name}");
        assert_eq!((marks[0].id, marks[0].text.as_str()), (launch.id, "Launch"), "{name}");

        // Another site's id is not found through this one, and is left alone.
        let refused = annotations.update(shop, on_blog.id, &note("2026-11-06", "Taken over"));
        assert!(matches!(refused, Err(Error::NotFound(_))), "{name}: {refused:?}");
        assert!(matches!(annotations.delete(shop, on_blog.id), Err(Error::NotFound(_))), "{name}");
        assert_eq!(annotations.list(blog, None).unwrap(), vec![on_blog.clone()], "{name}");

        let moved = annotations.update(shop, launch.id, &note("2026-11-02", "Launch (moved)")).unwrap();
        assert_eq!((moved.date.as_str(), moved.text.as_str()), ("2026-11-02", "Launch (moved)"), "{name}");
        assert!(moved.updated_at >= moved.created_at && moved.created_at == launch.created_at, "{name}");
        let bad = annotations.update(shop, launch.id, &note("2026-11-02", "two\nlines"));
        assert!(matches!(bad, Err(Error::Invalid(_))), "{name}: {bad:?}");
        annotations.delete(shop, operator.id).unwrap();
        assert!(matches!(annotations.delete(shop, operator.id), Err(Error::NotFound(_))), "{name}");

        // The cap: a full site stores nothing more.
        let new =
            NewAnnotation { day: "2026-11-03", text: "x", source: AnnotationSource::User, created_by: None, at: 1 };
        assert!(engine.meta.insert_annotation(shop, &new, 2, None).unwrap().is_none(), "{name}: over the cap");
        assert_eq!(annotations.list(shop, None).unwrap().len(), 2, "{name}");

        // A spike is marked once per quiet period, whatever else the site holds.
        let at = 1_795_000_000_000;
        assert!(mark_spike(&engine.meta, blog, 120, at, 6 * HOUR).unwrap(), "{name}");
        assert!(!mark_spike(&engine.meta, blog, 130, at + HOUR, 6 * HOUR).unwrap(), "{name}: the same spike");
        assert!(mark_spike(&engine.meta, blog, 90, at + 7 * HOUR, 6 * HOUR).unwrap(), "{name}: a later one");
        let spikes: Vec<_> =
            annotations.list(blog, None).unwrap().into_iter().filter(|a| a.source == AnnotationSource::Spike).collect();
        assert_eq!(spikes.len(), 2, "{name}");
        assert!(
            spikes[0].text.starts_with("Traffic spike: 120 page views in the hour to "),
            "{name}: {}",
            spikes[0].text
        );
        assert_eq!(spikes[0].created_by, None, "{name}");

        // An author's account going keeps the note on the site (a team member's, once there are members).
        let by_bob = annotations.create(blog, Some(bob.id), &note("2026-11-07", "Bob's campaign")).unwrap();
        auth.remove_user(bob.id).unwrap();
        let kept = annotations.list(blog, None).unwrap().into_iter().find(|a| a.id == by_bob.id).expect("kept");
        assert_eq!(kept.created_by, None, "{name}");

        // The site's deletion takes its notes; the owner's deletion takes those of every site left.
        websites.delete(ann.id, shop).unwrap();
        assert!(annotations.list(shop, None).unwrap().is_empty(), "{name}");
        auth.remove_user(ann.id).unwrap();
        assert!(annotations.list(blog, None).unwrap().is_empty(), "{name}");
    }
}

#[test]
fn segments_are_kept_per_site_with_checked_filters_and_go_with_their_site_on_each_engine() {
    for engine in engines() {
        let name = engine.name;
        let auth = Auth::new(engine.meta.clone(), SECRET, Settings::new(Config::default()), None);
        let websites = Websites::new(engine.meta.clone());
        let segments = Segments::new(engine.meta.clone());
        let ann = auth.create_user("ann@example.com", "secret1").unwrap();
        let shop = websites.create(ann.id, site("shop")).unwrap().id;
        let blog = websites.create(ann.id, site("blog")).unwrap().id;
        let google = json!([["is", "visit:source", ["Google"]], ["contains", "event:page", ["/blog"]]]);
        let germany = json!([["is", "visit:country", ["DE"]]]);

        let saved = segments
            .create(
                shop,
                ann.id,
                Role::Owner,
                &SegmentRequest { name: " Google blog ".into(), filters: google.clone(), personal: None },
            )
            .unwrap();
        assert_eq!((saved.name.as_str(), &saved.filters), ("Google blog", &google), "{name}");
        assert_eq!(saved.created_by.as_deref(), Some("ann@example.com"), "{name}");
        let de = segments
            .create(
                shop,
                ann.id,
                Role::Owner,
                &SegmentRequest { name: "Germany".into(), filters: germany.clone(), personal: None },
            )
            .unwrap();
        let elsewhere = segments
            .create(
                blog,
                ann.id,
                Role::Owner,
                &SegmentRequest { name: "Germany".into(), filters: germany.clone(), personal: None },
            )
            .unwrap();
        assert_eq!(segments.list(shop, ann.id).unwrap(), vec![saved.clone(), de.clone()], "{name}: oldest first");

        // A taken name on the same site is a conflict, on create and on rename; bad filters never get stored.
        let again = segments.create(
            shop,
            ann.id,
            Role::Owner,
            &SegmentRequest { name: "Germany".into(), filters: google.clone(), personal: None },
        );
        assert!(matches!(again, Err(Error::Conflict(_))), "{name}: {again:?}");
        let rename = segments.update(
            shop,
            saved.id,
            ann.id,
            Role::Owner,
            &SegmentRequest { name: "Germany".into(), filters: google.clone(), personal: None },
        );
        assert!(matches!(rename, Err(Error::Conflict(_))), "{name}: {rename:?}");
        for bad in [json!([]), json!([["is", "visit:planet", ["Mars"]]]), json!({"is": 1})] {
            let refused = segments.create(
                shop,
                ann.id,
                Role::Owner,
                &SegmentRequest { name: "Bad".into(), filters: bad.clone(), personal: None },
            );
            assert!(matches!(refused, Err(Error::Invalid(_))), "{name}: {bad}: {refused:?}");
        }

        // Another site's id is not found through this one.
        let foreign = segments.update(
            shop,
            elsewhere.id,
            ann.id,
            Role::Owner,
            &SegmentRequest { name: "Mine".into(), filters: google.clone(), personal: None },
        );
        assert!(matches!(foreign, Err(Error::NotFound(_))), "{name}: {foreign:?}");
        assert!(matches!(segments.delete(shop, elsewhere.id, ann.id, Role::Owner), Err(Error::NotFound(_))), "{name}");

        let changed = segments
            .update(
                shop,
                de.id,
                ann.id,
                Role::Owner,
                &SegmentRequest { name: "Germany, blog".into(), filters: google.clone(), personal: None },
            )
            .unwrap();
        assert_eq!((changed.name.as_str(), &changed.filters), ("Germany, blog", &google), "{name}");
        segments.delete(shop, saved.id, ann.id, Role::Owner).unwrap();
        assert_eq!(segments.list(shop, ann.id).unwrap(), vec![changed], "{name}");

        // The cap, then the site's and the owner's deletion.
        let new = crate::store::segments::NewSegment {
            name: "third",
            filters: "[]",
            created_by: ann.id,
            personal: false,
            at: 1,
        };
        assert!(engine.meta.insert_segment(blog, &new, 1).unwrap().is_none(), "{name}: over the cap");
        websites.delete(ann.id, shop).unwrap();
        assert!(segments.list(shop, ann.id).unwrap().is_empty(), "{name}");
        auth.remove_user(ann.id).unwrap();
        assert!(segments.list(blog, ann.id).unwrap().is_empty(), "{name}");
    }
}

#[test]
fn a_personal_segment_is_seen_changed_and_deleted_by_its_saver_alone_on_each_engine() {
    for engine in engines() {
        let name = engine.name;
        let auth = Auth::new(engine.meta.clone(), SECRET, Settings::new(Config::default()), None);
        let websites = Websites::new(engine.meta.clone());
        let segments = Segments::new(engine.meta.clone());
        let ann = auth.create_user("ann@example.com", "secret1").unwrap();
        let bob = auth.create_user("bob@example.com", "secret1").unwrap();
        let shop = websites.create(ann.id, site("shop")).unwrap().id;
        let google = json!([["is", "visit:source", ["Google"]]]);
        let request = |label: &str, personal: Option<bool>| SegmentRequest {
            name: label.into(),
            filters: google.clone(),
            personal,
        };
        let shared = segments.create(shop, ann.id, Role::Owner, &request("Team", None)).unwrap();
        let mine = segments.create(shop, ann.id, Role::Owner, &request("Mine", Some(true))).unwrap();
        assert!(!shared.personal && mine.personal, "{name}: shared unless asked");
        assert_eq!(segments.list(shop, ann.id).unwrap(), vec![shared.clone(), mine.clone()], "{name}: ann sees both");
        assert_eq!(segments.list(shop, bob.id).unwrap(), vec![shared.clone()], "{name}: bob the shared one");

        // Another account can neither change nor delete a personal segment, nor make a shared one its own.
        let renamed = segments.update(shop, mine.id, bob.id, Role::Editor, &request("Bob's", None));
        assert!(matches!(renamed, Err(Error::NotFound(_))), "{name}: {renamed:?}");
        assert!(matches!(segments.delete(shop, mine.id, bob.id, Role::Editor), Err(Error::NotFound(_))), "{name}");
        let taken = segments.update(shop, shared.id, bob.id, Role::Editor, &request("Team", Some(true))).unwrap();
        assert!(!taken.personal, "{name}: only the saver changes who sees it");
        // The saver shares it, then bob sees it.
        let opened = segments.update(shop, mine.id, ann.id, Role::Owner, &request("Mine", Some(false))).unwrap();
        assert!(!opened.personal, "{name}");
        assert_eq!(segments.list(shop, bob.id).unwrap().len(), 2, "{name}");
        segments.delete(shop, mine.id, bob.id, Role::Editor).unwrap();

        // A viewer keeps segments of its own, personal ones only: a shared one is the editors'.
        fn forbidden<T>(r: Result<T, Error>) -> bool {
            matches!(r, Err(Error::Forbidden(_)))
        }
        assert!(forbidden(segments.create(shop, bob.id, Role::Viewer, &request("Shared", None))), "{name}");
        let own = segments.create(shop, bob.id, Role::Viewer, &request("Own", Some(true))).unwrap();
        let renamed = segments.update(shop, own.id, bob.id, Role::Viewer, &request("Own 2", None)).unwrap();
        assert!(renamed.personal && renamed.name == "Own 2", "{name}: {renamed:?}");
        assert!(forbidden(segments.update(shop, own.id, bob.id, Role::Viewer, &request("Own", Some(false)))), "{name}");
        assert!(forbidden(segments.update(shop, shared.id, bob.id, Role::Viewer, &request("Team", None))), "{name}");
        assert!(forbidden(segments.delete(shop, shared.id, bob.id, Role::Viewer)), "{name}");
        let others = segments.delete(shop, own.id, ann.id, Role::Viewer);
        assert!(matches!(others, Err(Error::NotFound(_))), "{name}: {others:?}");
        segments.delete(shop, own.id, bob.id, Role::Viewer).unwrap();
        let left: Vec<i64> = segments.list(shop, bob.id).unwrap().iter().map(|s| s.id).collect();
        assert_eq!(left, vec![shared.id], "{name}");
    }
}
