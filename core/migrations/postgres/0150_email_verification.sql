-- Issue 33, finding 4, as SQLite's 0027: reports and alerts go only to an address its owner confirmed by a
-- mailed link. email_verified_at is when (NULL: not confirmed); the link's token is kept only as its SHA-256
-- with its expiry, so a dump holds no usable link. Accounts existing before this migration count as confirmed
-- from their creation (their mail went out until now); an email change makes an account unconfirmed again.
ALTER TABLE users ADD COLUMN email_verified_at BIGINT;
ALTER TABLE users ADD COLUMN email_token_hash BYTEA;
ALTER TABLE users ADD COLUMN email_token_expires_at BIGINT;
UPDATE users SET email_verified_at = created_at;
CREATE UNIQUE INDEX users_email_token ON users (email_token_hash) WHERE email_token_hash IS NOT NULL;
