-- The AI intent read from stored hours: per stored hour of advanced_hours, every visit scored under the intent
-- model fitted at `model` (its fitted_at in Unix ms), newest first (as the sessions' start index orders them),
-- 10 bytes each: the score (0-100), a byte of facts the read counts (converted, a one-page glance, viewed a key
-- page, viewed the model's first key page, returning, the source type) and the session id (little-endian i64)
-- to load a listed visit's details. In a table of its own: advanced_hours is WITHOUT ROWID and scanned over
-- whole ranges by every Advanced Analytics read, so blobs there would be read with it. Only the current model's
-- rows are kept (a refit's first scoring drops the older ones), so the table holds about the newest few
-- thousand visits per site. It replaces the high-intent bits of 0021; the next read scores the hours again.
ALTER TABLE advanced_hours DROP COLUMN intent_high;
ALTER TABLE advanced_hours DROP COLUMN intent_visits;
ALTER TABLE advanced_hours DROP COLUMN intent_model;
CREATE TABLE advanced_intent (
    website_id INTEGER NOT NULL REFERENCES websites(id) ON DELETE CASCADE,
    hour       INTEGER NOT NULL,
    model      INTEGER NOT NULL,
    scores     BLOB NOT NULL,
    PRIMARY KEY (website_id, hour)
);
