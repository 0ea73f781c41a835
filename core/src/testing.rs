//! Fixtures of core's unit tests: a tracker on a temporary data folder with one account and one site.

use tempfile::TempDir;

use crate::config::Config;
use crate::model::{User, WebsiteId};
use crate::store::websites::NewWebsite;
use crate::tracker::Tracker;

/// A tracker with an account (a@example.com) and its site "S" (s.example.com). The folder goes when this
/// is dropped: keep it bound (`dir: _dir`) for as long as the tracker is used.
pub(crate) struct OneSite {
    pub dir: TempDir,
    pub tracker: Tracker,
    pub user: User,
    pub site: WebsiteId,
}

pub(crate) fn one_site() -> OneSite {
    let dir = tempfile::tempdir().unwrap();
    let tracker = Tracker::open(&Config { data_dir: dir.path().to_path_buf(), ..Config::default() }).unwrap();
    let user = tracker.auth.create_user("a@example.com", "secret1").unwrap();
    let site = tracker
        .websites
        .create(user.id, NewWebsite { name: "S".into(), domain: "s.example.com".into(), tracking_level: None })
        .unwrap()
        .id;
    OneSite { dir, tracker, user, site }
}
