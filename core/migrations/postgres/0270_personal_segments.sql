-- Issue 36, as SQLite's 0037: a saved segment is shared with its site or personal to the account that saved it.
ALTER TABLE saved_segments ADD COLUMN personal BOOLEAN NOT NULL DEFAULT FALSE;
