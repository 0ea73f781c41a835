-- The AI intent read from stored hours: per stored hour, every visit scored under the intent model fitted at
-- intent_model, newest first (as the sessions' start index orders them), 10 bytes each: the score (0-100), a
-- byte of facts the read counts (converted, a one-page glance, viewed a key page, viewed the model's first key
-- page, returning, the source type) and the session id (little-endian i64) to load a listed visit's details.
-- It replaces the high-intent bits of 0021 (the score says whether a visit is high intent); those are
-- forgotten, and the next read scores the hours again.
ALTER TABLE advanced_hours ADD COLUMN intent_scores BLOB;
ALTER TABLE advanced_hours DROP COLUMN intent_high;
UPDATE advanced_hours SET intent_model = NULL, intent_visits = NULL;
