//! The ClickHouse side of cluster mode, at the wire: a small synchronous HTTP client for each shard (SQL in, TSV
//! out, rows in as JSONEachRow) and the one function that turns a string into a SQL literal.
//!
//! ClickHouse 18.16 has no query parameters, so every value that is not a typed integer goes through `quote`;
//! identifiers (database, table and cluster names) come from our constants or a config checked by `identifier`.

use std::io::Read;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use crate::error::{Error, Result};

/// Longest a statement may take (mutations are awaited separately, by polling).
const QUERY_TIMEOUT: Duration = Duration::from_secs(60);

/// Idle connections are dropped before ClickHouse's own keep-alive timeout (3 s by default) closes them, so a
/// reused connection is never one the server has just hung up (a POST is not retried on a stale connection).
const IDLE_CONNECTION_AGE: Duration = Duration::from_secs(2);

/// Largest answer read from a query; dashboards read aggregates, not rows.
const MAX_ANSWER_BYTES: u64 = 256 << 20;

/// One ClickHouse server (a shard), reached over its HTTP interface.
pub struct Node {
    /// The server's URL without its credentials: what requests go to and what messages name.
    url: String,
    /// `Basic ...` for the user and password the configured URL carried, if any.
    authorization: Option<String>,
    agent: ureq::Agent,
    /// Statements sent so far: what tests count to bound the queries of one request.
    sent: AtomicU64,
}

impl Node {
    /// A client of the server at `url` (`http://host:8123`, or `http://user:password@host:8123` with the user
    /// and password percent-encoded as in any URL). Nothing is sent until the first statement.
    pub fn new(url: &str) -> Node {
        let agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(QUERY_TIMEOUT))
            .timeout_connect(Some(Duration::from_secs(3)))
            .max_idle_age(IDLE_CONNECTION_AGE)
            .build()
            .into();
        let (url, authorization) = split_credentials(url);
        Node { url: url.trim_end_matches('/').to_string(), authorization, agent, sent: AtomicU64::new(0) }
    }

    /// How many statements this client has sent to its server.
    pub fn statements_sent(&self) -> u64 {
        self.sent.load(Ordering::Relaxed)
    }

    /// The server's URL, without the password (and user) it was configured with.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// Runs a statement that returns nothing (DDL, ALTER).
    pub fn execute(&self, sql: &str) -> Result<()> {
        self.send(None, sql.as_bytes()).map(drop)
    }

    /// Runs a SELECT and returns its rows, each a list of unescaped TSV fields.
    pub fn query(&self, sql: &str) -> Result<Vec<Vec<String>>> {
        let answer = self.send(None, format!("{sql}\nFORMAT TabSeparated").as_bytes())?;
        Ok(answer.lines().map(|line| line.split('\t').map(unescape_tsv).collect()).collect())
    }

    /// Runs a SELECT whose rows are read as they arrive (an export of any size costs a row at a time): each
    /// item is a list of unescaped TSV fields, an error when the answer is cut short. No time limit but the
    /// connection's: the reader takes the rows as fast as its client takes the export.
    pub fn query_rows(&self, sql: &str) -> Result<RowStream> {
        self.sent.fetch_add(1, Ordering::Relaxed);
        let mut request = self.agent.post(&self.url).config().timeout_global(None).build();
        if let Some(authorization) = &self.authorization {
            request = request.header("authorization", authorization);
        }
        let mut response = request
            .content_type("text/plain; charset=utf-8")
            .send(format!("{sql}\nFORMAT TabSeparated").as_bytes())
            .map_err(|e| self.unreachable(e))?;
        if response.status() != 200 {
            let mut answer = String::new();
            let _ = response.body_mut().as_reader().take(64 << 10).read_to_string(&mut answer);
            let message = answer.lines().next().unwrap_or("").chars().take(500).collect::<String>();
            return Err(Error::Internal(format!(
                "ClickHouse at {} answered {}: {message}",
                self.url,
                response.status()
            )));
        }
        let reader = std::io::BufReader::new(response.into_body().into_reader());
        Ok(RowStream { lines: std::io::BufRead::lines(reader), url: self.url.clone() })
    }

    /// The single value of a one-row, one-column SELECT, parsed.
    pub fn query_value<T: std::str::FromStr>(&self, sql: &str) -> Result<T> {
        let rows = self.query(sql)?;
        rows.first()
            .and_then(|row| row.first())
            .and_then(|v| v.parse().ok())
            .ok_or_else(|| Error::Internal(format!("ClickHouse at {}: unexpected answer to {sql:?}", self.url)))
    }

    /// Inserts rows given as JSONEachRow (one JSON object per line, as serde_json writes them) into `table`
    /// (a qualified name from `identifier`-checked parts). The insert is synchronous: when it returns Ok, the
    /// rows are in the table's parts on this server.
    pub fn insert_json_rows(&self, table: &str, rows: &[u8]) -> Result<()> {
        self.send(Some(&format!("INSERT INTO {table} FORMAT JSONEachRow")), rows).map(drop)
    }

    /// POSTs `body` (the statement, or the rows of the statement in `query`); the answer's text when 200.
    fn send(&self, query: Option<&str>, body: &[u8]) -> Result<String> {
        self.sent.fetch_add(1, Ordering::Relaxed);
        let mut request = self.agent.post(&self.url);
        if let Some(authorization) = &self.authorization {
            request = request.header("authorization", authorization);
        }
        if let Some(query) = query {
            request = request.query("query", query);
        }
        let mut response =
            request.content_type("text/plain; charset=utf-8").send(body).map_err(|e| self.unreachable(e))?;
        let status = response.status();
        let mut answer = String::new();
        response
            .body_mut()
            .as_reader()
            .take(MAX_ANSWER_BYTES)
            .read_to_string(&mut answer)
            .map_err(|e| Error::Unavailable(format!("ClickHouse at {}: answer cut short: {e}", self.url)))?;
        if status != 200 {
            let message = answer.lines().next().unwrap_or("").chars().take(500).collect::<String>();
            return Err(Error::Internal(format!("ClickHouse at {} answered {status}: {message}", self.url)));
        }
        Ok(answer)
    }

    fn unreachable(&self, e: ureq::Error) -> Error {
        Error::Unavailable(format!("ClickHouse at {} is unreachable: {e}", self.url))
    }
}

