//! Hostile values inside otherwise well-formed requests, for the chaos benchmark's `hostile` part: one field
//! of a JSON body, a query value, a path or a header laced with a control character (PostgreSQL refuses
//! U+0000 in text, so on the cluster a NUL that passes validation was a 500), and funnels past their limits
//! (more than 20 steps, step values of hundreds of kilobytes, the largest funnel allowed).

use rand::Rng;
use rand::rngs::SmallRng;
use serde_json::{Value, json};

/// Control characters and their neighbours: C0 (NUL, SOH, backspace, tab, line breaks, ESC, US), DEL, C1
/// (NEL, CSI), and the invisible or reordering ones a reader of a list would not see.
const CONTROLS: [(&str, char); 14] = [
    ("NUL", '\u{0}'),
    ("SOH", '\u{1}'),
    ("BS", '\u{8}'),
    ("TAB", '\t'),
    ("LF", '\n'),
    ("CR", '\r'),
    ("ESC", '\u{1b}'),
    ("US", '\u{1f}'),
    ("DEL", '\u{7f}'),
    ("NEL", '\u{85}'),
    ("CSI", '\u{9b}'),
    ("LINE SEPARATOR", '\u{2028}'),
    ("RIGHT-TO-LEFT OVERRIDE", '\u{202e}'),
    ("BOM", '\u{feff}'),
];

/// The family of an attack label made here, for the summary: NUL bytes, other control characters, oversized
/// funnels.
pub fn family(label: &str) -> Option<&'static str> {
    if label.starts_with("oversized funnel") {
        return Some("oversized funnels");
    }
    let (name, rest) = label.split_once(" ")?;
    let control = CONTROLS.iter().any(|(n, _)| label.starts_with(n)) && rest.contains("in ");
    match name {
        "NUL" => Some("a NUL byte in one field"),
        _ if control => Some("another control character in one field"),
        _ => None,
    }
}

/// A control character, NUL one time in three (the one PostgreSQL refuses).
fn control(rng: &mut SmallRng) -> (&'static str, char) {
    if rng.random_range(0..3) == 0 { CONTROLS[0] } else { CONTROLS[rng.random_range(0..CONTROLS.len())] }
}

/// `text` with `c` at its start, in its middle or at its end.
fn insert(text: &str, c: char, rng: &mut SmallRng) -> String {
    let chars: Vec<char> = text.chars().collect();
    let at = match rng.random_range(0..3) {
        0 => 0,
        1 => chars.len() / 2,
        _ => chars.len(),
    };
    chars[..at].iter().chain([c].iter()).chain(chars[at..].iter()).collect()
}

/// `text` with `c` inserted, percent-encoded as a URL carries it, never inside one of the text's own escapes.
fn insert_encoded(text: &str, c: char, rng: &mut SmallRng) -> String {
    let mut utf8 = [0u8; 4];
    let encoded: String = c.encode_utf8(&mut utf8).bytes().map(|b| format!("%{b:02X}")).collect();
    let bytes = text.as_bytes();
    let places: Vec<usize> = (0..=text.len())
        .filter(|&i| text.is_char_boundary(i))
        .filter(|&i| (i < 1 || bytes[i - 1] != b'%') && (i < 2 || bytes[i - 2] != b'%'))
        .collect();
    let at = match rng.random_range(0..3) {
        0 => 0,
        1 => places[places.len() / 2],
        _ => text.len(),
    };
    format!("{}{encoded}{}", &text[..at], &text[at..])
}

/// The well-formed JSON `body` with one of its strings (at any depth, object keys included) laced with a
/// control character, and a label naming the field and character; `None` when the body holds no string.
/// One time in four the character goes raw into the JSON text (invalid JSON), else escaped (`\u0000`).
pub fn lace_json(body: &str, rng: &mut SmallRng) -> Option<(String, Vec<u8>)> {
    let mut value: Value = serde_json::from_str(body).ok()?;
    let count = strings(&value);
    if count == 0 {
        return None;
    }
    let target = rng.random_range(0..count);
    let (name, c) = control(rng);
    let raw = rng.random_range(0..4) == 0;
    let marker = '\u{e000}';
    let mut field = String::new();
    lace_nth(&mut value, target, &mut 0, "", &mut |text| insert(text, marker, rng), &mut field);
    let text = value.to_string();
    let text = if raw {
        text.replace(marker, &c.to_string())
    } else {
        let escaped = serde_json::to_string(&c.to_string()).unwrap_or_default();
        let escaped = escaped.trim_matches('"');
        // serde_json writes only C0 controls escaped; \u escapes make the others visible on the wire too.
        let escaped = if escaped.chars().count() == 1 { format!("\\u{:04x}", c as u32) } else { escaped.to_string() };
        text.replace(marker, &escaped)
    };
    Some((format!("{name} {} in {field}", if raw { "raw" } else { "escaped" }), text.into_bytes()))
}

