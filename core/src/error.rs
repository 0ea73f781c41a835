//! The one error type of tracker-core; the daemon maps it to HTTP in one place, the CLI prints it.

/// Everything a core call can fail with, grouped by what the caller should do about it.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The input was not acceptable; the message tells the user what to fix.
    #[error("{0}")]
    Invalid(String),
    /// The thing does not exist, or belongs to someone else (indistinguishable on purpose).
    #[error("{0} not found")]
    NotFound(&'static str),
    /// The thing already exists (e.g. an email already registered).
    #[error("{0}")]
    Conflict(String),
    /// Missing or wrong credentials (a wrong password or two-factor code, no bearer token).
    #[error("{0}")]
    Unauthorized(String),
    /// An access token that no longer opens anything: expired, forged, or its sign-in ended. Unlike
    /// `Unauthorized`, a client may refresh its token and try again (HTTP: `error="invalid_token"`).
    #[error("{0}")]
    InvalidToken(String),
    /// Authenticated, or not needing to be, but not allowed (e.g. sign-up closed, a hit from another domain).
    #[error("{0}")]
    Forbidden(String),
    /// Too many attempts from one client.
    #[error("too many requests, try again later")]
    RateLimited,
    /// Too many requests with one credential (an API key) this window; retry after this many seconds.
    #[error("too many requests with this API key, try again in {0} seconds")]
    RateLimitedFor(u64),
    /// A body or field is over its size limit.
    #[error("{0}")]
    TooLarge(String),
    /// The body is not in the format the route takes (e.g. not JSON).
    #[error("{0}")]
    UnsupportedMediaType(String),
    /// The ingest queue is full; the client should retry after a moment.
    #[error("server busy, retry shortly")]
    Busy,
    /// The instance cannot take its work now (the readiness check failed); the message says why.
    #[error("not ready: {0}")]
    Unavailable(String),
    #[error("database error: {0}")]
    Db(#[from] rusqlite::Error),
    /// Shown with the server's own words (SQLSTATE, message, detail), never postgres' bare "db error".
    #[error("PostgreSQL error: {}", postgres_detail(.0))]
    Postgres(#[from] postgres::Error),
    #[error("i/o error: {0}")]
    Io(#[from] std::io::Error),
    #[error("{0}")]
    Internal(String),
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    /// Shorthand for an `Invalid` error with a message for the user.
    pub fn invalid(msg: impl Into<String>) -> Self {
        Error::Invalid(msg.into())
    }

    /// Whether the database refused a row for naming a row that is not there (a foreign key: SQLite's
    /// SQLITE_CONSTRAINT_FOREIGNKEY, PostgreSQL's SQLSTATE 23503), as when the site an entry belongs to was
    /// deleted between the caller's check and the insert.
    pub fn is_missing_reference(&self) -> bool {
        match self {
            Error::Db(rusqlite::Error::SqliteFailure(e, _)) => {
                e.extended_code == rusqlite::ffi::SQLITE_CONSTRAINT_FOREIGNKEY
            }
            Error::Postgres(e) => e.code() == Some(&postgres::error::SqlState::FOREIGN_KEY_VIOLATION),
            _ => false,
        }
    }

    /// Whether PostgreSQL refused a value's characters (SQLSTATE 22021, such as U+0000 in text): the input's
    /// fault, which validation should have caught, so a 400 rather than a 500.
    pub fn is_refused_text(&self) -> bool {
        matches!(self, Error::Postgres(e) if e.code() == Some(&postgres::error::SqlState::CHARACTER_NOT_IN_REPERTOIRE))
    }
}

/// What the server said (severity, SQLSTATE, message, detail, hint), or the client's own error.
fn postgres_detail(e: &postgres::Error) -> String {
    let Some(db) = e.as_db_error() else {
        return match std::error::Error::source(e) {
            Some(source) => format!("{e}: {source}"),
            None => e.to_string(),
        };
    };
    let mut text = format!("{} {}: {}", db.severity(), db.code().code(), db.message());
    for (label, part) in [("detail", db.detail()), ("hint", db.hint()), ("where", db.where_())] {
        if let Some(part) = part {
            text.push_str(&format!(" ({label}: {part})"));
        }
    }
    text
}
