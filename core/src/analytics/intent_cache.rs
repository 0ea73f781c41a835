//! Each site's intent model as this daemon fitted it: fitted on first use, refitted when older than
//! [`MODEL_MAX_AGE_MS`] (each daemon fits its own; the same visits give every daemon the same model).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use super::advanced::MODEL_MAX_AGE_MS;
use super::intent::IntentModel;
use crate::error::Result;
use crate::model::{Millis, WebsiteId, now_ms};

/// The cache of fitted models, shared by the clones of the engine that holds it.
#[derive(Clone, Default)]
pub struct IntentModels {
    models: Arc<Mutex<HashMap<WebsiteId, Arc<IntentModel>>>>,
}

impl IntentModels {
    /// The site's model from this daemon's cache, or fitted by `fit(now)` and cached: SQLite's fit, or the
    /// cluster's on ClickHouse (each daemon fits its own; the same visits give every daemon the same model).
    pub fn cached(
        &self,
        site: WebsiteId,
        refit: bool,
        fit: impl FnOnce(Millis) -> Result<IntentModel>,
    ) -> Result<Arc<IntentModel>> {
        let now = now_ms();
        if !refit {
            let cache = self.models.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(model) = cache.get(&site)
                && now - model.info.fitted_at < MODEL_MAX_AGE_MS
            {
                return Ok(model.clone());
            }
        }
        let model = Arc::new(fit(now)?);
        self.models.lock().unwrap_or_else(|e| e.into_inner()).insert(site, model.clone());
        Ok(model)
    }

    /// The models of `sites` from this daemon's cache, those missing or stale fitted together by
    /// `fit(stale sites, now)` and cached: one fit for all of an account's sites (the cluster's grouped read).
    pub fn cached_all(
        &self,
        sites: &[WebsiteId],
        fit: impl FnOnce(&[WebsiteId], Millis) -> Result<HashMap<WebsiteId, IntentModel>>,
    ) -> Result<HashMap<WebsiteId, Arc<IntentModel>>> {
        let now = now_ms();
        let mut models = HashMap::with_capacity(sites.len());
        let mut stale = Vec::new();
        {
            let cache = self.models.lock().unwrap_or_else(|e| e.into_inner());
            for &site in sites {
                match cache.get(&site) {
                    Some(model) if now - model.info.fitted_at < MODEL_MAX_AGE_MS => {
                        models.insert(site, model.clone());
                    }
                    _ => stale.push(site),
                }
            }
        }
        if !stale.is_empty() {
            let fitted = fit(&stale, now)?;
            let mut cache = self.models.lock().unwrap_or_else(|e| e.into_inner());
            for (site, model) in fitted {
                let model = Arc::new(model);
                cache.insert(site, model.clone());
                models.insert(site, model);
            }
        }
        Ok(models)
    }
}
