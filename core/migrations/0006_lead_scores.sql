-- The identified-visitors list is the top 100 by lead score. A virtual column holds the score, and a partial
-- index keeps identified sessions in list order, so the list reads 100 index entries instead of sorting every
-- identified session of the site (seconds of work at tens of millions of events).
ALTER TABLE sessions ADD COLUMN lead_score INTEGER
    GENERATED ALWAYS AS (MIN(page_views * 10, 50) + MIN(events * 5, 20) + is_converted * 30) VIRTUAL;
DROP INDEX sessions_identified;
CREATE INDEX sessions_identified ON sessions(website_id, lead_score DESC, last_seen DESC)
    WHERE organization_id IS NOT NULL OR traits IS NOT NULL;
