//! A visit's source, named as people know it, decided once at ingest from a maintained referrer list (Snowplow's
//! referer-parser `referers.yml`, vendored in core/data/, the list Plausible uses through ref_inspector):
//!
//! 1. a utm_source: the list's name when the tag is a source's name or one of its hosts, case-insensitively
//!    (`google`, `GOOGLE` and `google.com` → Google; `twitter` → Twitter) or a common short tag (`x` → Twitter,
//!    `fb` → Facebook), else the tag as given (`newsletter`);
//! 2. else an outside referrer: the list's name for its host, matched by suffix (`www.google.co.uk` → Google,
//!    `t.co` → Twitter), else the host as is (`news.example.org`);
//! 3. else Direct, stored as ''.
//!
//! A tag wins over the referrer as in Plausible (`Plausible.Ingestion.Source.resolve`): the owner tagged the link
//! on purpose, and the referrer of a tagged link is often only the platform that carried it. Both ingest sinks
//! store the name with the visit (`sessions.source`, `hits.source`), so reads, rollup rebuilds and exports take
//! the stored name and never consult the list again; `name_stored_value` names values stored before.

use std::collections::HashMap;
use std::sync::LazyLock;

/// `host<TAB>name` per line, made by build.rs from core/data/referers.yml.
const TABLE: &str = include_str!(concat!(env!("OUT_DIR"), "/referer-sources.tsv"));

/// Hosts and tags the list lacks, each naming one of its sources: x.com is Twitter's newer host, and the short
/// tags are the ones people write in utm_source for the largest platforms.
const EXTRA: [(&str, &str); 6] = [
    ("x.com", "Twitter"),
    ("x", "Twitter"),
    ("fb", "Facebook"),
    ("ig", "Instagram"),
    ("yt", "Youtube"),
    ("lnkd", "LinkedIn"),
];

/// The list, read once: each host's name, and each name by its lowercase form.
struct Names {
    by_host: HashMap<&'static str, &'static str>,
    by_name: HashMap<String, &'static str>,
}

static NAMES: LazyLock<Names> = LazyLock::new(|| {
    let mut by_host = HashMap::new();
    let mut by_name = HashMap::new();
    for line in TABLE.lines() {
        if let Some((host, name)) = line.split_once('\t') {
            by_host.insert(host, name);
            // Names that differ only in case (QIP, qip) are one source: the list's first spelling, on every daemon.
            by_name.entry(name.to_lowercase()).or_insert(name);
        }
    }
    for (key, name) in EXTRA {
        if key.contains('.') {
            by_host.insert(key, name);
        } else {
            by_name.insert(key.to_string(), name);
        }
    }
    Names { by_host, by_name }
});

/// Reads the list now, so the first visit does not pay for it (start-up).
pub fn load() {
    LazyLock::force(&NAMES);
}

/// The source of a visit from its first hit's utm_source and referring host ('' when it has none): see the
/// module's rule. '' is Direct.
pub fn source_of(utm_source: &str, referrer_host: &str) -> String {
    let tag = utm_source.trim();
    if !tag.is_empty() {
        return name_of_tag(tag).map_or_else(|| tag.to_string(), str::to_string);
    }
    if referrer_host.is_empty() {
        return String::new();
    }
    // As a tag: a host never spells another source's name, and importers' referrers may be names already
    // (GoatCounter's "Google").
    name_of_tag(referrer_host).map_or_else(|| referrer_host.to_string(), str::to_string)
}

/// A value stored as a source before sources were named (a utm_source or a referring host, as the rollups'
/// `source` dimension and imports held them), named by the same list: what `source_of` gives for it as a tag,
/// which for a host is its host's name. '' stays Direct.
pub fn name_stored_value(value: &str) -> String {
    source_of(value, "")
}

/// The list's name of a utm_source: a name of it or a short tag, else a host of the list (by suffix).
fn name_of_tag(tag: &str) -> Option<&'static str> {
    let lower = tag.to_lowercase();
    NAMES.by_name.get(&lower).copied().or_else(|| name_of_host(&lower))
}

/// The list's name of a host or of the nearest parent domain it lists (`www.google.co.uk` → `google.co.uk`).
fn name_of_host(host: &str) -> Option<&'static str> {
    let host = host.trim_end_matches('.').to_ascii_lowercase();
    let mut rest = host.as_str();
    loop {
        if let Some(name) = NAMES.by_host.get(rest) {
            return Some(name);
        }
        // Stop at a single label: a top-level domain names no source.
        rest = rest.split_once('.').map(|(_, parent)| parent).filter(|p| p.contains('.'))?;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rule of the module, case by case, as the brief and Plausible's documentation state it.
    #[test]
    fn sources_are_named_from_the_list_with_the_tag_first() {
        let cases = [
            // (utm_source, referring host, source)
            ("", "google.com", "Google"),
            ("", "www.google.co.uk", "Google"),
            ("", "google.co.uk", "Google"),
            ("google", "", "Google"),
            ("GOOGLE", "", "Google"),
            ("google.com", "", "Google"),
            ("", "t.co", "Twitter"),
            ("", "x.com", "Twitter"),
            ("twitter", "", "Twitter"),
            ("x", "", "Twitter"),
            ("", "linkedin.com", "LinkedIn"),
            ("", "lnkd.in", "LinkedIn"),
            ("linkedin", "", "LinkedIn"),
            ("", "l.facebook.com", "Facebook"),
            ("fb", "", "Facebook"),
            ("", "duckduckgo.com", "DuckDuckGo"),
            // The list's own names for its hosts, even where a bare domain would say otherwise.
            ("", "news.google.com", "Google News"),
            // Unknown hosts and tags stay as they are.
            ("", "blog.example.org", "blog.example.org"),
            ("newsletter", "", "newsletter"),
            ("Spring Sale", "", "Spring Sale"),
            // A tag wins over the referrer (Plausible's precedence), mapped through the same names.
            ("newsletter", "t.co", "newsletter"),
            ("linkedin", "t.co", "LinkedIn"),
            // Direct.
            ("", "", ""),
            ("  ", "", ""),
        ];
        for (tag, host, want) in cases {
            assert_eq!(source_of(tag, host), want, "utm_source {tag:?}, referrer {host:?}");
        }
    }

    /// A top-level domain alone, or a host that only ends like a listed one, names nothing.
    #[test]
    fn hosts_match_by_whole_labels() {
        assert_eq!(source_of("", "notgoogle.com"), "notgoogle.com");
        assert_eq!(source_of("", "com"), "com");
        assert_eq!(source_of("", "co.uk"), "co.uk");
    }

    /// Values stored before names (rollup rows, imports) land on the same names, and a name stays itself.
    #[test]
    fn stored_values_are_named_once_and_names_are_fixed_points() {
        for (stored, want) in [("google.com", "Google"), ("google", "Google"), ("t.co", "Twitter"), ("", "")] {
            assert_eq!(name_stored_value(stored), want);
        }
        for line in TABLE.lines() {
            let (_, name) = line.split_once('\t').unwrap();
            let named = name_stored_value(name);
            assert!(named.eq_ignore_ascii_case(name), "{name} is named {named}");
            assert_eq!(name_stored_value(&named), named, "a name is named as itself");
        }
        assert!(TABLE.lines().count() > 1000, "the list is embedded whole");
    }
}
