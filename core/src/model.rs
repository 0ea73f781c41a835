//! Domain types shared by the core services, the daemon's JSON and the CLI's tables.

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

/// Id of a user account.
pub type UserId = i64;
/// Id of a website.
pub type WebsiteId = i64;

/// Milliseconds since the Unix epoch, UTC.
pub type Millis = i64;

/// Now, in Unix milliseconds.
pub fn now_ms() -> Millis {
    chrono::Utc::now().timestamp_millis()
}

/// Formats Unix milliseconds as ISO-8601 UTC with millisecond precision (the API's timestamp format).
pub fn iso(ms: Millis) -> String {
    chrono::DateTime::from_timestamp_millis(ms).unwrap_or_default().format("%Y-%m-%dT%H:%M:%S%.3fZ").to_string()
}

/// What a site's tracking script collects (spec part 1 §4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, Default, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum TrackingLevel {
    /// Page views and custom events.
    #[default]
    Light,
    /// Adds session replays, heatmaps, CSS-selector event definitions.
    Enhanced,
    /// Adds organization detection, identify() and advanced analytics.
    Professional,
}

impl TrackingLevel {
    /// The stored and displayed name.
    pub fn as_str(self) -> &'static str {
        match self {
            TrackingLevel::Light => "light",
            TrackingLevel::Enhanced => "enhanced",
            TrackingLevel::Professional => "professional",
        }
    }

    /// Parses a level name, with the error message the API shows.
    pub fn parse(s: &str) -> Result<TrackingLevel> {
        match s {
            "light" => Ok(TrackingLevel::Light),
            "enhanced" => Ok(TrackingLevel::Enhanced),
            "professional" => Ok(TrackingLevel::Professional),
            _ => Err(Error::invalid("trackingLevel must be light, enhanced or professional")),
        }
    }
}

/// A role on a site (issue 37), ordered: each may do what the roles below it may. A `viewer` reads everything
/// of the site (replays and the visitor stream included); an `editor` also edits event definitions, funnels
/// and organizations; an `admin` also manages members, site and privacy settings and deletes data; the
/// `owner` (the site's creator) also deletes the site.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    Viewer,
    Editor,
    Admin,
    Owner,
}

impl Role {
    /// The stored and displayed name.
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Viewer => "viewer",
            Role::Editor => "editor",
            Role::Admin => "admin",
            Role::Owner => "owner",
        }
    }

    /// Parses a role name (any of the four).
    pub fn parse(s: &str) -> Result<Role> {
        match s {
            "viewer" => Ok(Role::Viewer),
            "editor" => Ok(Role::Editor),
            "admin" => Ok(Role::Admin),
            "owner" => Ok(Role::Owner),
            _ => Err(Error::invalid("role must be viewer, editor, admin or owner")),
        }
    }

    /// Parses a role a member may be given (an owner is a site's creator, never invited).
    pub fn parse_member(s: &str) -> Result<Role> {
        match Role::parse(s.trim()) {
            Ok(Role::Owner) | Err(_) => Err(Error::invalid("role must be viewer, editor or admin")),
            Ok(role) => Ok(role),
        }
    }
}

/// Who asks for something of a site, and the least role the call needs (the daemon's route table decides it
/// per route; a read from anywhere else needs `viewer`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Caller {
    pub user: UserId,
    pub needs: Role,
}

impl Caller {
    /// `user` asking for a call that needs `role`.
    pub fn new(user: UserId, needs: Role) -> Caller {
        Caller { user, needs }
    }
}

impl From<UserId> for Caller {
    /// A read: any member may.
    fn from(user: UserId) -> Caller {
        Caller { user, needs: Role::Viewer }
    }
}

/// A registered account, without secrets.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct User {
    pub id: UserId,
    pub email: String,
    #[serde(serialize_with = "ser_iso")]
    #[schema(value_type = String, format = DateTime)]
    pub created_at: Millis,
}

/// A tracked website.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Website {
    pub id: WebsiteId,
    #[serde(skip)]
    pub user_id: UserId,
    pub name: String,
    pub domain: String,
    pub tracking_key: String,
    pub tracking_level: TrackingLevel,
    #[serde(serialize_with = "ser_iso")]
    #[schema(value_type = String, format = DateTime)]
    pub created_at: Millis,
    /// Hits are accepted only for pages on `domain` and its subdomains (opt-in).
    pub domain_only: bool,
    /// The site's website id in Umami (a UUID), which Umami's clients send to `POST /api/send`: set by the
    /// Umami importer or in the site's settings.
    pub umami_website_id: Option<String>,
    /// The site's timezone (an IANA name): the days, weeks, months and hours of its reads are local ones. A new
    /// site takes its creator's profile timezone.
    pub timezone: String,
}

/// Serializes Unix milliseconds as an ISO-8601 string.
pub fn ser_iso<S: serde::Serializer>(ms: &Millis, s: S) -> std::result::Result<S::Ok, S::Error> {
    s.serialize_str(&iso(*ms))
}

/// Serializes optional Unix milliseconds as an ISO-8601 string or null.
pub fn ser_iso_opt<S: serde::Serializer>(ms: &Option<Millis>, s: S) -> std::result::Result<S::Ok, S::Error> {
    match ms {
        Some(ms) => s.serialize_str(&iso(*ms)),
        None => s.serialize_none(),
    }
}

/// Refuses a control character (U+0000 to U+001F, U+007F to U+009F) in one-line text: a name, an address, a
/// key. PostgreSQL refuses U+0000 in any text, and none of them has a place in a line someone reads.
pub fn check_line(field: &str, text: &str) -> Result<()> {
    if text.chars().any(char::is_control) {
        return Err(Error::invalid(format!("{field} must not contain control characters")));
    }
    Ok(())
}

/// Refuses a control character other than a line break or a tab in free text (a message, a description).
pub fn check_text(field: &str, text: &str) -> Result<()> {
    if text.chars().any(|c| c.is_control() && !matches!(c, '\n' | '\r' | '\t')) {
        return Err(Error::invalid(format!("{field} must not contain control characters")));
    }
    Ok(())
}
