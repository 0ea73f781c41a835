-- Issue 37: team members with roles. A site's creator is its owner (websites.user_id); other accounts reach it
-- as members with a role below owner. An invitation names an address and a role; its token is kept only as its
-- SHA-256 (256 random bits), it expires, and accepting it deletes it (single use). A site's deletion takes its
-- members and invitations, an account's deletion its memberships; an inviter's deletion leaves the invitation.
CREATE TABLE site_members (
    website_id INTEGER NOT NULL REFERENCES websites(id) ON DELETE CASCADE,
    user_id    INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    role       TEXT NOT NULL CHECK (role IN ('viewer', 'editor', 'admin')),
    created_at INTEGER NOT NULL,
    PRIMARY KEY (website_id, user_id)
);
CREATE INDEX site_members_user ON site_members(user_id);

-- Ids are never reused (AUTOINCREMENT): an id in an old link must never name a later invitation.
CREATE TABLE site_invitations (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    website_id INTEGER NOT NULL REFERENCES websites(id) ON DELETE CASCADE,
    email      TEXT NOT NULL,
    role       TEXT NOT NULL CHECK (role IN ('viewer', 'editor', 'admin')),
    token_hash BLOB NOT NULL UNIQUE,
    invited_by INTEGER REFERENCES users(id) ON DELETE SET NULL,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
);
CREATE INDEX site_invitations_site ON site_invitations(website_id);
CREATE INDEX site_invitations_email ON site_invitations(lower(email));
