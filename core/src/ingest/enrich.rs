//! Placeholder enrichment with the final interface; replaced by the real UA, bot, geo and ASN lookups.

use std::net::IpAddr;
use std::sync::Arc;

/// Turns a client address and user agent into browser, OS, device, location and organization.
pub struct Enricher;

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct UserAgentInfo {
    pub browser: String,
    pub os: String,
    pub device: String,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct Location {
    pub country: String,
    pub region: String,
    pub city: String,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Organization {
    pub asn: u32,
    pub name: String,
    pub domain: Option<String>,
    pub industry: Option<String>,
    pub size: Option<String>,
    pub confidence: u8,
    pub is_isp: bool,
}

impl Enricher {
    pub fn new() -> crate::Result<Enricher> {
        Ok(Enricher)
    }

    pub fn is_bot(&self, user_agent: &str) -> bool {
        let ua = user_agent.to_ascii_lowercase();
        ua.is_empty()
            || ["bot", "crawl", "spider", "headless", "curl", "python"]
                .iter()
                .any(|w| ua.contains(w))
    }

    pub fn user_agent(&self, user_agent: &str) -> Arc<UserAgentInfo> {
        let browser = if user_agent.contains("Firefox") {
            "Firefox"
        } else if user_agent.contains("Chrome") {
            "Chrome"
        } else {
            ""
        };
        let device = if user_agent.contains("Mobile") {
            "mobile"
        } else {
            "desktop"
        };
        Arc::new(UserAgentInfo {
            browser: browser.into(),
            os: String::new(),
            device: device.into(),
        })
    }

    pub fn locate(&self, _ip: IpAddr) -> Location {
        Location::default()
    }

    pub fn organization(&self, _ip: IpAddr) -> Option<Organization> {
        None
    }
}
