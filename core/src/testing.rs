//! Fixtures of core's unit tests: a tracker on a temporary data folder with one account and one site.

use tempfile::TempDir;

use crate::config::Config;
use crate::ingest::{Client, Hit, Submitted};
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

impl OneSite {
    /// The fixture's site and `more` sites of the same account ("S1", "s1.example.com", ...), in that order.
    pub fn with_more_sites(&self, more: usize) -> Vec<WebsiteId> {
        let mut sites = vec![self.site];
        for n in 1..=more {
            let new = NewWebsite { name: format!("S{n}"), domain: format!("s{n}.example.com"), tracking_level: None };
            sites.push(self.tracker.websites.create(self.user.id, new).unwrap().id);
        }
        sites
    }
}

/// A desktop browser at 198.18.0.9: the visitor of hits sent without their own.
pub(crate) fn browser() -> Client {
    client("198.18.0.9", "Mozilla/5.0 Chrome/1")
}

/// A browser at `ip` (any address in 198.18.0.0/15 passes the bot filter) with `user_agent`.
pub(crate) fn client(ip: &str, user_agent: &str) -> Client {
    Client { ip: ip.parse().unwrap(), user_agent: user_agent.into(), do_not_track: false }
}

/// Sends hits from [`browser`] through the ingest pipeline and waits until every one is committed.
pub(crate) fn send(tracker: &Tracker, hits: impl IntoIterator<Item = Hit>) {
    send_from(tracker, hits.into_iter().map(|hit| (hit, browser())));
}

/// Sends each hit from its own browser, and waits until every one is committed.
pub(crate) fn send_from(tracker: &Tracker, hits: impl IntoIterator<Item = (Hit, Client)>) {
    let commits: Vec<_> = hits
        .into_iter()
        .map(|(hit, client)| match tracker.ingest.track_hit(hit, &client).unwrap() {
            Submitted::Queued(commit) => commit,
            Submitted::Ignored => panic!("a test hit was ignored as a bot's"),
        })
        .collect();
    for commit in commits {
        commit.wait_blocking().unwrap();
    }
}

/// The number of rows in `table` (a name from the test itself, never from input).
pub(crate) fn rows(tracker: &Tracker, table: &str) -> i64 {
    tracker.db().read(|c| Ok(c.query_row(&format!("SELECT COUNT(*) FROM {table}"), [], |r| r.get(0))?)).unwrap()
}
