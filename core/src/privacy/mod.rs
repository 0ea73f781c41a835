//! Privacy: per-site settings (consent, Do-Not-Track, IP handling) and retention days per data type.

pub mod deletion;
pub mod retention;
mod settings;

pub use deletion::{DataType, DeletionReport};
pub use retention::{RetentionReport, SiteRetention};
pub use settings::{PrivacySettings, PrivacyUpdate, Retention, RetentionUpdate};

use crate::db::Db;

/// Privacy settings, retention, deletion and consent of websites.
#[derive(Clone)]
pub struct Privacy {
    pub(crate) db: Db,
}

impl Privacy {
    pub(crate) fn new(db: Db) -> Privacy {
        Privacy { db }
    }
}
