-- The secret every daemon of a cluster signs and checks sign-in tokens with (unless jwt_secret is configured):
-- made by the first daemon to start, one row only.
CREATE TABLE signing_secret (
    id SMALLINT PRIMARY KEY CHECK (id = 1),
    secret BYTEA NOT NULL
);
