//! Hostile values: ids that are not the caller's, query values, bodies and compression bombs.

use std::io::Write;

use flate2::Compression;
use flate2::write::{DeflateEncoder, ZlibEncoder};
use rand::Rng;
use rand::rngs::SmallRng;

use super::hostile::Seeded;
use super::seed::{gzip, replay_chunk};

/// Compressed bodies for the replay upload (and, with Content-Encoding, for JSON routes).
pub(super) fn bombs() -> anyhow::Result<Vec<(&'static str, Vec<u8>)>> {
    let zeros = gzip(&vec![0u8; 64 << 20]);
    let mut deflate = DeflateEncoder::new(Vec::new(), Compression::best());
    deflate.write_all(&[b'['; 1 << 20])?;
    let mut zlib = ZlibEncoder::new(Vec::new(), Compression::best());
    zlib.write_all(br#"[{"type":4,"data":{},"timestamp":1}]"#)?;
    let chunk = replay_chunk();
    let mut many = Vec::with_capacity(8 << 20);
    many.push(b'[');
    // Just under the 8 MiB inflated cap: 2.7 million empty objects, each a heap allocation once parsed.
    for _ in 0..2_700_000 {
        many.extend_from_slice(b"{},");
    }
    many.extend_from_slice(b"{}]");
    let mut long_string = br#"[{"type":2,"data":""#.to_vec();
    long_string.extend(std::iter::repeat_n(b'x', 7 << 20));
    long_string.extend_from_slice(br#"","timestamp":1}]"#);
    let mut trailing = chunk.clone();
    trailing.extend_from_slice(b"trailing garbage after the gzip member");
    let mut bad_crc = chunk.clone();
    let crc_at = bad_crc.len() - 8;
    bad_crc[crc_at] ^= 0xff;
    Ok(vec![
        ("gzip of 64 MiB of zeros", zeros.clone()),
        ("gzip of a gzip of 64 MiB of zeros", gzip(&zeros)),
        ("gzip of 1 MiB of '['", gzip(&[b'['; 1 << 20])),
        ("gzip of 2.7 million empty objects (8 MiB)", gzip(&many)),
        ("gzip of one 7 MiB string", gzip(&long_string)),
        ("gzip of a JSON object, not an array", gzip(br#"{"type":4}"#)),
        ("gzip of an array of numbers", gzip(b"[1,2,3]")),
        ("gzip of invalid UTF-8", gzip(b"[{\"a\":\"\xff\xfe\"}]")),
        ("raw deflate of 1 MiB of '['", deflate.finish()?),
        ("zlib instead of gzip", zlib.finish()?),
        ("gzip cut in half", chunk[..chunk.len() / 2].to_vec()),
        ("gzip with trailing garbage", trailing),
        ("gzip with a bad CRC", bad_crc),
        ("two gzip members", [chunk.clone(), chunk].concat()),
        ("gzip of nothing", gzip(b"")),
    ])
}

/// Path and query ids that are not the caller's: malformed, out of range, traversal, another account's; and
/// odd spellings of the victim site's id (which Rust's integer parsing may accept, so they aim at the victim).
pub(super) fn hostile_path_id(seeded: &Seeded, rng: &mut SmallRng) -> String {
    let fixed = [
        "-1",
        "0",
        "9999999999999999999999",
        "18446744073709551616",
        "-9223372036854775809",
        "abc",
        "..%2F..",
        "%2e%2e%2f%2e%2e",
        "1.5",
        "1e3",
        "0x10",
        "%D9%A1",
        "%00",
        "%ff",
        "1%0A2",
        "NaN",
        "",
    ];
    match rng.random_range(0..fixed.len() + 6) {
        i if i < fixed.len() => fixed[i].to_string(),
        i if i == fixed.len() => seeded.other_site.to_string(),
        i if i == fixed.len() + 1 => seeded.other_replay.to_string(),
        i if i == fixed.len() + 2 => format!("+{}", seeded.victim),
        i if i == fixed.len() + 3 => format!("%20{}", seeded.victim),
        i if i == fixed.len() + 4 => format!("00{}", seeded.victim),
        _ => seeded.other_key.clone(),
    }
}

/// JSON values standing where a body expects a site id.
pub(super) fn hostile_json_id(seeded: &Seeded, rng: &mut SmallRng) -> String {
    let fixed = [
        "-1",
        "0",
        "99999999999999999999999",
        "1e400",
        "-1e400",
        "1.5",
        "\"abc\"",
        "\"../..\"",
        "\"\"",
        "null",
        "true",
        "[]",
        "{}",
        "[1]",
        "\"1 OR 1=1\"",
    ];
    match rng.random_range(0..fixed.len() + 2) {
        i if i < fixed.len() => fixed[i].to_string(),
        i if i == fixed.len() => seeded.other_site.to_string(),
        _ => format!("\"{}\"", seeded.other_site),
    }
}

/// Values for query parameters.
pub(super) fn hostile_query_value(rng: &mut SmallRng) -> String {
    let fixed = [
        "",
        "%",
        "%ff%fe%fd",
        "%00",
        "%C0%AF",
        "-1",
        "0",
        "99999999999999999999999",
        "1e9",
        "NaN",
        "..%2F..%2F..%2Fetc%2Fpasswd",
        "%3Cscript%3Ealert(1)%3C%2Fscript%3E",
        "%E2%80%AE",
        "7d%00",
        "365d365d",
        "9999999d",
        "-7d",
        "true",
        "%5B%5D",
        "javascript:alert(1)",
        "https://evil.example/",
        "%2F%2F%2F",
    ];
    match rng.random_range(0..fixed.len() + 1) {
        i if i < fixed.len() => fixed[i].to_string(),
        _ => "a".repeat(100_000),
    }
}

/// Bodies that are not what any route wants.
pub(super) fn hostile_body(template: Option<&str>, rng: &mut SmallRng) -> (&'static str, Vec<u8>) {
    let keys = template.map(json_keys).unwrap_or_else(|| vec!["websiteId".to_string(), "email".to_string()]);
    let all_as = |raw: &str| {
        let pairs: Vec<String> = keys.iter().map(|k| format!("\"{k}\":{raw}")).collect();
        format!("{{{}}}", pairs.join(",")).into_bytes()
    };
    match rng.random_range(0..24) {
        0 => ("invalid JSON: truncated", b"{\"email\":".to_vec()),
        1 => ("invalid JSON: bare words", b"nonsense".to_vec()),
        2 => ("invalid JSON: binary", vec![0xff, 0xfe, 0x00, 0x01, 0x7b]),
        3 => ("invalid JSON: single quotes", b"{'email':'a'}".to_vec()),
        4 => ("empty body", Vec::new()),
        5 => ("every field a number", all_as("12345")),
        6 => ("every field an array", all_as("[]")),
        7 => ("every field an object", all_as("{}")),
        8 => ("every field null", all_as("null")),
        9 => ("every field 1e400", all_as("1e400")),
        10 => ("every field a 60 KB string", all_as(&format!("\"{}\"", "x".repeat(60_000)))),
        11 => ("every field a lone surrogate", all_as("\"\\ud800\"")),
        12 => ("every field a NUL", all_as("\"\\u0000\"")),
        13 => ("100,000 nested arrays", vec![b'['; 100_000]),
        14 => ("5,000 nested arrays, closed", [vec![b'['; 5_000], vec![b']'; 5_000]].concat()),
        15 => ("3,000 nested objects", format!("{}1{}", "{\"a\":".repeat(3_000), "}".repeat(3_000)).into_bytes()),
        16 => ("a 1 MiB string", format!("{{\"email\":\"{}\"}}", "x".repeat(1 << 20)).into_bytes()),
        17 => ("5,000 keys", {
            let pairs: Vec<String> = (0..5_000).map(|i| format!("\"k{i}\":{i}")).collect();
            format!("{{{}}}", pairs.join(",")).into_bytes()
        }),
        18 => ("duplicate keys", {
            let pairs: Vec<String> =
                keys.iter().flat_map(|k| [format!("\"{k}\":1"), format!("\"{k}\":\"x\"")]).collect();
            format!("{{{}}}", pairs.join(",")).into_bytes()
        }),
        19 => ("a byte-order mark before the JSON", [b"\xef\xbb\xbf".to_vec(), all_as("\"x\"")].concat()),
        20 => ("a top-level array", b"[1,2,3]".to_vec()),
        21 => ("a top-level number", b"42".to_vec()),
        22 => ("a top-level string", b"\"email\"".to_vec()),
        _ => ("2 MiB of zeros", vec![0u8; 2 << 20]),
    }
}

/// The top-level keys of a JSON body template (placeholders are not valid JSON, so this reads the text).
fn json_keys(template: &str) -> Vec<String> {
    let mut keys = Vec::new();
    let mut depth = 0;
    let mut rest = template;
    while let Some(i) = rest.find(['{', '}', '"']) {
        let c = rest.as_bytes()[i];
        rest = &rest[i + 1..];
        match c {
            b'{' => depth += 1,
            b'}' => depth -= 1,
            _ => {
                let Some(end) = rest.find('"') else { break };
                let text = &rest[..end];
                rest = &rest[end + 1..];
                if depth == 1 && rest.trim_start().starts_with(':') {
                    keys.push(text.to_string());
                }
            }
        }
    }
    keys
}