/// How many strings (values and keys) `value` holds.
fn strings(value: &Value) -> usize {
    match value {
        Value::String(_) => 1,
        Value::Array(items) => items.iter().map(strings).sum(),
        Value::Object(map) => map.iter().map(|(_, v)| 1 + strings(v)).sum(),
        _ => 0,
    }
}

/// Replaces the `target`-th string of `value` (counting keys before their values) by `edit` of it, naming its
/// place in `field`.
fn lace_nth(
    value: &mut Value,
    target: usize,
    seen: &mut usize,
    path: &str,
    edit: &mut dyn FnMut(&str) -> String,
    field: &mut String,
) -> bool {
    match value {
        Value::String(s) => {
            if *seen == target {
                *s = edit(s);
                *field = path.to_string();
                return true;
            }
            *seen += 1;
            false
        }
        Value::Array(items) => {
            for (i, item) in items.iter_mut().enumerate() {
                if lace_nth(item, target, seen, &format!("{path}[{i}]"), edit, field) {
                    return true;
                }
            }
            false
        }
        Value::Object(map) => {
            let keys: Vec<String> = map.keys().cloned().collect();
            for key in keys {
                if *seen == target {
                    let new_key = edit(&key);
                    let v = map.remove(&key).unwrap_or(Value::Null);
                    map.insert(new_key, v);
                    *field = format!("{path}.{key} (the key)");
                    return true;
                }
                *seen += 1;
                let Some(v) = map.get_mut(&key) else { continue };
                if lace_nth(v, target, seen, &format!("{path}.{key}"), edit, field) {
                    return true;
                }
            }
            false
        }
        _ => false,
    }
}

/// Query pairs with one value (or key) laced with a percent-encoded control character, and a label;
/// `None` without pairs.
pub fn lace_query(query: &mut [(String, String)], rng: &mut SmallRng) -> Option<String> {
    if query.is_empty() {
        return None;
    }
    let (name, c) = control(rng);
    let i = rng.random_range(0..query.len());
    let (key, value) = &mut query[i];
    if rng.random_range(0..4) == 0 {
        let label = format!("{name} in the query key {key}");
        *key = insert_encoded(key, c, rng);
        Some(label)
    } else {
        *value = insert_encoded(value, c, rng);
        Some(format!("{name} in the query value {key}"))
    }
}

/// A path with one segment laced with a percent-encoded control character, and a label.
pub fn lace_path(path: &str, rng: &mut SmallRng) -> (String, String) {
    let (name, c) = control(rng);
    let segments: Vec<&str> = path.split('/').collect();
    let i = rng.random_range(1..segments.len().max(2)).min(segments.len() - 1);
    let laced: Vec<String> = segments
        .iter()
        .enumerate()
        .map(|(j, s)| if j == i { insert_encoded(s, c, rng) } else { s.to_string() })
        .collect();
    (laced.join("/"), format!("{name} in path segment {i}"))
}

/// A visitor-controlled header with a control character in its value, a label, and whether the bytes break
/// HTTP's header syntax (hyper may then close the connection without an answer): tab and the UTF-8 bytes of
/// C1 characters and others above 0x7f are legal field bytes, the other C0 controls and DEL are not.
pub fn lace_header(rng: &mut SmallRng) -> (String, Vec<u8>, String, bool) {
    let headers = [
        ("user-agent", "Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0"),
        ("referer", "https://news.example.com/story"),
        ("x-forwarded-for", "203.0.113.7"),
        ("accept-language", "fr-FR,fr;q=0.9,en;q=0.8"),
        ("origin", "https://example.com"),
    ];
    let (header, value) = headers[rng.random_range(0..headers.len())];
    let (name, c) = control(rng);
    let laced = insert(value, c, rng);
    let legal = c == '\t' || (c as u32) > 0x7f;
    (header.to_string(), laced.into_bytes(), format!("{name} in the {header} header"), !legal)
}

