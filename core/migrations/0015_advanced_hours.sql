-- Advanced Analytics' visit aggregates per hour (visits by the hour they started): visitor segments and, per page,
-- the visits that viewed it, each with how many converted. Filled from the raw rows by the first read that needs
-- an hour, once every visit that started in it has ended; the hours still open are counted live. A deletion,
-- import or retention run forgets the hours it changes, and the next read counts them again.
-- hour: Unix ms of the hour's start. An hour with a marker row in advanced_hours is stored, even without visits.
CREATE TABLE advanced_hours (
    website_id INTEGER NOT NULL REFERENCES websites(id) ON DELETE CASCADE,
    hour       INTEGER NOT NULL,
    visits     INTEGER NOT NULL,
    PRIMARY KEY (website_id, hour)
) WITHOUT ROWID;

-- grp: visitor (new / returning that day), source (search, social, direct, referral, campaign) or device.
CREATE TABLE advanced_segments (
    website_id INTEGER NOT NULL REFERENCES websites(id) ON DELETE CASCADE,
    hour       INTEGER NOT NULL,
    grp        TEXT NOT NULL,
    segment    TEXT NOT NULL,
    visits     INTEGER NOT NULL,
    converted  INTEGER NOT NULL,
    PRIMARY KEY (website_id, hour, grp, segment)
) WITHOUT ROWID;

-- Keyed by path first: a read sums one page's hours of the range.
CREATE TABLE advanced_pages (
    website_id INTEGER NOT NULL REFERENCES websites(id) ON DELETE CASCADE,
    path       TEXT NOT NULL,
    hour       INTEGER NOT NULL,
    visits     INTEGER NOT NULL,
    converted  INTEGER NOT NULL,
    PRIMARY KEY (website_id, path, hour)
) WITHOUT ROWID;
