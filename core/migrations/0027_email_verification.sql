-- Issue 33, finding 4: reports and alerts go only to an address its owner confirmed by following a link mailed
-- to it. email_verified_at is when that happened (NULL: not confirmed); the link's token is kept only as its
-- SHA-256 with its expiry, so a copy of this file holds no usable link. Accounts made before this migration
-- count as confirmed from their creation: their reports and alerts went out until now and must not stop
-- without a word. An email change makes an account unconfirmed again (the store's set_email).
ALTER TABLE users ADD COLUMN email_verified_at INTEGER;
ALTER TABLE users ADD COLUMN email_token_hash BLOB;
ALTER TABLE users ADD COLUMN email_token_expires_at INTEGER;
UPDATE users SET email_verified_at = created_at;
CREATE UNIQUE INDEX users_email_token ON users(email_token_hash) WHERE email_token_hash IS NOT NULL;
