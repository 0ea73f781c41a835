//! Counts failed attempts per key (client network, account) in fixed windows; check and count are one step.
//! On one machine the counts are in memory; in cluster mode in PostgreSQL (migration 0051), so that attempts
//! spread over several daemons are limited as on one.

use std::collections::HashMap;
use std::fmt::Display;
use std::hash::Hash;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::cluster::pg::Pg;
use crate::error::Result;
use crate::model::now_ms;

/// Attempt counters for one kind of key; memory is bounded by pruning expired windows.
pub struct AttemptLimiter<K> {
    window: Duration,
    counts: Mutex<HashMap<K, (Instant, u32)>>,
    /// In cluster mode: the database and this limit's name in it; `counts` is then unused.
    shared: Option<Shared>,
}

/// A limit counted in PostgreSQL: one row per key and window, one upsert per attempt.
struct Shared {
    pg: Arc<Pg>,
    name: &'static str,
    /// When this daemon last deleted the rows of ended windows.
    swept: Mutex<Instant>,
}

/// How often a daemon deletes the counters of ended windows.
const SWEEP_EVERY: Duration = Duration::from_secs(60);

impl<K: Hash + Eq + Clone + Display> AttemptLimiter<K> {
    pub fn new(window: Duration) -> Self {
        AttemptLimiter { window, counts: Mutex::new(HashMap::new()), shared: None }
    }

    /// A limit named `name` counted in `pg`, shared by every daemon of the cluster.
    pub fn shared(name: &'static str, window: Duration, pg: Arc<Pg>) -> Self {
        let swept = Mutex::new(Instant::now());
        AttemptLimiter { window, counts: Mutex::new(HashMap::new()), shared: Some(Shared { pg, name, swept }) }
    }

    /// The limit `name`, shared in `pg` in cluster mode, else in memory.
    pub fn in_cluster_or_memory(name: &'static str, window: Duration, pg: Option<&Arc<Pg>>) -> Self {
        match pg {
            Some(pg) => AttemptLimiter::shared(name, window, pg.clone()),
            None => AttemptLimiter::new(window),
        }
    }

    /// Counts an attempt of `key` unless it already made `limit` in the current window (then `false`).
    ///
    /// Counting before the work is done, under one lock (in PostgreSQL: one upsert, which locks the row), is
    /// what keeps parallel requests from all passing the check before any of them is counted; a success gives
    /// its attempt back with [`Self::refund`].
    pub fn try_acquire(&self, key: &K, limit: u32) -> Result<bool> {
        if let Some(shared) = &self.shared {
            return self.try_acquire_shared(shared, key, limit);
        }
        let mut counts = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        if counts.len() > 100_000 {
            let window = self.window;
            counts.retain(|_, (start, _)| start.elapsed() < window);
        }
        let entry = counts.entry(key.clone()).or_insert((Instant::now(), 0));
        if entry.0.elapsed() >= self.window {
            *entry = (Instant::now(), 0);
        }
        if entry.1 >= limit {
            return Ok(false);
        }
        entry.1 += 1;
        Ok(true)
    }

    /// Gives back an attempt that turned out to be legitimate (in cluster mode, a failure to is only logged:
    /// the attempt stays counted, which errs on the strict side).
    pub fn refund(&self, key: &K) {
        if let Some(shared) = &self.shared {
            let window_start = self.window_start();
            let counted = shared.pg.with(|c| {
                c.execute(
                    "UPDATE attempt_counts SET attempts = attempts - 1
                     WHERE limit_name = $1 AND key = $2 AND window_start = $3 AND attempts > 0",
                    &[&shared.name, &key.to_string(), &window_start],
                )?;
                Ok(())
            });
            if let Err(e) = counted {
                tracing::warn!(error = %e, limit = shared.name, "could not give back an attempt");
            }
            return;
        }
        let mut counts = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(entry) = counts.get_mut(key) {
            entry.1 = entry.1.saturating_sub(1);
        }
    }

    /// How long until `key` may try again once refused: the rest of its current window.
    pub fn retry_after(&self, key: &K) -> Duration {
        if self.shared.is_some() {
            let window = self.window.as_millis() as i64;
            let left = self.window_start() + window - now_ms();
            return Duration::from_millis(left.max(0) as u64);
        }
        let counts = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        counts.get(key).map_or(Duration::ZERO, |(start, _)| self.window.saturating_sub(start.elapsed()))
    }

