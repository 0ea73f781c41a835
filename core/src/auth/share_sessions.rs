//! Share sessions (issue 37): what opens a password-protected share link for a while. A share token is an HS256
//! token under a key derived from the instance secret for this use alone, so no access-token check can ever
//! accept one (and no share check an access token); it names its link by id and slug, lives an hour, and every
//! request re-reads the link, so a deleted link or site ends it at once. Wrong passwords count against the
//! client network and the link, as wrong login passwords do (in PostgreSQL in cluster mode).

use std::net::IpAddr;

use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::{Auth, hash_password, network_key, validate_password, verify_password};
use crate::error::{Error, Result};

/// Lifetime of a share token.
pub const SHARE_TOKEN_TTL_SECS: i64 = 60 * 60;

/// What a share token says: which link it opens, and when it ends.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct ShareClaims {
    /// The link's id and slug: a token stays with the one link it was issued for.
    lnk: i64,
    slg: String,
    /// Always "share": the claim set of an access token has no such field.
    aud: String,
    iat: i64,
    exp: i64,
}

/// A share session handed to the visitor.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ShareSession {
    pub token: String,
    pub expires_in: i64,
}

/// The keys of share tokens, derived from the instance secret.
pub(crate) struct ShareKeys {
    encoding: EncodingKey,
    decoding: DecodingKey,
    validation: Validation,
}

impl ShareKeys {
    pub(crate) fn new(secret: &[u8]) -> ShareKeys {
        let key = Sha256::new().chain_update(b"tracker share session v1\0").chain_update(secret).finalize();
        let mut validation = Validation::new(Algorithm::HS256);
        validation.algorithms = vec![Algorithm::HS256];
        validation.set_required_spec_claims(&["exp", "aud"]);
        validation.set_audience(&["share"]);
        validation.leeway = 5;
        ShareKeys { encoding: EncodingKey::from_secret(&key), decoding: DecodingKey::from_secret(&key), validation }
    }
}

impl Auth {
    /// The stored form of a link's password: checked as an account password is, hashed with argon2id.
    pub(crate) fn hash_link_password(&self, password: &str) -> Result<String> {
        validate_password(password)?;
        self.argon.run(|| hash_password(password))
    }

    /// Opens a share session for link `id` (`slug`) once `password` matches `hash`: refused outright while the
    /// client network or the link is over its limit of wrong passwords (429), 401 for a wrong one.
    pub(crate) fn open_share_session(
        &self,
        id: i64,
        slug: &str,
        hash: &str,
        password: &str,
        client: IpAddr,
    ) -> Result<ShareSession> {
        let limit = self.settings.read(|s| s.login_attempts_per_minute);
        let network = network_key(client);
        if !self.limits.share_network_failures.try_acquire(&network, limit)? {
            return Err(Error::RateLimited);
        }
        if !self.limits.share_link_failures.try_acquire(&id, limit)? {
            self.limits.share_network_failures.refund(&network);
            return Err(Error::RateLimited);
        }
        if !self.argon.run(|| Ok(verify_password(password, hash)))? {
            return Err(Error::Unauthorized("wrong password for this share link".into()));
        }
        self.limits.share_network_failures.refund(&network);
        self.limits.share_link_failures.refund(&id);
        let now = chrono::Utc::now().timestamp();
        let claims = ShareClaims {
            lnk: id,
            slg: slug.to_string(),
            aud: "share".into(),
            iat: now,
            exp: now + SHARE_TOKEN_TTL_SECS,
        };
        let token = jsonwebtoken::encode(&Header::new(Algorithm::HS256), &claims, &self.share_keys.encoding)
            .map_err(|e| Error::Internal(format!("token signing failed: {e}")))?;
        Ok(ShareSession { token, expires_in: SHARE_TOKEN_TTL_SECS })
    }

    /// Checks that `token` is a live share token of link `id` (`slug`); 401 otherwise.
    pub(crate) fn check_share_token(&self, token: &str, id: i64, slug: &str) -> Result<()> {
        let refused = || Error::InvalidToken("invalid or expired share session".into());
        let claims = jsonwebtoken::decode::<ShareClaims>(token, &self.share_keys.decoding, &self.share_keys.validation)
            .map_err(|_| refused())?
            .claims;
        if claims.lnk != id || claims.slg != slug { Err(refused()) } else { Ok(()) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::auth::TokenKeys;

    #[test]
    fn share_tokens_and_access_tokens_never_stand_for_each_other() {
        let secret = b"0123456789abcdef0123456789abcdef";
        let share = ShareKeys::new(secret);
        let access = TokenKeys::new(secret);
        let now = chrono::Utc::now().timestamp();
        let claims = ShareClaims { lnk: 1, slg: "s".into(), aud: "share".into(), iat: now, exp: now + 60 };
        let token = jsonwebtoken::encode(&Header::new(Algorithm::HS256), &claims, &share.encoding).unwrap();
        assert!(access.verify(&token).is_err(), "a share token is no access token");
        let access_token = access.access_token(1, 1, 0).unwrap();
        assert!(
            jsonwebtoken::decode::<ShareClaims>(&access_token, &share.decoding, &share.validation).is_err(),
            "an access token is no share token"
        );
        assert!(jsonwebtoken::decode::<ShareClaims>(&token, &share.decoding, &share.validation).is_ok());
    }
}
