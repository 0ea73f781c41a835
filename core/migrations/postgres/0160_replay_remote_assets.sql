-- Issue 34, item 15: whether the replay player loads a recorded page's remote images, fonts and stylesheets
-- (SQLite's 0028). Off for every site until its owner turns it on.
ALTER TABLE privacy_settings ADD COLUMN replay_remote_assets BOOLEAN NOT NULL DEFAULT FALSE;
