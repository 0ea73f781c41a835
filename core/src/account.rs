//! An account's own settings (spec part 2, Settings): profile, notification preferences, security settings,
//! the sign-ins recorded while login notifications are on, and the export of everything the account holds.
//! The daemon's /api/user/* routes call it; passwords, sessions and two-factor codes stay in `auth`.

use std::net::IpAddr;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::ingest::anonymize_ip;
use crate::model::{Millis, UserId, now_ms, ser_iso};
use crate::settings::Settings;
use crate::store::meta::{Meta, text_json};

/// Session timeout bounds and default, in minutes (spec part 2 §5, §9).
pub const SESSION_TIMEOUT_MIN: i64 = 5;
pub const SESSION_TIMEOUT_MAX: i64 = 480;
pub const SESSION_TIMEOUT_DEFAULT: i64 = 30;
/// Sign-ins shown under "Recent sign-ins"; older ones are deleted as new ones come.
pub const RECENT_SIGN_INS: usize = 10;
/// Longest name or company kept.
const MAX_TEXT_LEN: usize = 200;

/// Profile settings: name, email, company, timezone (IANA name, default UTC).
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Profile {
    pub name: String,
    pub email: String,
    /// Whether reports and alerts may go to `email`: it was confirmed by a mailed link (issue 33). Read only.
    pub email_verified: bool,
    pub company: String,
    pub timezone: String,
}

/// Notification preferences (spec defaults: email alerts and weekly reports on, the other two off).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Notifications {
    pub email_alerts: bool,
    pub weekly_reports: bool,
    pub real_time_alerts: bool,
    pub marketing_emails: bool,
    /// Whether the server can send email at all (`smtp_url` set); when not, the screen says so and the
    /// toggles are off limits. Read only.
    pub email_configured: bool,
}

/// A change of notification preferences; fields left out keep their value.
#[derive(Debug, Clone, Copy, Default, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct NotificationsUpdate {
    pub email_alerts: Option<bool>,
    pub weekly_reports: Option<bool>,
    pub real_time_alerts: Option<bool>,
    pub marketing_emails: Option<bool>,
}

/// Security settings: saved and applied (the session timeout ends idle sign-ins; login notifications
/// record each sign-in).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Security {
    pub two_factor_enabled: bool,
    /// Minutes.
    pub session_timeout: i64,
    pub login_notifications: bool,
}

/// One recorded sign-in.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SignIn {
    #[schema(value_type = String, format = DateTime)]
    #[serde(serialize_with = "ser_iso")]
    pub at: Millis,
    /// Anonymised as the product stores visitors' addresses (last octet, last 80 bits zeroed).
    pub ip_address: String,
    pub browser: String,
}

/// Everything the Settings screen shows.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AccountSettings {
    pub profile: Profile,
    pub notifications: Notifications,
    pub security: Security,
    pub recent_sign_ins: Vec<SignIn>,
}

/// The account settings service.
#[derive(Clone)]
pub struct Account {
    meta: Meta,
    settings: Settings,
}

impl Account {
    pub(crate) fn new(meta: Meta, settings: Settings) -> Account {
        Account { meta, settings }
    }

    /// Everything the Settings screen shows for an account.
    pub fn settings(&self, user: UserId) -> Result<AccountSettings> {
        let (mut profile, mut notifications, security) = self.meta.settings(user)?.ok_or_else(gone)?;
        profile.email_verified = self.meta.email_verified(user)?.ok_or_else(gone)?;
        notifications.email_configured = self.settings.read(crate::email::is_configured);
        let recent_sign_ins = self.meta.sign_ins(user, RECENT_SIGN_INS)?;
        Ok(AccountSettings { profile, notifications, security, recent_sign_ins })
    }

    /// Saves name, company and timezone (an IANA name, checked against the bundled list).
    pub fn update_profile(&self, user: UserId, name: &str, company: &str, timezone: &str) -> Result<Profile> {
        let name = bounded_text(name, "name")?;
        let company = bounded_text(company, "company")?;
        let timezone = validate_timezone(timezone)?;
        if !self.meta.update_profile(user, &name, &company, &timezone)? {
            return Err(gone());
        }
        let mut profile = self.meta.settings(user)?.ok_or_else(gone)?.0;
        profile.email_verified = self.meta.email_verified(user)?.ok_or_else(gone)?;
        Ok(profile)
    }

