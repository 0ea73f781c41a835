//! Privacy settings behind the metadata boundary: a site's consent, Do-Not-Track, IP and recording-mask
//! choices. `Privacy` validates and calls these; ingest reads them (through its cache) on every hit. A site
//! without a row has the defaults. Retention days share the row but are their own aggregate (`retention.rs`).

use rusqlite::{OptionalExtension, params};

use super::{PgMeta, SqliteMeta};
use crate::error::Result;
use crate::model::{Millis, TrackingLevel, WebsiteId};
use crate::privacy::PrivacySettings;

/// Privacy settings: each method is one statement.
pub trait PrivacySettingsStore {
    /// A site's settings, the defaults where none are stored, with `mask_all_text` as of its tracking level.
    fn privacy_settings(&self, site: WebsiteId) -> Result<PrivacySettings>;
    /// Stores a site's settings (all of them) if the site exists; `at` is the change's time.
    fn save_privacy_settings(&self, site: WebsiteId, settings: &PrivacySettings, at: Millis) -> Result<()>;
}

/// The stored row's fields and the site's level, as both engines read them.
type Stored = (Option<PrivacySettings>, Option<String>);

/// The settings answered for a stored row (or none) and a site's level (or none).
fn settings_of((row, level): Stored) -> PrivacySettings {
    let mut settings = row.unwrap_or_default();
    let level = level.and_then(|l| TrackingLevel::parse(&l).ok()).unwrap_or_default();
    settings.mask_all_text = settings.masks_all_text(level);
    settings
}

impl PrivacySettingsStore for SqliteMeta {
    fn privacy_settings(&self, site: WebsiteId) -> Result<PrivacySettings> {
        self.db.read(|conn| {
            let stored: Option<Stored> = conn
                .query_row(
                    "SELECT p.website_id IS NOT NULL, p.gdpr_compliant, p.cookie_consent, p.anonymize_ips,
                            p.respect_do_not_track, p.data_subject_rights, p.data_portability, p.data_deletion,
                            p.data_retention_days, p.data_processing_basis, p.consent_message, p.privacy_policy_url,
                            p.recording_mask_all_text, p.replay_remote_assets, w.tracking_level
                     FROM websites w LEFT JOIN privacy_settings p ON p.website_id = w.id WHERE w.id = ?1",
                    [site],
                    |r| {
                        let row = if r.get(0)? {
                            Some(PrivacySettings {
                                gdpr_compliant: r.get(1)?,
                                cookie_consent: r.get(2)?,
                                anonymize_ips: r.get(3)?,
                                respect_do_not_track: r.get(4)?,
                                data_subject_rights: r.get(5)?,
                                data_portability: r.get(6)?,
                                data_deletion: r.get(7)?,
                                data_retention_days: r.get(8)?,
                                data_processing_basis: r.get(9)?,
                                consent_message: r.get(10)?,
                                privacy_policy_url: r.get(11)?,
                                mask_all_text: false,
                                mask_all_text_choice: r.get(12)?,
                                replay_remote_assets: r.get(13)?,
                            })
                        } else {
                            None
                        };
                        Ok((row, r.get(14)?))
                    },
                )
                .optional()?;
            Ok(settings_of(stored.unwrap_or_default()))
        })
    }

    fn save_privacy_settings(&self, site: WebsiteId, s: &PrivacySettings, at: Millis) -> Result<()> {
        self.db.write(|conn| {
            conn.execute(
                "INSERT INTO privacy_settings (website_id, gdpr_compliant, cookie_consent, anonymize_ips,
                    respect_do_not_track, data_subject_rights, data_portability, data_deletion, data_retention_days,
                    data_processing_basis, consent_message, privacy_policy_url, recording_mask_all_text,
                    replay_remote_assets, updated_at)
                 SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15
                 WHERE EXISTS (SELECT 1 FROM websites WHERE id = ?1)
                 ON CONFLICT (website_id) DO UPDATE SET gdpr_compliant = excluded.gdpr_compliant,
                    cookie_consent = excluded.cookie_consent, anonymize_ips = excluded.anonymize_ips,
                    respect_do_not_track = excluded.respect_do_not_track,
                    data_subject_rights = excluded.data_subject_rights, data_portability = excluded.data_portability,
                    data_deletion = excluded.data_deletion, data_retention_days = excluded.data_retention_days,
                    data_processing_basis = excluded.data_processing_basis,
                    consent_message = excluded.consent_message, privacy_policy_url = excluded.privacy_policy_url,
                    recording_mask_all_text = excluded.recording_mask_all_text,
                    replay_remote_assets = excluded.replay_remote_assets, updated_at = excluded.updated_at",
                params![
                    site,
                    s.gdpr_compliant,
                    s.cookie_consent,
                    s.anonymize_ips,
                    s.respect_do_not_track,
                    s.data_subject_rights,
                    s.data_portability,
                    s.data_deletion,
                    s.data_retention_days,
                    s.data_processing_basis,
                    s.consent_message,
                    s.privacy_policy_url,
                    s.mask_all_text_choice,
                    s.replay_remote_assets,
                    at
                ],
            )?;
            Ok(())
        })
    }
}

