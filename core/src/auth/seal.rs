//! Secrets kept at rest sealed (ChaCha20-Poly1305) under a key derived from the instance secret.
//!
//! A copy of the database alone (a backup, a dump, a stolen file) then opens nothing. Each use has a purpose of
//! its own (its own key, its own prefix on what it stores), and binds a sealed value to the row that owns it
//! (the associated data), so a value copied onto another row does not open.

use chacha20poly1305::aead::{Aead, KeyInit, Payload};
use chacha20poly1305::{ChaCha20Poly1305, Nonce};
use rand::Rng;
use sha2::{Digest, Sha256};

use crate::error::{Error, Result};

const NONCE_BYTES: usize = 12;

/// One purpose's sealing key.
pub(crate) struct Seal {
    cipher: ChaCha20Poly1305,
    /// What starts every value sealed for this purpose: anything else was stored before sealing.
    prefix: &'static [u8],
}

impl Seal {
    /// The key of `purpose` (a name with its version, e.g. "tracker totp seal v1") under the instance secret.
    pub(crate) fn new(instance_secret: &[u8], purpose: &str, prefix: &'static [u8]) -> Seal {
        let key =
            Sha256::new().chain_update(purpose.as_bytes()).chain_update(b"\0").chain_update(instance_secret).finalize();
        Seal { cipher: ChaCha20Poly1305::new(&key), prefix }
    }

    /// Whether `stored` was sealed (by this purpose's format), as opposed to stored before sealing.
    pub(crate) fn is_sealed(&self, stored: &[u8]) -> bool {
        stored.starts_with(self.prefix)
    }

    /// `secret` sealed for the row `owner`: the prefix, a random nonce, the ciphertext and its tag.
    pub(crate) fn seal(&self, owner: i64, secret: &[u8]) -> Result<Vec<u8>> {
        let nonce: [u8; NONCE_BYTES] = rand::rng().random();
        let aad = owner.to_le_bytes();
        let sealed = self
            .cipher
            .encrypt(&Nonce::from(nonce), Payload { msg: secret, aad: &aad })
            .map_err(|_| Error::Internal("sealing a secret failed".into()))?;
        Ok([self.prefix, &nonce, &sealed].concat())
    }

    /// The secret sealed for `owner`, or None when `stored` is not sealed or cannot be opened (the instance
    /// secret changed, or the value was copied from another row).
    pub(crate) fn open(&self, owner: i64, stored: &[u8]) -> Option<Vec<u8>> {
        let rest = stored.strip_prefix(self.prefix)?;
        let (nonce, sealed) = rest.split_at_checked(NONCE_BYTES)?;
        let nonce = Nonce::from(<[u8; NONCE_BYTES]>::try_from(nonce).ok()?);
        let aad = owner.to_le_bytes();
        self.cipher.decrypt(&nonce, Payload { msg: sealed, aad: &aad }).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sealed_secret_opens_only_for_its_row_its_purpose_and_its_instance() {
        let seal = Seal::new(b"instance", "tracker test seal v1", b"ts1");
        let sealed = seal.seal(7, b"the secret").unwrap();
        assert!(seal.is_sealed(&sealed));
        assert!(!sealed.windows(10).any(|w| w == b"the secret"), "nothing of it in plain");
        assert_eq!(seal.open(7, &sealed).as_deref(), Some(&b"the secret"[..]));
        assert_eq!(seal.open(8, &sealed), None, "copied onto another row");
        assert_eq!(Seal::new(b"other instance", "tracker test seal v1", b"ts1").open(7, &sealed), None);
        assert_eq!(Seal::new(b"instance", "tracker other seal v1", b"ts1").open(7, &sealed), None);
        assert_ne!(seal.seal(7, b"the secret").unwrap(), sealed, "a fresh nonce each time");
        assert!(!seal.is_sealed(b"plain"));
        assert_eq!(seal.open(7, b"plain"), None);
    }
}
