//! Device classes and bot verdicts measured on an independent corpus: the user agents of Matomo's
//! device-detector test fixtures (real browsers' strings, each with the device type its maintainers assign),
//! as shipped in PyPI's `device_detector` wheel, downloaded into target/ on first use (pip reaches PyPI).

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use yaml_rust2::{Yaml, YamlLoader};

use super::Enricher;

const WHEEL: &str = "device_detector-6.5.1-py3-none-any.whl";

fn enricher() -> &'static Enricher {
    static ENRICHER: OnceLock<Enricher> = OnceLock::new();
    ENRICHER.get_or_init(|| Enricher::new().unwrap())
}

/// The wheel holding the fixtures, fetched once into target/ua-corpus.
fn wheel() -> PathBuf {
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/ua-corpus");
    let wheel = folder.join(WHEEL);
    if !wheel.exists() {
        let status = Command::new("python3")
            .args(["-m", "pip", "download", "--no-deps", "--only-binary=:all:", "device_detector==6.5.1", "-d"])
            .arg(&folder)
            .status();
        assert!(
            status.is_ok_and(|s| s.success()) && wheel.exists(),
            "could not download the corpus ({WHEEL}) with pip into {}",
            folder.display()
        );
    }
    wheel
}

/// Every `every`-th (user agent, device type) of a fixture file.
fn samples(file: &str, every: usize) -> Vec<(String, String)> {
    let mut archive = zip::ZipArchive::new(std::fs::File::open(wheel()).unwrap()).unwrap();
    let mut text = String::new();
    archive
        .by_name(&format!("device_detector/tests/fixtures/upstream/{file}"))
        .unwrap_or_else(|e| panic!("{file} in the corpus: {e}"))
        .read_to_string(&mut text)
        .unwrap();
    let docs = YamlLoader::load_from_str(&text).unwrap();
    let entries = docs[0].as_vec().expect("a list of fixtures");
    entries
        .iter()
        .step_by(every)
        .filter_map(|entry| {
            let ua = entry["user_agent"].as_str()?.to_string();
            let kind = match &entry["device"]["type"] {
                Yaml::String(kind) => kind.clone(),
                _ => String::new(),
            };
            Some((ua, kind))
        })
        .collect()
}

/// The corpus's files and how sparsely each is sampled: about 600 user agents in all.
const FILES: &[(&str, usize)] = &[
    ("desktop.yml", 4),
    ("smartphone-1.yml", 12),
    ("smartphone-20.yml", 12),
    ("smartphone-40.yml", 12),
    ("phablet.yml", 10),
    ("tablet-1.yml", 10),
    ("tablet-6.yml", 10),
    ("tablet-12.yml", 10),
];

/// Our class for the corpus's device type; None for types outside desktop / mobile / tablet.
fn our_class(kind: &str) -> Option<&'static str> {
    match kind {
        "desktop" => Some("desktop"),
        "smartphone" | "phablet" | "feature phone" => Some("mobile"),
        "tablet" => Some("tablet"),
        _ => None,
    }
}

#[test]
fn device_classes_agree_with_an_independent_corpus() {
    let (mut total, mut wrong, mut bots) = (0, Vec::new(), Vec::new());
    for &(file, every) in FILES {
        for (ua, kind) in samples(file, every) {
            let Some(want) = our_class(&kind) else { continue };
            if enricher().is_bot(&ua) {
                // Apps' own clients (Office, QuickTime, CFNetwork) run no tracking script; a browser must pass.
                if ua.starts_with("Mozilla/") || ua.starts_with("Opera/") {
                    bots.push(ua);
                }
                continue;
            }
            total += 1;
            let got = enricher().user_agent(&ua).device.clone();
            if got != want {
                wrong.push(format!("{want} as {got:?}: {ua}"));
            }
        }
    }
    eprintln!("{} of {total} classified otherwise than the corpus:\n{}", wrong.len(), wrong.join("\n"));
    assert!(total > 400, "{total} samples");
    // 60 of 409 before the classifier read models and defaulted to desktop (issue 34); 19 of 410 after.
    assert!(wrong.len() * 100 <= total * 5, "{} of {total} classified otherwise", wrong.len());
    assert!(bots.is_empty(), "browsers dropped as bots:\n{}", bots.join("\n"));
}
