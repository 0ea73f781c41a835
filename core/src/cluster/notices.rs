//! Notices between the daemons of a cluster, over PostgreSQL LISTEN/NOTIFY: hits of a site were stored (live
//! streams on every daemon read again) and a site or its privacy settings changed (every daemon drops its
//! cached copy; migration 0050's triggers send these). Each daemon listens on a connection of its own, held by
//! a thread that reconnects after a failure.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use postgres::fallible_iterator::FallibleIterator;
use postgres::{Client, NoTls};

use super::pg::Pg;
use crate::error::Result;
use crate::model::WebsiteId;

/// A notice as the listening daemon acts on it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Notice {
    /// Another daemon stored hits of these sites.
    Hits(Vec<WebsiteId>),
    /// This site, or its privacy settings, changed or went.
    SiteChanged(WebsiteId),
    /// The listening connection was opened again: notices sent while it was down are lost, so every cache
    /// must be read again.
    Reconnected,
}

/// How long the listener waits for a notice before it looks at its stop flag.
const WAIT: Duration = Duration::from_millis(250);
/// How often an idle listening connection is checked with a query (a dead peer sends no error by itself).
const CHECK_EVERY: Duration = Duration::from_secs(10);
/// Longest pause between two attempts to reconnect.
const MAX_BACKOFF: Duration = Duration::from_secs(5);

/// Tells every daemon's listener that hits of `sites` were stored by the daemon whose live hub is `origin`.
/// One notice per batch, however many hits and sites it holds.
pub fn announce_hits(pg: &Pg, origin: u64, sites: &[WebsiteId]) -> Result<()> {
    if sites.is_empty() {
        return Ok(());
    }
    let ids: Vec<String> = sites.iter().map(WebsiteId::to_string).collect();
    let payload = format!("{origin}:{}", ids.join(","));
    let channel = pg.channel("live");
    pg.with(|c| Ok(c.execute("SELECT pg_notify($1, $2)", &[&channel, &payload]).map(drop)?))
}

/// The listening thread of a daemon; it stops soon after this is dropped.
pub struct Listener {
    stop: Arc<AtomicBool>,
}

impl Drop for Listener {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Release);
    }
}

/// Starts listening on `pg`'s server and schema; `on_notice` runs on the listener's thread for each notice,
/// except hit notices from `origin` (this daemon's own, published where they were stored).
pub fn listen(pg: &Pg, origin: u64, on_notice: impl Fn(Notice) + Send + 'static) -> Result<Listener> {
    let stop = Arc::new(AtomicBool::new(false));
    let channels = Channels { url: pg.url().to_string(), sites: pg.channel("sites"), live: pg.channel("live") };
    let stopping = stop.clone();
    std::thread::Builder::new().name("pg-notices".into()).spawn(move || {
        let mut backoff = Duration::from_millis(100);
        while !stopping.load(Ordering::Acquire) {
            match channels.run(origin, &stopping, &on_notice, &mut backoff) {
                Ok(()) => return,
                Err(e) => {
                    tracing::warn!(error = %e, "the connection for cluster notices failed; reconnecting");
                    std::thread::sleep(backoff);
                    backoff = (backoff * 2).min(MAX_BACKOFF);
                }
            }
        }
    })?;
    Ok(Listener { stop })
}

/// Where a listener connects and what it listens to.
struct Channels {
    url: String,
    sites: String,
    live: String,
}

impl Channels {
    /// Listens until `stop` (Ok) or until the connection fails (the error).
    fn run(
        &self,
        origin: u64,
        stop: &AtomicBool,
        on_notice: &impl Fn(Notice),
        backoff: &mut Duration,
    ) -> std::result::Result<(), postgres::Error> {
        let mut client = Client::connect(&self.url, NoTls)?;
        // Channel names are made by `Pg::channel` of [a-z0-9_] only; LISTEN takes no bound parameters.
        client.batch_execute(&format!("LISTEN {}; LISTEN {}", self.sites, self.live))?;
        *backoff = Duration::from_millis(100);
        on_notice(Notice::Reconnected);
        let mut checked = Instant::now();
        while !stop.load(Ordering::Acquire) {
            {
                let mut notifications = client.notifications();
                let mut waiting = notifications.timeout_iter(WAIT);
                while let Some(notification) = waiting.next()? {
                    if let Some(notice) = self.parse(notification.channel(), notification.payload(), origin) {
                        on_notice(notice);
                    }
                    if stop.load(Ordering::Acquire) {
                        return Ok(());
                    }
                }
            }
            if checked.elapsed() >= CHECK_EVERY {
                client.simple_query("SELECT 1")?;
                checked = Instant::now();
            }
        }
        Ok(())
    }

    /// The notice a payload on `channel` stands for; `None` for this daemon's own hits or a malformed payload.
    fn parse(&self, channel: &str, payload: &str, origin: u64) -> Option<Notice> {
        if channel == self.sites {
            return payload.parse().ok().map(Notice::SiteChanged);
        }
        let (from, sites) = payload.split_once(':')?;
        if from.parse::<u64>().ok()? == origin {
            return None;
        }
        let sites: Vec<WebsiteId> = sites.split(',').filter_map(|s| s.parse().ok()).collect();
        (!sites.is_empty()).then_some(Notice::Hits(sites))
    }
}

#[cfg(test)]
mod tests {
    use std::sync::mpsc;

    use super::*;
    use crate::cluster::testing::fresh_pg;

    fn next(notices: &mpsc::Receiver<Notice>) -> Notice {
        notices.recv_timeout(Duration::from_secs(10)).expect("a notice within 10 s")
    }

    #[test]
    fn hits_of_other_daemons_and_site_changes_arrive_and_a_lost_connection_is_reopened() {
        let Some((url, pg)) = fresh_pg() else { return };
        let (sender, notices) = mpsc::channel();
        let _listener = listen(&pg, 7, move |notice| sender.send(notice).unwrap()).unwrap();
        assert_eq!(next(&notices), Notice::Reconnected);

        // Its own batches are skipped; another daemon's arrive, one notice per batch.
        announce_hits(&pg, 7, &[1]).unwrap();
        announce_hits(&pg, 8, &[2, 3]).unwrap();
        assert_eq!(next(&notices), Notice::Hits(vec![2, 3]));

        // A site's update (the trigger of migration 0050) is a notice.
        pg.with(|c| {
            let user: i64 = c
                .query_one(
                    "INSERT INTO users (email, password_hash, created_at) VALUES ('n@x', '', 0) RETURNING id",
                    &[],
                )?
                .get(0);
            let site: i64 = c
                .query_one(
                    "INSERT INTO websites (user_id, name, domain, tracking_key, created_at)
                     VALUES ($1, 'S', 'https://s.example.com', 'key-n', 0) RETURNING id",
                    &[&user],
                )?
                .get(0);
            c.execute("UPDATE websites SET name = 'T' WHERE id = $1", &[&site])?;
            Ok(())
        })
        .unwrap();
        assert!(matches!(next(&notices), Notice::SiteChanged(_)));

        // The server ends the listening connection: the listener reopens it and says so.
        let mut admin = Client::connect(&url, NoTls).unwrap();
        let ended: i64 = admin
            .query_one(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
                 WHERE query LIKE $1 AND pid <> pg_backend_pid()",
                &[&format!("LISTEN {}%", pg.channel("sites"))],
            )
            .unwrap()
            .get(0);
        assert!(ended >= 1, "the listening connection was found");
        assert_eq!(next(&notices), Notice::Reconnected);
        announce_hits(&pg, 8, &[4]).unwrap();
        assert_eq!(next(&notices), Notice::Hits(vec![4]));
    }
}