    /// Saves the notification toggles given; the others keep their value.
    pub fn update_notifications(&self, user: UserId, update: NotificationsUpdate) -> Result<Notifications> {
        if !self.meta.update_notifications(user, update)? {
            return Err(gone());
        }
        let mut notifications = self.meta.settings(user)?.ok_or_else(gone)?.1;
        notifications.email_configured = self.settings.read(crate::email::is_configured);
        Ok(notifications)
    }

    /// Saves the session timeout (minutes, 5 to 480) and/or login notifications. Turning notifications off
    /// forgets the sign-ins recorded so far.
    pub fn update_security(
        &self,
        user: UserId,
        session_timeout: Option<i64>,
        login_notifications: Option<bool>,
    ) -> Result<Security> {
        if let Some(minutes) = session_timeout
            && !(SESSION_TIMEOUT_MIN..=SESSION_TIMEOUT_MAX).contains(&minutes)
        {
            return Err(Error::invalid(format!(
                "session timeout must be between {SESSION_TIMEOUT_MIN} and {SESSION_TIMEOUT_MAX} minutes"
            )));
        }
        self.meta.update_security(user, session_timeout, login_notifications)?.ok_or_else(gone)
    }

    /// Records a sign-in when the account has login notifications on, keeping the latest few.
    pub fn record_sign_in(&self, user: UserId, ip: IpAddr, browser: &str) -> Result<()> {
        let browser = if browser.is_empty() { "Unknown" } else { browser };
        let browser: String = browser.chars().take(64).collect();
        let address = anonymize_ip(ip).to_string();
        self.meta.record_sign_in(user, now_ms(), &address, &browser, RECENT_SIGN_INS)
    }

    /// The account's own rows for its data export: settings, websites with their privacy settings, event
    /// definitions and funnels, all from the metadata store (PostgreSQL in cluster mode). Secrets (password
    /// hash, TOTP secret, tokens) stay out.
    pub fn export(&self, user: UserId) -> Result<serde_json::Value> {
        let settings = self.settings(user)?;
        let created_at: Millis = self.meta.user(user)?.ok_or_else(gone)?.created_at;
        let sites = self.meta.websites_of(user)?;
        // Built from the metadata store as the rows of the tables were written out before it (snake_case
        // columns, 0/1 flags, JSON-looking text as JSON), so the file is the same whichever store holds them.
        let websites: Vec<serde_json::Value> = sites
            .iter()
            .map(|w| {
                serde_json::json!({
                    "id": w.id,
                    "name": text_json(&w.name),
                    "domain": text_json(&w.domain),
                    "trackingKey": text_json(&w.tracking_key),
                    "trackingLevel": w.tracking_level.as_str(),
                    "createdAt": w.created_at,
                })
            })
            .collect();
        let mut definitions = Vec::new();
        for site in &sites {
            definitions.extend(self.meta.definitions(site.id)?.into_iter().map(|d| (site.id, d)));
        }
        definitions.sort_by_key(|(_, d)| d.id);
        let definitions: Vec<serde_json::Value> = definitions
            .into_iter()
            .map(|(site, d)| {
                serde_json::json!({
                    "id": d.id,
                    "website_id": site,
                    "name": text_json(&d.name),
                    "display_name": text_json(&d.display_name),
                    "description": text_json(&d.description),
                    "event_type": d.event_type,
                    "selector": text_json(&d.selector),
                    "is_conversion": i64::from(d.is_conversion),
                    "conversion_value": d.conversion_value,
                    "is_active": i64::from(d.is_active),
                    "created_at": d.created_at,
                })
            })
            .collect();
        Ok(serde_json::json!({
            "exportedAt": crate::model::iso(now_ms()),
            "account": { "createdAt": crate::model::iso(created_at) },
            "profile": settings.profile,
            "notifications": settings.notifications,
            "security": settings.security,
            "recentSignIns": settings.recent_sign_ins,
            "websites": websites,
            "privacySettings": self.meta.exported_privacy_settings(user)?,
            "eventDefinitions": definitions,
            "funnels": self.meta.exported_funnels(user)?,
        }))
    }
}

