//! Counts failed logins per client address in one-minute windows.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

const WINDOW: Duration = Duration::from_secs(60);

/// Failed-login counters; memory is bounded by pruning expired windows.
#[derive(Default)]
pub struct LoginLimiter {
    failures: Mutex<HashMap<IpAddr, (Instant, u32)>>,
}

impl LoginLimiter {
    /// Whether `client` already failed `limit` times in the current window.
    pub fn is_blocked(&self, client: IpAddr, limit: u32) -> bool {
        let failures = self.failures.lock().unwrap_or_else(|e| e.into_inner());
        matches!(failures.get(&client), Some((start, count)) if start.elapsed() < WINDOW && *count >= limit)
    }

    /// Records one failure of `client`.
    pub fn record_failure(&self, client: IpAddr) {
        let mut failures = self.failures.lock().unwrap_or_else(|e| e.into_inner());
        if failures.len() > 100_000 {
            failures.retain(|_, (start, _)| start.elapsed() < WINDOW);
        }
        let entry = failures.entry(client).or_insert((Instant::now(), 0));
        if entry.0.elapsed() >= WINDOW {
            *entry = (Instant::now(), 0);
        }
        entry.1 += 1;
    }
}
