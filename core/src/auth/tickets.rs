//! Single-use, short-lived tickets that open the live stream: EventSource cannot send headers, and an
//! access token in a URL ends up in proxy logs and browser history. Kept in memory on one machine; in cluster
//! mode in PostgreSQL (migration 0051), so that a ticket issued by one daemon opens a stream on another.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde::Serialize;

use super::Principal;
use super::tokens::{hash_token, new_secret_token};
use crate::cluster::pg::Pg;
use crate::error::Result;
use crate::model::now_ms;

/// How long a stream ticket can be redeemed.
pub const STREAM_TICKET_TTL_SECS: u64 = 30;

/// A ticket handed to the dashboard.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct StreamTicket {
    pub ticket: String,
    pub expires_in: u64,
}

/// Tickets not yet redeemed, by hash.
pub enum StreamTickets {
    /// In this process (a ticket lives seconds).
    Memory(Mutex<HashMap<Vec<u8>, (Principal, Instant)>>),
    /// In the cluster's PostgreSQL: redeemed by a delete, so once on whichever daemon.
    Shared(Arc<Pg>),
}

impl StreamTickets {
    /// Tickets in memory, or in `pg` in cluster mode.
    pub fn new(pg: Option<Arc<Pg>>) -> StreamTickets {
        match pg {
            Some(pg) => StreamTickets::Shared(pg),
            None => StreamTickets::Memory(Mutex::default()),
        }
    }

    /// A new ticket for `principal`'s sign-in.
    pub fn issue(&self, principal: Principal) -> Result<StreamTicket> {
        let (ticket, hash) = new_secret_token();
        match self {
            StreamTickets::Memory(pending) => {
                let mut pending = pending.lock().unwrap_or_else(|e| e.into_inner());
                pending.retain(|_, (_, expires)| *expires > Instant::now());
                pending.insert(hash, (principal, Instant::now() + Duration::from_secs(STREAM_TICKET_TTL_SECS)));
            }
            StreamTickets::Shared(pg) => {
                let now = now_ms();
                let expires_at = now + STREAM_TICKET_TTL_SECS as i64 * 1000;
                // The expired tickets are swept by the same statement.
                pg.with(|c| {
                    c.execute(
                        "WITH swept AS (DELETE FROM stream_tickets WHERE expires_at <= $8)
                         INSERT INTO stream_tickets (ticket_hash, user_id, session_id, token_version, issued_at,
                            credential_expires_at, expires_at)
                         VALUES ($1, $2, $3, $4, $5, $6, $7)",
                        &[
                            &hash,
                            &principal.user,
                            &principal.session,
                            &principal.version,
                            &principal.issued_at,
                            &principal.expires_at,
                            &expires_at,
                            &now,
                        ],
                    )?;
                    Ok(())
                })?;
            }
        }
        Ok(StreamTicket { ticket, expires_in: STREAM_TICKET_TTL_SECS })
    }

    /// The sign-in a ticket was issued to; the ticket is gone afterwards, redeemed or not.
    pub fn redeem(&self, ticket: &str) -> Result<Option<Principal>> {
        match self {
            StreamTickets::Memory(pending) => {
                let mut pending = pending.lock().unwrap_or_else(|e| e.into_inner());
                Ok(pending.remove(&hash_token(ticket)).filter(|(_, expires)| *expires > Instant::now()).map(|(p, _)| p))
            }
            StreamTickets::Shared(pg) => {
                let row = pg.with(|c| {
                    Ok(c.query_opt(
                        "DELETE FROM stream_tickets WHERE ticket_hash = $1 AND expires_at > $2
                         RETURNING user_id, session_id, token_version, issued_at, credential_expires_at",
                        &[&hash_token(ticket), &now_ms()],
                    )?)
                })?;
                Ok(row.map(|r| Principal {
                    user: r.get(0),
                    session: r.get(1),
                    version: r.get(2),
                    issued_at: r.get(3),
                    expires_at: r.get(4),
                    api_key: None,
                }))
            }
        }
    }
}