    /// The start of the current fixed window (Unix ms): windows are aligned to the epoch in cluster mode, so
    /// every daemon counts into the same one.
    fn window_start(&self) -> i64 {
        let window = self.window.as_millis().max(1) as i64;
        now_ms().div_euclid(window) * window
    }

    fn try_acquire_shared(&self, shared: &Shared, key: &K, limit: u32) -> Result<bool> {
        if limit == 0 {
            return Ok(false);
        }
        let window_start = self.window_start();
        let window_end = window_start + self.window.as_millis() as i64;
        let sweep = {
            let mut swept = shared.swept.lock().unwrap_or_else(|e| e.into_inner());
            let due = swept.elapsed() >= SWEEP_EVERY;
            if due {
                *swept = Instant::now();
            }
            due
        };
        shared.pg.with(|c| {
            if sweep {
                c.execute("DELETE FROM attempt_counts WHERE window_end <= $1", &[&now_ms()])?;
            }
            // A row at its limit is not updated, so no row comes back: refused.
            let counted = c.query_opt(
                "INSERT INTO attempt_counts AS a (limit_name, key, window_start, window_end, attempts)
                 VALUES ($1, $2, $3, $4, 1)
                 ON CONFLICT (limit_name, key, window_start) DO UPDATE SET attempts = a.attempts + 1
                 WHERE a.attempts < $5
                 RETURNING attempts",
                &[&shared.name, &key.to_string(), &window_start, &window_end, &(limit as i32)],
            )?;
            Ok(counted.is_some())
        })
    }
}

/// The key a client address is limited under: the address for IPv4, its /64 for IPv6 (one subscriber
/// usually holds a whole /64, so per-address limits would be no limit at all).
pub fn network_key(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(v4) => IpAddr::V4(v4),
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let mut segments = v6.segments();
                segments[4..].fill(0);
                IpAddr::V6(segments.into())
            }
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attempts_past_the_limit_are_refused_and_refunds_give_them_back() {
        // A day: the fixed windows of cluster mode start at UTC midnight, which this test does not cross.
        let day = Duration::from_secs(86_400);
        let mut limiters = vec![("memory", AttemptLimiter::new(day))];
        if let Some((_, pg)) = crate::cluster::testing::fresh_pg() {
            let pg = Arc::new(pg);
            limiters.push(("postgres", AttemptLimiter::shared("test", day, pg.clone())));
            // A second daemon's limiter of the same name: its attempts count against the same key.
            let other = AttemptLimiter::shared("test", day, pg);
            assert!(other.try_acquire(&9, 2).unwrap());
            assert!(other.try_acquire(&9, 2).unwrap());
            assert!(!limiters[1].1.try_acquire(&9, 2).unwrap(), "counted on the other daemon");
        }
        for (engine, limiter) in limiters {
            assert!(limiter.try_acquire(&1, 2).unwrap(), "{engine}");
            assert!(limiter.try_acquire(&1, 2).unwrap(), "{engine}");
            assert!(!limiter.try_acquire(&1, 2).unwrap(), "{engine}");
            let wait = limiter.retry_after(&1);
            assert!(wait > Duration::ZERO && wait <= day, "{engine}: {wait:?}");
            limiter.refund(&1);
            assert!(limiter.try_acquire(&1, 2).unwrap(), "{engine}");
            assert!(limiter.try_acquire(&2, 2).unwrap(), "{engine}");
            assert!(!limiter.try_acquire(&2, 0).unwrap(), "{engine}: a limit of 0 refuses every attempt");
        }
    }

    #[test]
    fn ipv6_addresses_of_one_64_share_a_key() {
        let a: IpAddr = "2001:db8:1:2:aaaa::1".parse().unwrap();
        let b: IpAddr = "2001:db8:1:2:bbbb::9".parse().unwrap();
        let c: IpAddr = "2001:db8:1:3::1".parse().unwrap();
        assert_eq!(network_key(a), network_key(b));
        assert_ne!(network_key(a), network_key(c));
        let v4: IpAddr = "203.0.113.7".parse().unwrap();
        assert_eq!(network_key(v4), v4);
        assert_eq!(network_key("::ffff:203.0.113.7".parse().unwrap()), v4);
    }
}
