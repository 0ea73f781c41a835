-- Issue 34, item 15: whether the replay player loads a recorded page's remote images, fonts and stylesheets
-- from the recorded site's hosts (which tells them the owner is watching). Off for every site until its
-- owner turns it on.
ALTER TABLE privacy_settings ADD COLUMN replay_remote_assets INTEGER NOT NULL DEFAULT 0;
