-- Replay bomb (issue 12): the inflated bytes of each recording, so that uploads past the documented cap are
-- refused without inflating what is stored. Recordings stored before count only their later chunks.
ALTER TABLE replays ADD COLUMN inflated_size INTEGER NOT NULL DEFAULT 0;

-- Issue 12, finding 8: recordings mask every text node when on. NULL follows the tracking level (on for
-- professional sites), so new and existing sites get the level's default and a level change moves it; once the
-- owner sets it, the choice stays whatever the level.
ALTER TABLE privacy_settings ADD COLUMN recording_mask_all_text INTEGER;
