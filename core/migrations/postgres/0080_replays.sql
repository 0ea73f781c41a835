-- Session recordings in cluster mode (issue 18): one recording per visit (the visit ids the shared ingest state
-- hands out) with what the replay list shows, and its chunks as uploaded, gzip-compressed JSON arrays of rrweb
-- events, exactly as SQLite's migration 0003 keeps them. Recordings go with their site; chunks with their
-- recording.
CREATE TABLE replays (
    id            BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    website_id    BIGINT NOT NULL REFERENCES websites(id) ON DELETE CASCADE,
    visit_id      BIGINT NOT NULL UNIQUE,
    started_at    BIGINT NOT NULL,
    ended_at      BIGINT NOT NULL,
    byte_size     BIGINT NOT NULL DEFAULT 0,
    inflated_size BIGINT NOT NULL DEFAULT 0,
    event_count   BIGINT NOT NULL DEFAULT 0,
    click_count   BIGINT NOT NULL DEFAULT 0,
    screen        TEXT NOT NULL DEFAULT '',
    is_final      BOOLEAN NOT NULL DEFAULT FALSE,
    last_chunk_at BIGINT NOT NULL
);
CREATE INDEX replays_site_recent ON replays (website_id, last_chunk_at);

CREATE TABLE replay_chunks (
    replay_id BIGINT NOT NULL REFERENCES replays(id) ON DELETE CASCADE,
    seq       BIGINT NOT NULL,
    data      BYTEA NOT NULL,
    PRIMARY KEY (replay_id, seq)
);
-- The chunks are gzip already: stored out of line as they are, never compressed a second time.
ALTER TABLE replay_chunks ALTER COLUMN data SET STORAGE EXTERNAL;
