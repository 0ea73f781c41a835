-- Deletions of events that answer at once (issue 39): deleting a site or an account removes its metadata in the
-- request and leaves here the job of deleting its events on every ClickHouse shard, which any daemon claims
-- (a lease, renewed while it works), retries with backoff until every shard has none left, then deletes.
CREATE TABLE deletion_jobs (
    id BIGSERIAL PRIMARY KEY,
    -- The sites whose rows go from every site table of every shard (an account's sites in one job).
    website_ids BIGINT[] NOT NULL,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    -- Not claimed before: a short grace after the request for hits already admitted, and the backoff after a
    -- failed attempt.
    run_after TIMESTAMPTZ NOT NULL DEFAULT now(),
    -- Held by the daemon working on it until then; a daemon that died lets it go when it lapses.
    leased_until TIMESTAMPTZ,
    attempts INTEGER NOT NULL DEFAULT 0,
    last_error TEXT
);
CREATE INDEX deletion_jobs_due ON deletion_jobs (run_after);