impl PrivacySettingsStore for PgMeta {
    fn privacy_settings(&self, site: WebsiteId) -> Result<PrivacySettings> {
        self.pg.with(|c| {
            let stored: Option<Stored> = c
                .query_opt(
                    "SELECT p.website_id IS NOT NULL, p.gdpr_compliant, p.cookie_consent, p.anonymize_ips,
                            p.respect_do_not_track, p.data_subject_rights, p.data_portability, p.data_deletion,
                            p.data_retention_days, p.data_processing_basis, p.consent_message, p.privacy_policy_url,
                            p.recording_mask_all_text, p.replay_remote_assets, w.tracking_level
                     FROM websites w LEFT JOIN privacy_settings p ON p.website_id = w.id WHERE w.id = $1",
                    &[&site],
                )?
                .map(|r| {
                    let row = r.get::<_, bool>(0).then(|| PrivacySettings {
                        gdpr_compliant: r.get(1),
                        cookie_consent: r.get(2),
                        anonymize_ips: r.get(3),
                        respect_do_not_track: r.get(4),
                        data_subject_rights: r.get(5),
                        data_portability: r.get(6),
                        data_deletion: r.get(7),
                        data_retention_days: r.get(8),
                        data_processing_basis: r.get(9),
                        consent_message: r.get(10),
                        privacy_policy_url: r.get(11),
                        mask_all_text: false,
                        mask_all_text_choice: r.get(12),
                        replay_remote_assets: r.get(13),
                    });
                    (row, r.get(14))
                });
            Ok(settings_of(stored.unwrap_or_default()))
        })
    }

    fn save_privacy_settings(&self, site: WebsiteId, s: &PrivacySettings, at: Millis) -> Result<()> {
        self.pg.with(|c| {
            c.execute(
                "INSERT INTO privacy_settings (website_id, gdpr_compliant, cookie_consent, anonymize_ips,
                    respect_do_not_track, data_subject_rights, data_portability, data_deletion, data_retention_days,
                    data_processing_basis, consent_message, privacy_policy_url, recording_mask_all_text,
                    replay_remote_assets, updated_at)
                 SELECT $1::BIGINT, $2::BOOLEAN, $3::BOOLEAN, $4::BOOLEAN, $5::BOOLEAN, $6::BOOLEAN, $7::BOOLEAN,
                        $8::BOOLEAN, $9::BIGINT, $10::TEXT, $11::TEXT, $12::TEXT, $13::BOOLEAN, $14::BOOLEAN,
                        $15::BIGINT
                 WHERE EXISTS (SELECT 1 FROM websites WHERE id = $1)
                 ON CONFLICT (website_id) DO UPDATE SET gdpr_compliant = excluded.gdpr_compliant,
                    cookie_consent = excluded.cookie_consent, anonymize_ips = excluded.anonymize_ips,
                    respect_do_not_track = excluded.respect_do_not_track,
                    data_subject_rights = excluded.data_subject_rights, data_portability = excluded.data_portability,
                    data_deletion = excluded.data_deletion, data_retention_days = excluded.data_retention_days,
                    data_processing_basis = excluded.data_processing_basis,
                    consent_message = excluded.consent_message, privacy_policy_url = excluded.privacy_policy_url,
                    recording_mask_all_text = excluded.recording_mask_all_text,
                    replay_remote_assets = excluded.replay_remote_assets, updated_at = excluded.updated_at",
                &[
                    &site,
                    &s.gdpr_compliant,
                    &s.cookie_consent,
                    &s.anonymize_ips,
                    &s.respect_do_not_track,
                    &s.data_subject_rights,
                    &s.data_portability,
                    &s.data_deletion,
                    &s.data_retention_days,
                    &s.data_processing_basis,
                    &s.consent_message,
                    &s.privacy_policy_url,
                    &s.mask_all_text_choice,
                    &s.replay_remote_assets,
                    &at,
                ],
            )?;
            Ok(())
        })
    }
}
