//! The running configuration, shared by every service and replaced in place when the config file changes.

use std::sync::{Arc, RwLock};

use crate::config::Config;

/// A shared, reloadable handle on the running [`Config`].
#[derive(Clone)]
pub struct Settings(Arc<RwLock<Config>>);

impl Settings {
    pub fn new(config: Config) -> Settings {
        Settings(Arc::new(RwLock::new(config)))
    }

    /// Reads the current settings in place, without copying them (for per-request checks).
    pub fn read<T>(&self, f: impl FnOnce(&Config) -> T) -> T {
        f(&self.0.read().unwrap_or_else(|e| e.into_inner()))
    }

    /// A snapshot of the current settings.
    pub fn get(&self) -> Config {
        self.0.read().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// Applies the reloadable fields of `new` and returns the names of those that changed.
    pub fn reload(&self, new: &Config) -> Vec<&'static str> {
        let mut current = self.0.write().unwrap_or_else(|e| e.into_inner());
        let mut changed = Vec::new();
        if current.log_level != new.log_level {
            current.log_level = new.log_level.clone();
            changed.push("log_level");
        }
        if current.trusted_proxies != new.trusted_proxies {
            current.trusted_proxies = new.trusted_proxies.clone();
            changed.push("trusted_proxies");
        }
        if current.login_attempts_per_minute != new.login_attempts_per_minute {
            current.login_attempts_per_minute = new.login_attempts_per_minute;
            changed.push("login_attempts_per_minute");
        }
        if current.registration != new.registration {
            current.registration = new.registration;
            changed.push("registration");
        }
        if current.registrations_per_hour != new.registrations_per_hour {
            current.registrations_per_hour = new.registrations_per_hour;
            changed.push("registrations_per_hour");
        }
        if current.max_sites_per_account != new.max_sites_per_account {
            current.max_sites_per_account = new.max_sites_per_account;
            changed.push("max_sites_per_account");
        }
        if current.api_key_requests_per_hour != new.api_key_requests_per_hour {
            current.api_key_requests_per_hour = new.api_key_requests_per_hour;
            changed.push("api_key_requests_per_hour");
        }
        if current.retention_interval_hours != new.retention_interval_hours {
            current.retention_interval_hours = new.retention_interval_hours;
            changed.push("retention_interval_hours");
        }
        if current.smtp_url != new.smtp_url {
            current.smtp_url = new.smtp_url.clone();
            changed.push("smtp_url");
        }
        if current.smtp_from != new.smtp_from {
            current.smtp_from = new.smtp_from.clone();
            changed.push("smtp_from");
        }
        if current.metrics_token != new.metrics_token {
            current.metrics_token = new.metrics_token.clone();
            changed.push("metrics_token");
        }
        changed
    }
}
