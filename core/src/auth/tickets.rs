//! Single-use, short-lived tickets that open the live stream: EventSource cannot send headers, and an
//! access token in a URL ends up in proxy logs and browser history.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use serde::Serialize;

use super::Principal;
use super::tokens::{hash_token, new_secret_token};

/// How long a stream ticket can be redeemed.
pub const STREAM_TICKET_TTL_SECS: u64 = 30;

/// A ticket handed to the dashboard.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct StreamTicket {
    pub ticket: String,
    pub expires_in: u64,
}

/// Tickets not yet redeemed, by hash (kept in memory: a ticket lives seconds).
#[derive(Default)]
pub struct StreamTickets {
    pending: Mutex<HashMap<Vec<u8>, (Principal, Instant)>>,
}

impl StreamTickets {
    pub fn issue(&self, principal: Principal) -> StreamTicket {
        let (ticket, hash) = new_secret_token();
        let mut pending = self.pending.lock().unwrap_or_else(|e| e.into_inner());
        pending.retain(|_, (_, expires)| *expires > Instant::now());
        pending.insert(hash, (principal, Instant::now() + Duration::from_secs(STREAM_TICKET_TTL_SECS)));
        StreamTicket { ticket, expires_in: STREAM_TICKET_TTL_SECS }
    }

    /// The sign-in a ticket was issued to; the ticket is gone afterwards, redeemed or not.
    pub fn redeem(&self, ticket: &str) -> Option<Principal> {
        let mut pending = self.pending.lock().unwrap_or_else(|e| e.into_inner());
        let (principal, expires) = pending.remove(&hash_token(ticket))?;
        (expires > Instant::now()).then_some(principal)
    }
}