/// The rows of a SELECT as they arrive (see `Node::query_rows`).
pub struct RowStream {
    lines: std::io::Lines<std::io::BufReader<ureq::BodyReader<'static>>>,
    url: String,
}

impl Iterator for RowStream {
    type Item = Result<Vec<String>>;

    fn next(&mut self) -> Option<Self::Item> {
        let line = self.lines.next()?;
        Some(
            line.map(|line| line.split('\t').map(unescape_tsv).collect())
                .map_err(|e| Error::Unavailable(format!("ClickHouse at {}: answer cut short: {e}", self.url))),
        )
    }
}

/// Runs two reads at once and returns both answers, or the first error: a report's independent queries then
/// take as long as the slowest of them, not their sum (each costs a round trip and, through the Distributed
/// table, one to every shard).
pub fn join<A: Send, B: Send>(
    a: impl FnOnce() -> Result<A> + Send,
    b: impl FnOnce() -> Result<B> + Send,
) -> Result<(A, B)> {
    std::thread::scope(|scope| {
        let other = scope.spawn(b);
        let a = a();
        let b = other.join().unwrap_or_else(|_| Err(Error::Internal("a ClickHouse read panicked".into())));
        Ok((a?, b?))
    })
}

/// `url` without its user and password, and the `Basic` authorization they make (decoded first: ureq would
/// send a URL's credentials still percent-encoded, so a password holding `@` or `:` would never match).
fn split_credentials(url: &str) -> (String, Option<String>) {
    use base64::Engine;
    let Ok(mut parsed) = url::Url::parse(url) else { return (url.to_string(), None) };
    if parsed.username().is_empty() && parsed.password().is_none() {
        return (url.to_string(), None);
    }
    let decode = |s: &str| percent_encoding::percent_decode_str(s).decode_utf8_lossy().into_owned();
    let credentials = format!("{}:{}", decode(parsed.username()), decode(parsed.password().unwrap_or("")));
    // Cannot fail on an http(s) URL, the only kind a ClusterConfig holds.
    let _ = parsed.set_username("");
    let _ = parsed.set_password(None);
    let authorization = format!("Basic {}", base64::engine::general_purpose::STANDARD.encode(credentials));
    (parsed.as_str().to_string(), Some(authorization))
}

/// `s` as a ClickHouse string literal, quoted. The one way a string value enters SQL text: backslash and quote
/// are escaped, and so are the control characters a literal must not carry raw (NUL, newline, CR, tab). Every
/// other byte is itself, so any UTF-8 string reads back unchanged.
pub fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('\'');
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\'' => out.push_str("\\'"),
            '\0' => out.push_str("\\0"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c => out.push(c),
        }
    }
    out.push('\'');
    out
}

/// `name` if it may be written into SQL as an identifier (database, table, cluster): ASCII letters, digits and
/// `_`, not starting with a digit. Checked where a name enters from configuration, so no name needs quoting.
pub fn identifier(name: &str) -> Result<&str> {
    let ok = !name.is_empty()
        && name.len() <= 64
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !name.starts_with(|c: char| c.is_ascii_digit());
    if ok { Ok(name) } else { Err(Error::invalid(format!("{name:?}: letters, digits and _ only"))) }
}

