-- Issues 37 and 36: annotations (a dated note on a site's chart: a release, a campaign, a traffic spike) and saved
-- segments (a named set of the Stats API v2 filters the dashboard applies in one pick). Both belong to their
-- site: its deletion, and so its owner's, takes them (ON DELETE CASCADE). `created_by` names the account that
-- wrote one, and is emptied rather than taking the row with it when that account goes (a team member's notes
-- stay on the owner's site); it is NULL too for what tracker writes itself (`source` 'spike') or the operator
-- writes with `tracker annotate`. Ids are never reused (AUTOINCREMENT): a deleted row's id must not name the next.
CREATE TABLE annotations (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    website_id INTEGER NOT NULL REFERENCES websites(id) ON DELETE CASCADE,
    day        TEXT NOT NULL,
    text       TEXT NOT NULL,
    source     TEXT NOT NULL CHECK (source IN ('user', 'cli', 'spike')),
    created_by INTEGER REFERENCES users(id) ON DELETE SET NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE INDEX annotations_site_day ON annotations(website_id, day);

-- filters: the JSON array as the dashboard's URL holds it, checked by the filter parser when saved.
CREATE TABLE saved_segments (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    website_id INTEGER NOT NULL REFERENCES websites(id) ON DELETE CASCADE,
    name       TEXT NOT NULL,
    filters    TEXT NOT NULL,
    created_by INTEGER REFERENCES users(id) ON DELETE SET NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    UNIQUE (website_id, name)
);