/// A funnel body past a limit, or at every limit at once, and a label; `website_id` is set in the body for a
/// create (`Some`), left out for an edit.
pub fn oversized_funnel(website_id: Option<i64>, rng: &mut SmallRng) -> (String, Vec<u8>) {
    let step = |i: usize, url: String| json!({"name": format!("Step {i}"), "url": url});
    let wildcard = |len: usize, i: usize| {
        let mut url = format!("/{i}*");
        while url.len() < len {
            url.push_str("a*");
        }
        url.truncate(len);
        url
    };
    let (label, name, steps): (&str, String, Vec<Value>) = match rng.random_range(0..10) {
        0 => ("21 steps", "chaos".into(), (0..21).map(|i| step(i, format!("/s{i}"))).collect()),
        1 => ("1,000 steps", "chaos".into(), (0..1_000).map(|i| step(i, format!("/s{i}"))).collect()),
        2 => ("50,000 steps", "chaos".into(), (0..50_000).map(|i| step(i, "/".into())).collect()),
        3 => (
            // Allowed: the most steps, each the longest pattern with the most wildcards, and an event name.
            "20 steps of 500-character wildcard patterns and 200-character event names",
            // 190 characters, and the random suffix below: a name within the 200 allowed.
            "x".repeat(190),
            (0..20)
                .map(|i| {
                    json!({"name": format!("{i}{}", "n".repeat(190)), "url": wildcard(500, i),
                        "eventName": format!("{i}{}", "e".repeat(190))})
                })
                .collect(),
        ),
        4 => ("20 steps of 500 stars", "chaos".into(), (0..20).map(|i| step(i, "*".repeat(500))).collect()),
        5 => ("a step pattern of 501 characters", "chaos".into(), vec![step(0, "/".into()), step(1, wildcard(501, 1))]),
        6 => (
            "a step URL of 100,000 characters",
            "chaos".into(),
            vec![step(0, "/".into()), step(1, format!("/{}", "a".repeat(100_000)))],
        ),
        7 => (
            "a step name of 100 KB",
            "chaos".into(),
            vec![json!({"name": "n".repeat(100_000), "url": "/"}), step(1, "/buy".into())],
        ),
        8 => (
            "an event name of 10,000 characters",
            "chaos".into(),
            vec![step(0, "/".into()), json!({"name": "Buy", "url": "/buy", "eventName": "e".repeat(10_000)})],
        ),
        _ => ("a funnel name of 100 KB", "f".repeat(100_000), vec![step(0, "/".into()), step(1, "/buy".into())]),
    };
    let mut body = json!({"name": format!("{name}{}", rng.random::<u32>()), "steps": steps});
    if let Some(id) = website_id {
        body["websiteId"] = id.into();
    }
    (format!("oversized funnel: {label}"), body.to_string().into_bytes())
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand::rngs::SmallRng;
    use serde_json::Value;

    use super::{insert_encoded, lace_json};

    #[test]
    fn every_string_and_key_is_laced_in_turn_and_the_rest_stays_intact() {
        let body = r#"{"a":"x","b":[{"c":"y"}],"n":1}"#;
        let mut seen = std::collections::BTreeSet::new();
        for seed in 0..400 {
            let mut rng = SmallRng::seed_from_u64(seed);
            let (label, bytes) = lace_json(body, &mut rng).expect("strings to lace");
            seen.insert(label.split(" in ").nth(1).unwrap().to_string());
            if label.contains("escaped") {
                let value: Value = serde_json::from_slice(&bytes).expect("escaped lacing keeps valid JSON");
                // The number keeps its place, under its key or a laced copy of it.
                assert!(value.as_object().unwrap().values().any(|v| v == 1), "{value}");
            }
        }
        let fields: Vec<&str> = seen.iter().map(String::as_str).collect();
        assert_eq!(fields, [".a", ".a (the key)", ".b (the key)", ".b[0].c", ".b[0].c (the key)", ".n (the key)"]);
    }

    #[test]
    fn an_encoded_control_never_splits_an_escape() {
        for seed in 0..50 {
            let mut rng = SmallRng::seed_from_u64(seed);
            let laced = insert_encoded("%2F", '\u{0}', &mut rng);
            assert!(laced == "%00%2F" || laced == "%2F%00", "{laced}");
        }
    }
}
