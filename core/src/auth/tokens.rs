//! Access tokens (JWT HS256, algorithm pinned, exp required) and random refresh tokens stored as hashes.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use rand::RngCore;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::error::{Error, Result};
use crate::model::UserId;

/// Lifetime of an access token.
pub const ACCESS_TOKEN_TTL_SECS: i64 = 15 * 60;
/// Lifetime of a refresh token.
pub const REFRESH_TOKEN_TTL_DAYS: i64 = 30;

#[derive(Serialize, Deserialize)]
struct Claims {
    sub: String,
    iat: i64,
    exp: i64,
}

/// Signing and verification keys derived from the instance secret.
pub struct TokenKeys {
    encoding: EncodingKey,
    decoding: DecodingKey,
    validation: Validation,
}

impl TokenKeys {
    pub fn new(secret: &[u8]) -> TokenKeys {
        let mut validation = Validation::new(Algorithm::HS256);
        validation.algorithms = vec![Algorithm::HS256];
        validation.set_required_spec_claims(&["exp", "sub"]);
        validation.leeway = 5;
        TokenKeys { encoding: EncodingKey::from_secret(secret), decoding: DecodingKey::from_secret(secret), validation }
    }

    /// Signs a short-lived access token for a user.
    pub fn access_token(&self, user: UserId) -> Result<String> {
        let now = chrono::Utc::now().timestamp();
        let claims = Claims { sub: user.to_string(), iat: now, exp: now + ACCESS_TOKEN_TTL_SECS };
        jsonwebtoken::encode(&Header::new(Algorithm::HS256), &claims, &self.encoding)
            .map_err(|e| Error::Internal(format!("token signing failed: {e}")))
    }

    /// Verifies signature, algorithm and expiry; returns the user id.
    pub fn verify(&self, token: &str) -> Result<UserId> {
        let data = jsonwebtoken::decode::<Claims>(token, &self.decoding, &self.validation)
            .map_err(|_| Error::Unauthorized("invalid or expired token".into()))?;
        data.claims.sub.parse().map_err(|_| Error::Unauthorized("invalid or expired token".into()))
    }
}

/// URL-safe random text from `bytes` random bytes.
pub fn random_token(bytes: usize) -> String {
    let mut buf = vec![0u8; bytes];
    rand::rng().fill_bytes(&mut buf);
    URL_SAFE_NO_PAD.encode(buf)
}

/// A new refresh token and the hash under which it is stored.
pub fn new_refresh_token() -> (String, Vec<u8>) {
    let token = random_token(32);
    let hash = hash_refresh_token(&token);
    (token, hash)
}

/// The stored form of a refresh token: its SHA-256 (the token itself has 256 bits of entropy).
pub fn hash_refresh_token(token: &str) -> Vec<u8> {
    Sha256::digest(token.as_bytes()).to_vec()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_round_trip_and_reject_forgeries() {
        let keys = TokenKeys::new(b"0123456789abcdef0123456789abcdef");
        let token = keys.access_token(42).unwrap();
        assert_eq!(keys.verify(&token).unwrap(), 42);
        let other = TokenKeys::new(b"another secret another secret 12");
        assert!(other.verify(&token).is_err());
        // alg none: header {"alg":"none"} with the same claims and no signature.
        let payload = token.split('.').nth(1).unwrap();
        let none = format!("{}.{}.", URL_SAFE_NO_PAD.encode(r#"{"alg":"none","typ":"JWT"}"#), payload);
        assert!(keys.verify(&none).is_err());
    }

    #[test]
    fn expired_tokens_are_rejected() {
        let keys = TokenKeys::new(b"0123456789abcdef0123456789abcdef");
        let claims = Claims { sub: "1".into(), iat: 0, exp: chrono::Utc::now().timestamp() - 60 };
        let token = jsonwebtoken::encode(&Header::new(Algorithm::HS256), &claims, &keys.encoding).unwrap();
        assert!(keys.verify(&token).is_err());
    }
}
