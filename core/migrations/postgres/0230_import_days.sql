-- The days each import holds data on (SQLite's migration 0035): a new import is refused only on days an
-- earlier one filled, not on every day of its first-to-last window. Imports from before keep their window.
CREATE TABLE import_days (
    import_id  BIGINT NOT NULL REFERENCES imports(id) ON DELETE CASCADE,
    website_id BIGINT NOT NULL REFERENCES websites(id) ON DELETE CASCADE,
    day        BIGINT NOT NULL,
    PRIMARY KEY (website_id, day, import_id)
);
CREATE INDEX import_days_import ON import_days (import_id);

INSERT INTO import_days (import_id, website_id, day)
SELECT id, website_id, generate_series(first_day, last_day, 86400000) FROM imports;