/// The minutes of inactivity after which a sign-in of this account ends, as stored (a value out of range,
/// which only a hand edit could make, falls back to the default).
pub(crate) fn session_timeout_ms(stored: i64) -> i64 {
    let minutes =
        if (SESSION_TIMEOUT_MIN..=SESSION_TIMEOUT_MAX).contains(&stored) { stored } else { SESSION_TIMEOUT_DEFAULT };
    minutes * 60_000
}

/// Checks an IANA timezone name against the tz database bundled in the binary.
pub fn validate_timezone(timezone: &str) -> Result<String> {
    let timezone = timezone.trim();
    match chrono_tz::Tz::from_str(timezone) {
        Ok(tz) => Ok(tz.name().to_string()),
        Err(_) => Err(Error::invalid("timezone must be an IANA time zone name, such as Europe/Paris or UTC")),
    }
}

fn bounded_text(value: &str, field: &str) -> Result<String> {
    let value = value.trim();
    if value.chars().count() > MAX_TEXT_LEN {
        return Err(Error::invalid(format!("{field} must be at most {MAX_TEXT_LEN} characters")));
    }
    if value.chars().any(char::is_control) {
        return Err(Error::invalid(format!("{field} must not contain control characters")));
    }
    Ok(value.to_string())
}

fn gone() -> Error {
    Error::Unauthorized("account no longer exists".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The export's websites and event definitions, now read through the metadata store, are what the rows
    /// of the SQLite tables give (as the export wrote them before), JSON-looking names included.
    #[test]
    fn the_export_of_moved_aggregates_is_the_tables_rows() {
        use crate::store::event_definitions::NewEventDefinition;
        use crate::store::websites::WebsiteChanges;
        let fixture = crate::testing::one_site();
        let (tracker, user) = (&fixture.tracker, fixture.user.id);
        let rename = WebsiteChanges { name: Some("{\"a\": [1]}".into()), ..WebsiteChanges::default() };
        tracker.websites.update(user, fixture.site, rename).unwrap();
        let second = tracker
            .websites
            .create(
                user,
                crate::store::websites::NewWebsite {
                    name: "T".into(),
                    domain: "t.example".into(),
                    ..Default::default()
                },
            )
            .unwrap();
        for (site, name) in [(second.id, "[2]"), (fixture.site, "buy"), (second.id, "signup")] {
            let new = NewEventDefinition {
                name: Some(name.into()),
                display_name: Some(format!("The {name}")),
                is_conversion: Some(name == "buy"),
                conversion_value: Some(serde_json::json!("49.99")),
                ..NewEventDefinition::default()
            };
            tracker.definitions.create(site, new).unwrap();
        }
        let export = tracker.account.export(user).unwrap();
        let rows = |sql: &str| tracker.db().read(|conn| crate::store::meta::rows_as_json(conn, sql, user)).unwrap();
        let websites = rows(
            "SELECT id, name, domain, tracking_key AS trackingKey, tracking_level AS trackingLevel,
             created_at AS createdAt FROM websites WHERE user_id = ?1 ORDER BY id",
        );
        let definitions = rows(
            "SELECT d.* FROM event_definitions d JOIN websites w ON w.id = d.website_id
             WHERE w.user_id = ?1 ORDER BY d.id",
        );
        assert_eq!(export["websites"], serde_json::Value::Array(websites));
        assert_eq!(export["eventDefinitions"], serde_json::Value::Array(definitions));
        assert_eq!(export["websites"][0]["name"]["a"][0], 1, "JSON-looking text goes out as JSON, as before");
        assert_eq!(export["eventDefinitions"].as_array().unwrap().len(), 3);
    }

    #[test]
    fn timezones_come_from_the_iana_list() {
        assert_eq!(validate_timezone(" Europe/Paris ").unwrap(), "Europe/Paris");
        assert_eq!(validate_timezone("UTC").unwrap(), "UTC");
        for bad in ["", "Mars/Olympus", "Europe/Paris; DROP", "utc+1"] {
            assert!(validate_timezone(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn stored_timeouts_out_of_range_fall_back_to_the_default() {
        assert_eq!(session_timeout_ms(5), 300_000);
        assert_eq!(session_timeout_ms(480), 480 * 60_000);
        assert_eq!(session_timeout_ms(4), 30 * 60_000);
        assert_eq!(session_timeout_ms(10_000), 30 * 60_000);
    }
}
