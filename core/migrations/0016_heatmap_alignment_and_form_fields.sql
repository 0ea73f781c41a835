-- Heatmap alignment and form-field capture (issue 14, heatmap panel).
-- offset_x, offset_y: where inside the clicked element the click was, as fractions 0..1 of its box, so the
-- panel can place the click on that element in a page rendered at another width; NULL for clicks sent
-- before this (they are placed by their page coordinates scaled to the document's size).
ALTER TABLE heatmap_points ADD COLUMN offset_x REAL;
ALTER TABLE heatmap_points ADD COLUMN offset_y REAL;

-- heatmap_points.field (the click hit a form field) is no longer written: form fields are measured below.

-- Focus, blur and change of form fields. form: the form's selector ('' for a field outside any form);
-- field: the field's selector; filled: the field held a value after the event. Never the value itself.
CREATE TABLE form_field_events (
    id         INTEGER PRIMARY KEY,
    website_id INTEGER NOT NULL REFERENCES websites(id) ON DELETE CASCADE,
    session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    path       TEXT NOT NULL,
    ts         INTEGER NOT NULL,
    form       TEXT NOT NULL,
    field      TEXT NOT NULL,
    kind       TEXT NOT NULL CHECK (kind IN ('focus', 'blur', 'change')),
    filled     INTEGER NOT NULL CHECK (filled IN (0, 1))
);
CREATE INDEX form_field_events_site_path_ts ON form_field_events(website_id, path, ts);
CREATE INDEX form_field_events_session ON form_field_events(session_id);
