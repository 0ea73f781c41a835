//! Live updates: the ingest writer announces which websites just changed; SSE streams listen.

use tokio::sync::broadcast;

use crate::model::WebsiteId;

/// Fan-out of "this website has new data" notices, sent after each committed batch.
#[derive(Clone)]
pub struct LiveHub {
    sender: broadcast::Sender<WebsiteId>,
}

impl Default for LiveHub {
    fn default() -> Self {
        LiveHub { sender: broadcast::channel(1024).0 }
    }
}

impl LiveHub {
    /// A receiver of the ids of websites that changed (lagging receivers skip ahead; they re-query anyway).
    pub fn subscribe(&self) -> broadcast::Receiver<WebsiteId> {
        self.sender.subscribe()
    }

    pub(crate) fn publish(&self, site: WebsiteId) {
        // No subscribers is fine: nobody is watching.
        let _ = self.sender.send(site);
    }
}
