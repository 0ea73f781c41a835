-- Organizations of a site in cluster mode (issue 18): who visited (ASN and name from the offline data, with its
-- confidence), recorded by every daemon's ingest, and what the owner said of them (domain, industry, size; ''
-- where nothing), as SQLite's migration 0003 keeps them. Their visits are events: ClickHouse keeps each hit's
-- organization, and the list counts them there. Entries go with their site.
CREATE TABLE organizations (
    id         BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    website_id BIGINT NOT NULL REFERENCES websites(id) ON DELETE CASCADE,
    asn        BIGINT NOT NULL,
    name       TEXT NOT NULL,
    confidence BIGINT NOT NULL DEFAULT 0,
    domain     TEXT NOT NULL DEFAULT '',
    industry   TEXT NOT NULL DEFAULT '',
    size       TEXT NOT NULL DEFAULT '',
    first_seen BIGINT NOT NULL,
    UNIQUE (website_id, asn)
);
