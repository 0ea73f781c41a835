//! Bounds concurrent argon2 work: each hash or verify costs ~20 ms of a core and 19 MiB, so a burst of
//! sign-ups or logins must queue (briefly) or be turned away, never exhaust the host.

use std::sync::{Condvar, Mutex};

use crate::error::{Error, Result};

/// Callers waiting beyond this are answered "busy" at once.
const MAX_WAITING: usize = 64;

/// A counting gate: at most one argon2 computation per core at a time.
pub struct ArgonGate {
    state: Mutex<(usize, usize)>,
    freed: Condvar,
    max_running: usize,
}

impl ArgonGate {
    pub fn new() -> ArgonGate {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        ArgonGate { state: Mutex::new((0, 0)), freed: Condvar::new(), max_running: cores }
    }

    /// Runs `work` once a slot is free; `Busy` when too many are already waiting.
    pub fn run<T>(&self, work: impl FnOnce() -> Result<T>) -> Result<T> {
        {
            let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
            if state.0 >= self.max_running && state.1 >= MAX_WAITING {
                return Err(Error::Busy);
            }
            state.1 += 1;
            while state.0 >= self.max_running {
                state = self.freed.wait(state).unwrap_or_else(|e| e.into_inner());
            }
            state.1 -= 1;
            state.0 += 1;
        }
        let result = work();
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        state.0 -= 1;
        self.freed.notify_one();
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn no_more_than_the_cores_run_at_once() {
        let gate = Arc::new(ArgonGate::new());
        let running = Arc::new(AtomicUsize::new(0));
        let most = Arc::new(AtomicUsize::new(0));
        let threads: Vec<_> = (0..gate.max_running * 3)
            .map(|_| {
                let (gate, running, most) = (gate.clone(), running.clone(), most.clone());
                std::thread::spawn(move || {
                    gate.run(|| {
                        let now = running.fetch_add(1, Ordering::SeqCst) + 1;
                        most.fetch_max(now, Ordering::SeqCst);
                        std::thread::sleep(std::time::Duration::from_millis(5));
                        running.fetch_sub(1, Ordering::SeqCst);
                        Ok(())
                    })
                })
            })
            .collect();
        for thread in threads {
            thread.join().unwrap().unwrap();
        }
        assert!(most.load(Ordering::SeqCst) <= gate.max_running);
    }
}