/// A field of TabSeparated output as the value it stands for.
fn unescape_tsv(field: &str) -> String {
    if !field.contains('\\') {
        return field.to_string();
    }
    let mut out = String::with_capacity(field.len());
    let mut chars = field.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('r') => out.push('\r'),
            Some('0') => out.push('\0'),
            Some('b') => out.push('\u{8}'),
            Some('f') => out.push('\u{c}'),
            Some(other) => out.push(other),
            None => out.push('\\'),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cluster::testing::{clickhouse_urls, shards_up};

    /// Strings an attacker would send as a path, referrer or event name.
    const HOSTILE: &[&str] = &[
        "'); DROP TABLE hits_local; --",
        "it's",
        "back\\slash",
        "\\'",
        "trailing backslash \\",
        "new\nline\rcarriage\ttab",
        "nul\0byte",
        "\\0 is not NUL",
        "ünï\u{1F600}code",
        "`backtick` \"double\"",
        "",
    ];

    #[test]
    fn quoting_escapes_what_could_end_the_literal() {
        assert_eq!(quote("'); DROP TABLE t; --"), r"'\'); DROP TABLE t; --'");
        assert_eq!(quote("a\\'b"), r"'a\\\'b'");
        assert_eq!(quote("x\0\n\r\t"), r"'x\0\n\r\t'");
        for s in HOSTILE {
            let quoted = quote(s);
            let inner = &quoted[1..quoted.len() - 1];
            // Inside, every quote is escaped: a quote is preceded by an odd run of backslashes.
            let bytes = inner.as_bytes();
            for (i, b) in bytes.iter().enumerate() {
                if *b == b'\'' {
                    let run = bytes[..i].iter().rev().take_while(|b| **b == b'\\').count();
                    assert!(run % 2 == 1, "unescaped quote in {quoted}");
                }
            }
            assert!(!inner.contains(['\0', '\n', '\r']), "{quoted:?}");
            assert!(!inner.ends_with('\\') || inner.ends_with("\\\\"), "{quoted}");
        }
        assert!(identifier("tracker_1").is_ok());
        for bad in ["", "1x", "a.b", "a;b", "a b", "a'b", "a`b"] {
            assert!(identifier(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn hostile_strings_read_back_unchanged_from_the_server() {
        let Some(urls) = clickhouse_urls() else { return };
        let _up = shards_up();
        let node = Node::new(&urls[0]);
        for s in HOSTILE {
            let rows = node.query(&format!("SELECT {}, length({})", quote(s), quote(s))).unwrap();
            assert_eq!(rows, vec![vec![s.to_string(), s.len().to_string()]], "{s:?}");
        }
    }

    #[test]
    fn a_urls_user_and_password_sign_in_decoded_and_are_never_shown() {
        let (url, authorization) = split_credentials("http://tracker:p%40ss%3Aw%2Fd@ch1.internal:8123/");
        assert_eq!(url, "http://ch1.internal:8123/");
        assert_eq!(authorization.as_deref(), Some("Basic dHJhY2tlcjpwQHNzOncvZA=="), "tracker:p@ss:w/d");
        assert_eq!(split_credentials("http://ch1.internal:8123"), ("http://ch1.internal:8123".into(), None));
        let err = Node::new("http://tracker:hunter2@127.0.0.1:1").execute("SELECT 1").unwrap_err();
        assert!(!format!("{err:?}").contains("hunter2"), "{err:?}");

        // The harness's shards take only the tracker user, whose password holds ':', '@' and '/'.
        let Some(urls) = clickhouse_urls() else { return };
        let _up = shards_up();
        let node = Node::new(&urls[0]);
        assert_eq!(node.query_value::<u8>("SELECT 1").unwrap(), 1);
        let password = url::Url::parse(&urls[0]).unwrap().password().map(str::to_string).expect("a password");
        assert!(!node.url().contains(&password), "{}", node.url());
        let wrong = Node::new(&urls[0].replacen(&password, "wrong", 1));
        let err = wrong.query_value::<u8>("SELECT 1").unwrap_err();
        assert!(matches!(err, Error::Internal(ref m) if m.contains("Wrong password")), "{err:?}");
    }

    #[test]
    fn an_unreachable_server_is_unavailable_and_a_bad_statement_is_not() {
        let err = Node::new("http://127.0.0.1:1").execute("SELECT 1").unwrap_err();
        assert!(matches!(err, Error::Unavailable(_)), "{err:?}");
        let Some(urls) = clickhouse_urls() else { return };
        let _up = shards_up();
        let err = Node::new(&urls[0]).execute("SELEC 1").unwrap_err();
        assert!(matches!(err, Error::Internal(ref m) if m.contains("Syntax error")), "{err:?}");
    }
}
