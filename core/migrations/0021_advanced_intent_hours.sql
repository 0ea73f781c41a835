-- The Advanced Analytics high-intent count per stored hour: which of the hour's visits (newest first, as
-- the sessions' start index orders them) score 60 or more under the intent model fitted at intent_model
-- (the model's fitted_at in Unix ms). intent_high is a bit set, bit i of byte i / 8 for the i-th newest visit,
-- over intent_visits visits. NULL until a read needs the hour; a refit makes the bits stale (a different
-- intent_model) and the next read scores the hour again. Forgetting the hour's row forgets them too.
ALTER TABLE advanced_hours ADD COLUMN intent_model INTEGER;
ALTER TABLE advanced_hours ADD COLUMN intent_visits INTEGER;
ALTER TABLE advanced_hours ADD COLUMN intent_high BLOB;
