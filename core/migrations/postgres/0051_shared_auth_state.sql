-- What the daemons of one cluster must share for sign-ins (issue 18: no daemon holds state another needs):
-- live-stream tickets and attempt counters.

-- Live-stream tickets not yet redeemed, by SHA-256: redeeming deletes the row (single use), on any daemon. A
-- ticket goes with its account and its sign-in. The sign-in's fields are the ones the stream checks again.
CREATE TABLE stream_tickets (
    ticket_hash   BYTEA PRIMARY KEY,
    user_id       BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    session_id    BIGINT NOT NULL REFERENCES auth_sessions(id) ON DELETE CASCADE,
    token_version BIGINT NOT NULL,
    issued_at     BIGINT NOT NULL,
    -- When the credential the ticket was issued for ends (Unix seconds).
    credential_expires_at BIGINT NOT NULL,
    -- When the ticket itself ends (Unix milliseconds).
    expires_at    BIGINT NOT NULL
);
CREATE INDEX stream_tickets_expires ON stream_tickets (expires_at);

-- Attempts counted per limit ('login_network', 'login_account', 'registrations', 'two_factor'), key (a
-- network, an email, an account id) and fixed window (its start, Unix milliseconds). Rows of ended windows are
-- swept.
CREATE TABLE attempt_counts (
    limit_name   TEXT NOT NULL,
    key          TEXT NOT NULL,
    window_start BIGINT NOT NULL,
    window_end   BIGINT NOT NULL,
    attempts     INTEGER NOT NULL,
    PRIMARY KEY (limit_name, key, window_start)
);
CREATE INDEX attempt_counts_window_end ON attempt_counts (window_end);
