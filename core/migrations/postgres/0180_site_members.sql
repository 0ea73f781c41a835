-- Issue 37, as SQLite's 0031: a site's members with their roles (its owner is websites.user_id), and
-- invitations kept by the SHA-256 of their token, expiring and single use.
CREATE TABLE site_members (
    website_id BIGINT NOT NULL REFERENCES websites(id) ON DELETE CASCADE,
    user_id    BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    role       TEXT NOT NULL CHECK (role IN ('viewer', 'editor', 'admin')),
    created_at BIGINT NOT NULL,
    PRIMARY KEY (website_id, user_id)
);
CREATE INDEX site_members_user ON site_members (user_id);

CREATE TABLE site_invitations (
    id         BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    website_id BIGINT NOT NULL REFERENCES websites(id) ON DELETE CASCADE,
    email      TEXT NOT NULL,
    role       TEXT NOT NULL CHECK (role IN ('viewer', 'editor', 'admin')),
    token_hash BYTEA NOT NULL UNIQUE,
    invited_by BIGINT REFERENCES users(id) ON DELETE SET NULL,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL
);
CREATE INDEX site_invitations_site ON site_invitations (website_id);
CREATE INDEX site_invitations_email ON site_invitations (lower(email));
