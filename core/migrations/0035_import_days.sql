-- The days each import holds data on (Unix ms of UTC midnight), so a new import is refused only on days an
-- earlier one filled, not on every day between an earlier import's first and last (one stray old hit used to
-- block a whole year). Imports from before this table keep their whole first-to-last window, as they were
-- checked then.
CREATE TABLE import_days (
    import_id  INTEGER NOT NULL REFERENCES imports(id) ON DELETE CASCADE,
    website_id INTEGER NOT NULL REFERENCES websites(id) ON DELETE CASCADE,
    day        INTEGER NOT NULL,
    PRIMARY KEY (website_id, day, import_id)
) WITHOUT ROWID;
CREATE INDEX import_days_import ON import_days(import_id);

INSERT INTO import_days (import_id, website_id, day)
WITH RECURSIVE spread(import_id, website_id, day, last_day) AS (
    SELECT id, website_id, first_day, last_day FROM imports
    UNION ALL
    SELECT import_id, website_id, day + 86400000, last_day FROM spread WHERE day < last_day
)
SELECT import_id, website_id, day FROM spread;
