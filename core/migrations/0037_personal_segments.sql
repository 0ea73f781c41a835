-- Issue 36: a saved segment is shared with everyone on its site (0) or personal (1), listed only to the account
-- that saved it (created_by). Names stay unique per site either way.
ALTER TABLE saved_segments ADD COLUMN personal INTEGER NOT NULL DEFAULT 0;
