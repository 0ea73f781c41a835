//! IP → autonomous system → organisation, from the tables build.rs packs out of npm `@ip-location-db/asn`
//! (RouteViews, NRO and DB-IP data, CC BY 4.0). Lookups binary-search the embedded bytes in place, so
//! the 9 MB of tables stay out of the heap and only the touched pages become resident.

use std::net::IpAddr;

use super::Organization;

static V4: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/asn-v4.bin"));
static V6: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/asn-v6.bin"));
static ORGS: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/asn-orgs.bin"));

/// Marks a gap between announced ranges.
const NONE: u32 = u32::MAX;

/// Views into the embedded tables (layout documented in core/build.rs).
pub(super) struct Tables {
    v4: Ranges,
    v6: Ranges,
    org_asns: &'static [u8],
    org_offsets: &'static [u8],
    names: &'static [u8],
}

/// Sorted range starts of `width` bytes each, and the organisation index of each range.
struct Ranges {
    width: usize,
    starts: &'static [u8],
    orgs: &'static [u8],
}

impl Tables {
    /// Splits the embedded bytes into their columns; None if they are inconsistent (then no organisations).
    pub(super) fn load() -> Option<Tables> {
        let (v4, v6) = (Ranges::new(V4, 4)?, Ranges::new(V6, 8)?);
        let m = read_u32(ORGS, 0)? as usize;
        let org_asns = ORGS.get(4..4 + 4 * m)?;
        let org_offsets = ORGS.get(4 + 4 * m..4 + 4 * m + 4 * (m + 1))?;
        let names = ORGS.get(4 + 4 * m + 4 * (m + 1)..)?;
        if read_u32(org_offsets, m)? as usize != names.len() {
            return None;
        }
        Some(Tables { v4, v6, org_asns, org_offsets, names })
    }

    /// The organisation announcing `ip` (already known to be public).
    pub(super) fn lookup(&self, ip: IpAddr) -> Option<Organization> {
        let org = match ip {
            IpAddr::V4(v4) => self.v4.find(u64::from(u32::from(v4))),
            IpAddr::V6(v6) => self.v6.find((u128::from(v6) >> 64) as u64),
        }?;
        let asn = read_u32(self.org_asns, org)?;
        let start = read_u32(self.org_offsets, org)? as usize;
        let end = read_u32(self.org_offsets, org + 1)? as usize;
        let raw = std::str::from_utf8(self.names.get(start..end)?).ok()?;
        Some(organization(asn, raw))
    }
}

impl Ranges {
    fn new(bytes: &'static [u8], width: usize) -> Option<Ranges> {
        let n = read_u32(bytes, 0)? as usize;
        let starts = bytes.get(4..4 + n * width)?;
        let orgs = bytes.get(4 + n * width..)?;
        (orgs.len() == 4 * n).then_some(Ranges { width, starts, orgs })
    }

    fn start(&self, i: usize) -> u64 {
        let mut le = [0u8; 8];
        le[..self.width].copy_from_slice(&self.starts[i * self.width..(i + 1) * self.width]);
        u64::from_le_bytes(le)
    }

    /// Index of the organisation whose range holds `key`: the last start ≤ key.
    fn find(&self, key: u64) -> Option<usize> {
        let (mut lo, mut hi) = (0, self.starts.len() / self.width);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if self.start(mid) <= key { lo = mid + 1 } else { hi = mid }
        }
        let org = read_u32(self.orgs, lo.checked_sub(1)?)?;
        (org != NONE).then_some(org as usize)
    }
}

fn read_u32(bytes: &[u8], index: usize) -> Option<u32> {
    Some(u32::from_le_bytes(bytes.get(index * 4..index * 4 + 4)?.try_into().ok()?))
}

fn organization(asn: u32, raw: &str) -> Organization {
    let name = clean_name(raw);
    let class = classify(&name);
    Organization { asn, confidence: class.confidence, is_isp: class.is_isp, name }
}

/// Registry names carry noise: runs of spaces, a leading handle ("AS274056 - OSC TELECOMS SAC",
/// "BEGP-AS-AP - BEST EDGE GLOBAL PTE.LTD.") or the same name twice ("X - X"). Case is left alone:
/// title-casing "IBM" or "KCOM" would be wrong more often than it helps.
pub(super) fn clean_name(raw: &str) -> String {
    let name = raw.split_whitespace().collect::<Vec<_>>().join(" ");
    if let Some((head, tail)) = name.split_once(" - ") {
        let is_handle = !head.contains(' ')
            && head.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '-')
            && (head.starts_with("AS") || head.contains("-AS") || head.contains('-'));
        if (is_handle || head.eq_ignore_ascii_case(tail)) && !tail.is_empty() {
            return tail.to_owned();
        }
    }
    name
}

