//! Live updates: the ingest writer announces which websites just changed; SSE streams listen. In cluster mode
//! other daemons' batches arrive too, through PostgreSQL notices (cluster::notices).

use rand::Rng;
use tokio::sync::broadcast;

use crate::model::WebsiteId;

/// Fan-out of "this website has new data" notices, sent after each committed batch.
#[derive(Clone)]
pub struct LiveHub {
    sender: broadcast::Sender<WebsiteId>,
    /// Names this hub's own batches in cluster notices, so they are not published twice.
    origin: u64,
}

impl Default for LiveHub {
    fn default() -> Self {
        LiveHub { sender: broadcast::channel(1024).0, origin: rand::rng().random() }
    }
}

impl LiveHub {
    /// A receiver of the ids of websites that changed (lagging receivers skip ahead; they re-query anyway).
    pub fn subscribe(&self) -> broadcast::Receiver<WebsiteId> {
        self.sender.subscribe()
    }

    /// The id this hub's batches carry in cluster notices.
    pub(crate) fn origin(&self) -> u64 {
        self.origin
    }

    pub(crate) fn publish(&self, site: WebsiteId) {
        // No subscribers is fine: nobody is watching.
        let _ = self.sender.send(site);
    }
}
