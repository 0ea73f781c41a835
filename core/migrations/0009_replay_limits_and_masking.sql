-- Replay bomb (issue 12): the inflated bytes of each recording, so that uploads past the documented cap are
-- refused without inflating what is stored. Recordings stored before count only their later chunks.
ALTER TABLE replays ADD COLUMN inflated_size INTEGER NOT NULL DEFAULT 0;