pub(super) struct Class {
    pub(super) is_isp: bool,
    pub(super) confidence: u8,
}

/// Well-known holders: (name prefix, mostly hosting traffic). Matched on the start of the cleaned
/// name, case-insensitively; they only set the confidence and mark hosts. Industry, domain and size are
/// never stored from here: the site owner supplies them (`store::organizations::update`, `tracker orgs
/// import`).
#[rustfmt::skip]
const KNOWN: &[(&str, bool)] = &[
    ("Google", false),
    ("Microsoft", false),
    ("Amazon", true), // the Amazon ASNs are overwhelmingly AWS
    ("Cloudflare", true), // CDN, WARP and Workers egress
    ("Apple Inc", false),
    ("Facebook", false),
    ("Meta Platforms", false),
    ("IBM", false),
    ("International Business Machines", false),
    ("Oracle", false),
    ("Salesforce", false),
    ("GitHub", false),
    ("Netflix", false),
    ("Akamai", true),
    ("Fastly", true),
    ("DigitalOcean", true),
    ("OVH", true),
    ("Hetzner", true),
    ("Linode", true),
];

/// Words that mark an access provider, carrier or host: the visitor is somebody's customer, not staff.
/// Compared against whole words of the lower-cased name (or the whole name for multi-word entries).
#[rustfmt::skip]
const PROVIDER_WORDS: &[&str] = &[
    "telecom", "telekom", "telecommunications", "telecommunication", "telecomunicacoes",
    "telecomunicaciones", "telecomunicazioni", "telekomunikasi", "broadband", "communications",
    "communication", "cable", "cablevision", "mobile", "wireless", "dsl", "fiber", "fibre", "isp",
    "provedor", "internet", "hosting", "host", "datacenter", "datacentre", "vps", "colocation", "cloud",
    "servers", "vodafone", "comcast", "verizon", "at&t", "orange", "telefonica", "telstra", "chinanet",
    "unicom", "swisscom", "telia", "telenor", "kpn", "bouygues", "sfr", "centurylink", "lumen", "windstream",
    "altice", "optus", "airtel", "jio", "softbank", "kddi", "t-mobile", "tele2", "proximus", "megafon",
    "rostelecom", "claro", "movistar", "ntt", "vnpt", "viettel", "m247", "leaseweb", "contabo", "vultr",
    "choopa",
];
#[rustfmt::skip]
const PROVIDER_PHRASES: &[&str] = &[
    "deutsche telekom", "internet service", "data center", "virgin media", "liberty global",
    "british telecommunications", "free sas", "bell canada", "shaw communications", "reliance jio",
    "hurricane electric", "china mobile", "china telecom", "sky uk", "talktalk",
];

/// Legal forms and institutions: a registered organisation rather than a person or a network label.
#[rustfmt::skip]
const FORMAL_WORDS: &[&str] = &[
    "inc", "llc", "gmbh", "ltd", "limited", "corp", "corporation", "co", "plc", "ag", "sa", "sas", "bv",
    "b.v", "s.a", "s.a.s", "srl", "s.r.l", "oy", "ab", "as", "spa", "s.p.a", "kg", "pty", "lp", "llp",
    "university", "universidad", "universidade", "universität", "université", "universiteit", "college",
    "institute", "ministry", "department",
];

/// The heuristic, in order:
/// - providers (carrier, ISP or hosting words, or a well-known host): `is_isp`, confidence 20;
/// - well-known organisations: confidence 90;
/// - names with a legal form or an institution word: confidence 85;
/// - anything else: 70.
///
/// Schools, universities and government bodies count as institutions (85) whatever their legal form.
pub(super) fn classify(name: &str) -> Class {
    let lower = name.to_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| !(c.is_alphanumeric() || c == '&' || c == '-' || c == '.'))
        .map(|w| w.trim_matches('.'))
        .filter(|w| !w.is_empty())
        .collect();
    let has_word = |list: &[&str]| words.iter().any(|w| list.contains(w));

    let known = KNOWN.iter().find(|(prefix, ..)| lower.starts_with(&prefix.to_lowercase()));
    let provider = known.is_some_and(|k| k.1)
        || (known.is_none() && (has_word(PROVIDER_WORDS) || PROVIDER_PHRASES.iter().any(|p| lower.contains(p))));

    let government = ["ministry", "government", "gouvernement", "federal", "department"];
    let institution =
        words.iter().any(|w| w.starts_with("univers") || *w == "college" || *w == "school") || has_word(&government);
    let confidence = if provider {
        20
    } else if known.is_some() {
        90
    } else if has_word(FORMAL_WORDS) || institution {
        85
    } else {
        70
    };
    Class { is_isp: provider, confidence }
}
