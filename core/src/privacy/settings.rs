//! Reading and changing a site's privacy settings and retention days; absent rows mean the defaults.

use serde::{Deserialize, Serialize};

use super::Privacy;
use crate::error::{Error, Result};
use crate::model::{TrackingLevel, WebsiteId, now_ms};

/// `GET /api/privacy/settings` (spec part 2 §3). With `anonymize_ips` on (the default) the stored address
/// is anonymised (last octet / last 80 bits zeroed); off, the owner keeps full addresses.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PrivacySettings {
    pub gdpr_compliant: bool,
    /// Visitors must consent before anything beyond anonymous page counts is kept.
    pub cookie_consent: bool,
    #[serde(rename = "anonymizeIPs")]
    pub anonymize_ips: bool,
    /// Browsers sending Do-Not-Track or Global Privacy Control are not tracked.
    pub respect_do_not_track: bool,
    pub data_subject_rights: bool,
    pub data_portability: bool,
    pub data_deletion: bool,
    pub data_retention_days: i64,
    pub data_processing_basis: String,
    pub consent_message: String,
    pub privacy_policy_url: String,
    /// Recordings mask every text node, not only inputs and editable text: the owner's choice, else on for
    /// professional sites (see `mask_all_text_choice`).
    pub mask_all_text: bool,
    /// What the owner chose; `None` follows the tracking level, so a level change moves the default along.
    #[serde(skip)]
    pub mask_all_text_choice: Option<bool>,
    /// The replay player loads the recorded page's remote images, fonts and stylesheets from the hosts that
    /// served them, which tells those hosts that someone is watching (and from what address). Off: the
    /// player loads nothing from elsewhere.
    pub replay_remote_assets: bool,
}

impl PrivacySettings {
    /// Whether recordings of a site at `level` mask all text (the script config reads the level fresh, the
    /// settings from a cache).
    pub fn masks_all_text(&self, level: TrackingLevel) -> bool {
        self.mask_all_text_choice.unwrap_or(level == TrackingLevel::Professional)
    }
}

impl Default for PrivacySettings {
    fn default() -> Self {
        PrivacySettings {
            gdpr_compliant: true,
            cookie_consent: false,
            anonymize_ips: true,
            respect_do_not_track: true,
            data_subject_rights: true,
            data_portability: true,
            data_deletion: true,
            data_retention_days: 90,
            data_processing_basis: "consent".into(),
            consent_message: "We use privacy-friendly analytics to improve this site.".into(),
            privacy_policy_url: String::new(),
            mask_all_text: false,
            mask_all_text_choice: None,
            replay_remote_assets: false,
        }
    }
}

/// Changed fields of `PUT /api/privacy/settings`; absent ones stay.
#[derive(Debug, Clone, Default, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PrivacyUpdate {
    pub gdpr_compliant: Option<bool>,
    pub cookie_consent: Option<bool>,
    #[serde(rename = "anonymizeIPs", alias = "anonymizeIps")]
    pub anonymize_ips: Option<bool>,
    pub respect_do_not_track: Option<bool>,
    pub data_subject_rights: Option<bool>,
    pub data_portability: Option<bool>,
    pub data_deletion: Option<bool>,
    pub data_retention_days: Option<i64>,
    pub data_processing_basis: Option<String>,
    pub consent_message: Option<String>,
    pub privacy_policy_url: Option<String>,
    pub mask_all_text: Option<bool>,
    pub replay_remote_assets: Option<bool>,
}

/// Days each type of data is kept (`GET /api/privacy/retention`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct Retention {
    pub pageviews: i64,
    pub events: i64,
    pub sessions: i64,
    pub heatmaps: i64,
    pub recordings: i64,
    pub conversions: i64,
}

impl Default for Retention {
    fn default() -> Self {
        Retention { pageviews: 90, events: 90, sessions: 90, heatmaps: 30, recordings: 30, conversions: 365 }
    }
}

/// Changed fields of a retention update.
#[derive(Debug, Clone, Default, Deserialize, utoipa::ToSchema)]
pub struct RetentionUpdate {
    pub pageviews: Option<i64>,
    pub events: Option<i64>,
    pub sessions: Option<i64>,
    pub heatmaps: Option<i64>,
    pub recordings: Option<i64>,
    pub conversions: Option<i64>,
}

impl Privacy {
    /// The privacy settings of a site (callers check ownership first).
    pub fn settings(&self, site: WebsiteId) -> Result<PrivacySettings> {
        self.meta.privacy_settings(site)
    }

    /// Applies changes to a site's privacy settings and returns the result.
    pub fn update_settings(&self, site: WebsiteId, update: PrivacyUpdate) -> Result<PrivacySettings> {
        let mut s = self.settings(site)?;
        macro_rules! set {
            ($($field:ident),*) => { $( if let Some(v) = update.$field { s.$field = v; } )* };
        }
        set!(
            gdpr_compliant,
            cookie_consent,
            anonymize_ips,
            respect_do_not_track,
            data_subject_rights,
            data_portability,
            data_deletion,
            replay_remote_assets
        );
        if let Some(days) = update.data_retention_days {
            s.data_retention_days = check_days("dataRetentionDays", days)?;
        }
        if let Some(basis) = update.data_processing_basis {
            if !matches!(basis.as_str(), "consent" | "legitimate_interest" | "contract") {
                return Err(Error::invalid("dataProcessingBasis must be consent, legitimate_interest or contract"));
            }
            s.data_processing_basis = basis;
        }
        if let Some(message) = update.consent_message {
            if message.chars().count() > 1000 {
                return Err(Error::invalid("consentMessage must be at most 1000 characters"));
            }
            crate::model::check_text("consentMessage", &message)?;
            s.consent_message = message;
        }
        if let Some(url) = update.privacy_policy_url {
            let url = url.trim().to_string();
            // Kept as typed, so a control character the parser would drop must not pass.
            let valid = url.is_empty()
                || (url.len() <= 2000
                    && !url.chars().any(char::is_control)
                    && url::Url::parse(&url).is_ok_and(|u| matches!(u.scheme(), "http" | "https")));
            if !valid {
                return Err(Error::invalid("privacyPolicyUrl must be an http or https URL"));
            }
            s.privacy_policy_url = url;
        }
        if let Some(mask) = update.mask_all_text {
            s.mask_all_text_choice = Some(mask);
            s.mask_all_text = mask;
        }
        self.meta.save_privacy_settings(site, &s, now_ms())?;
        self.forget_cached(site);
        Ok(s)
    }

    /// Retention days of a site.
    pub fn retention(&self, site: WebsiteId) -> Result<Retention> {
        self.meta.retention(site)
    }

    /// Applies changes to a site's retention days (each 1 to 365).
    pub fn update_retention(&self, site: WebsiteId, update: RetentionUpdate) -> Result<Retention> {
        let mut r = self.retention(site)?;
        macro_rules! set {
            ($($field:ident),*) => { $( if let Some(v) = update.$field { r.$field = check_days(stringify!($field), v)?; } )* };
        }
        set!(pageviews, events, sessions, heatmaps, recordings, conversions);
        self.meta.save_retention(site, &r, now_ms())?;
        Ok(r)
    }
}

/// Retention and data-retention days are 1 to 365 (spec part 2 §5).
fn check_days(field: &str, days: i64) -> Result<i64> {
    if !(1..=365).contains(&days) {
        return Err(Error::invalid(format!("{field} must be between 1 and 365 days")));
    }
    Ok(days)
}
