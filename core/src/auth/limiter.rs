//! Counts failed attempts per key (client network, account) in fixed windows; check and count are one step.

use std::collections::HashMap;
use std::hash::Hash;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Attempt counters for one kind of key; memory is bounded by pruning expired windows.
pub struct AttemptLimiter<K> {
    window: Duration,
    counts: Mutex<HashMap<K, (Instant, u32)>>,
}

impl<K: Hash + Eq + Clone> AttemptLimiter<K> {
    pub fn new(window: Duration) -> Self {
        AttemptLimiter { window, counts: Mutex::new(HashMap::new()) }
    }

    /// Counts an attempt of `key` unless it already made `limit` in the current window (then `false`).
    ///
    /// Counting before the work is done, under one lock, is what keeps parallel requests from all passing
    /// the check before any of them is counted; a success gives its attempt back with [`Self::refund`].
    pub fn try_acquire(&self, key: &K, limit: u32) -> bool {
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
            return false;
        }
        entry.1 += 1;
        true
    }

    /// Gives back an attempt that turned out to be legitimate.
    pub fn refund(&self, key: &K) {
        let mut counts = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(entry) = counts.get_mut(key) {
            entry.1 = entry.1.saturating_sub(1);
        }
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
        let limiter = AttemptLimiter::new(Duration::from_secs(60));
        assert!(limiter.try_acquire(&1, 2));
        assert!(limiter.try_acquire(&1, 2));
        assert!(!limiter.try_acquire(&1, 2));
        limiter.refund(&1);
        assert!(limiter.try_acquire(&1, 2));
        assert!(limiter.try_acquire(&2, 2));
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
