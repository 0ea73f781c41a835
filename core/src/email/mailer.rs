//! The SMTP side of email: a transport built from `smtp_url` for each run (so a reloaded URL applies at the
//! next one), the From address, and messages with a plain-text and an HTML part.

use std::time::Duration;

use lettre::message::{Mailbox, MultiPart};
use lettre::{Message, SmtpTransport, Transport};

use crate::config::Config;
use crate::error::{Error, Result};

/// How long one SMTP conversation may take before the run gives up on the server.
const SMTP_TIMEOUT: Duration = Duration::from_secs(20);

/// One email to send: every value already rendered into both parts.
#[derive(Debug, Clone, PartialEq)]
pub struct Outgoing {
    pub to: String,
    pub subject: String,
    pub text: String,
    pub html: String,
}

/// What became of an email.
#[derive(Debug, Clone, PartialEq)]
pub enum Delivery {
    /// The server took it.
    Sent,
    /// The server (or the address itself) refused it for good: not worth retrying.
    Refused(String),
}

/// An SMTP transport and the From address.
pub struct Mailer {
    transport: SmtpTransport,
    from: Mailbox,
}

impl Mailer {
    /// The mailer of these settings; `None` when `smtp_url` is not set.
    pub fn from_config(config: &Config) -> Result<Option<Mailer>> {
        let Some(url) = smtp_url(config) else {
            return Ok(None);
        };
        refuse_clear_text_credentials(url)?;
        // lettre's errors name neither the URL nor its password.
        let transport = SmtpTransport::from_url(url)
            .map_err(|e| Error::invalid(format!("smtp_url: {e} (use smtp://host:port, smtp://user:pass@host:587?tls=required or smtps://user:pass@host)")))?
            .timeout(Some(SMTP_TIMEOUT))
            .build();
        Ok(Some(Mailer { transport, from: from_address(config)? }))
    }

    /// Sends one email. A refusal for good (a 5xx answer, an address that is not one) is `Delivery::Refused`;
    /// a server out of reach or answering "try later" is an error, so the caller tries again later.
    pub fn send(&self, mail: &Outgoing) -> Result<Delivery> {
        let to: Mailbox = match mail.to.parse() {
            Ok(to) => to,
            Err(e) => return Ok(Delivery::Refused(format!("not an email address: {e}"))),
        };
        let message = Message::builder()
            .from(self.from.clone())
            .to(to)
            .subject(single_line(&mail.subject))
            .multipart(MultiPart::alternative_plain_html(mail.text.clone(), mail.html.clone()))
            .map_err(|e| Error::Internal(format!("could not build the email: {e}")))?;
        match self.transport.send(&message) {
            Ok(_) => Ok(Delivery::Sent),
            Err(e) if e.is_permanent() => Ok(Delivery::Refused(e.to_string())),
            Err(e) => Err(Error::Internal(format!("could not send email: {e}"))),
        }
    }
}

/// Whether these settings name an SMTP server.
pub fn is_configured(config: &Config) -> bool {
    smtp_url(config).is_some()
}

/// Checks `smtp_url` and `smtp_from` without connecting to anything (at config load, so a typo stops the
/// start or the reload instead of the first report).
pub fn validate(config: &Config) -> Result<()> {
    Mailer::from_config(config).map(|_| ())
}

/// Refuses a user or password on a connection that may stay unencrypted: plain `smtp://` (lettre then
/// authenticates in clear text) or `?tls=opportunistic` (a man in the middle strips STARTTLS), unless the
/// server is on this machine. Credentials go over `smtps://` or `smtp://...?tls=required` (STARTTLS required).
fn refuse_clear_text_credentials(url: &str) -> Result<()> {
    let Ok(parsed) = url::Url::parse(url) else {
        return Ok(()); // lettre's own check says what is wrong with it
    };
    let has_credentials = !parsed.username().is_empty() || parsed.password().is_some();
    let tls_required =
        parsed.scheme() == "smtps" || parsed.query_pairs().any(|(key, value)| key == "tls" && value == "required");
    let loopback = match parsed.host() {
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        // smtp:// is not a scheme the URL parser knows, so an IPv4 address comes back as a name.
        Some(url::Host::Domain(name)) => {
            name.eq_ignore_ascii_case("localhost") || name.parse::<std::net::IpAddr>().is_ok_and(|ip| ip.is_loopback())
        }
        None => false,
    };
    if has_credentials && !tls_required && !loopback {
        return Err(Error::invalid(
            "smtp_url: a user and password over a connection without TLS would cross the network in clear text: \
             use smtps://user:pass@host or smtp://user:pass@host:587?tls=required (plain smtp:// with credentials \
             is accepted only for a server on this machine)",
        ));
    }
    Ok(())
}

fn smtp_url(config: &Config) -> Option<&str> {
    config.smtp_url.as_deref().map(str::trim).filter(|url| !url.is_empty())
}

/// `smtp_from`, or tracker@ the host of `public_url` (else of localhost).
fn from_address(config: &Config) -> Result<Mailbox> {
    let given = config.smtp_from.as_deref().map(str::trim).filter(|from| !from.is_empty());
    let address = match given {
        Some(from) => from.to_string(),
        None => {
            let host = config
                .public_url
                .as_deref()
                .and_then(|url| url::Url::parse(url).ok())
                .and_then(|url| url.host_str().map(str::to_string))
                .unwrap_or_else(|| "localhost".to_string());
            format!("tracker <tracker@{host}>")
        }
    };
    address
        .parse()
        .map_err(|e| Error::invalid(format!("smtp_from: not an email address ({e}): use tracker@example.com")))
}

/// A header value on one line: names typed by users reach the subject.
fn single_line(text: &str) -> String {
    text.chars().map(|c| if c.is_control() { ' ' } else { c }).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(url: Option<&str>, from: Option<&str>) -> Config {
        Config { smtp_url: url.map(String::from), smtp_from: from.map(String::from), ..Config::default() }
    }

    #[test]
    fn urls_and_addresses_are_checked_without_connecting() {
        assert!(Mailer::from_config(&config(None, None)).unwrap().is_none());
        for good in ["smtp://127.0.0.1:2525", "smtps://user:pass@mail.example.com", "smtp://u:p@h:587?tls=required"] {
            assert!(Mailer::from_config(&config(Some(good), None)).unwrap().is_some(), "{good}");
        }
        for bad in ["mail.example.com", "http://mail.example.com", "smtp://h?tls=sometimes"] {
            let error = validate(&config(Some(bad), None)).unwrap_err().to_string();
            assert!(error.starts_with("smtp_url:"), "{bad}: {error}");
        }
        // Credentials only where they cannot cross the network in clear text.
        for plain in ["smtp://u:p@mail.example.com:587", "smtp://u@mail.example.com", "smtp://u:p@h?tls=opportunistic"]
        {
            let error = validate(&config(Some(plain), None)).unwrap_err().to_string();
            assert!(error.starts_with("smtp_url:") && error.contains("clear text"), "{plain}: {error}");
        }
        for kept in
            ["smtp://u:p@127.0.0.1:2525", "smtp://u:p@[::1]:25", "smtp://u:p@localhost", "smtp://mail.example.com"]
        {
            assert!(validate(&config(Some(kept), None)).is_ok(), "{kept}");
        }
        assert!(validate(&config(Some("smtp://h"), Some("Reports <reports@example.com>"))).is_ok());
        let error = validate(&config(Some("smtp://h"), Some("not an address"))).unwrap_err().to_string();
        assert!(error.starts_with("smtp_from:"), "{error}");
    }
}
