//! The demo's heatmap data and session recordings: what the enhanced script sends for a page view (clicks on
//! the page's elements, sampled mouse moves, scroll depth) and a small rrweb recording of the page, built as
//! the scripts' bodies and validated by ingest as theirs are.

use std::io::Write;

use anyhow::Context;
use flate2::Compression;
use flate2::write::GzEncoder;
use rand::Rng;
use serde_json::{Value, json};
use tracker_core::ingest::{Interactions, InteractionsRequest, ReplayChunk, ReplayUpload};
use tracker_core::model::{Millis, Website};

/// Width of the page the demo's layout is drawn for; other screens scale it.
const LAYOUT_WIDTH: f64 = 1280.0;
/// Height of every demo page.
const PAGE_HEIGHT: f64 = 2400.0;

/// What visitors click on a demo page: the element's selector, its box on a 1280-wide page (x, y, w, h) and
/// its share of clicks.
const TARGETS: &[(&str, [f64; 4], f64)] = &[
    ("main > button.cta", [80.0, 420.0, 180.0, 48.0], 4.0),
    ("header > nav > a.pricing", [980.0, 24.0, 70.0, 24.0], 3.0),
    ("header > nav > a.docs", [1070.0, 24.0, 50.0, 24.0], 2.0),
    ("main > a.read-more", [80.0, 760.0, 110.0, 24.0], 2.0),
    ("main > p", [80.0, 300.0, 700.0, 96.0], 1.5),
    ("header > a.logo", [40.0, 20.0, 120.0, 32.0], 1.0),
    ("footer > a.contact", [80.0, 2330.0, 70.0, 20.0], 0.5),
];

/// A page view's place: the visit, the page and when the visitor was on it.
pub(super) struct PageView<'a> {
    pub site: &'a Website,
    pub session_id: &'a str,
    pub url: &'a str,
    pub screen: &'a str,
    pub at: Millis,
    /// How long the visitor stayed, in ms.
    pub dwell: Millis,
}

impl PageView<'_> {
    /// The screen as width and height in CSS pixels.
    fn size(&self) -> (f64, f64) {
        let mut parts = self.screen.split('x').map(|n| n.parse::<f64>().unwrap_or(0.0));
        let (w, h) = (parts.next().unwrap_or(0.0), parts.next().unwrap_or(0.0));
        if w > 0.0 && h > 0.0 { (w, h) } else { (1280.0, 800.0) }
    }

    /// The clicks (selector, page position, offset in the target) of this view, in time order.
    fn clicks(&self, rng: &mut impl Rng) -> Vec<(&'static str, f64, f64, f64, f64, Millis)> {
        let (w, _) = self.size();
        let scale = w / LAYOUT_WIDTH;
        let total: f64 = TARGETS.iter().map(|t| t.2).sum();
        let count = [0, 0, 1, 1, 1, 2, 3][rng.random_range(0..7)];
        (0..count)
            .map(|i| {
                let mut pick = rng.random::<f64>() * total;
                let (selector, b, _) = TARGETS.iter().find(|t| (pick -= t.2, pick < 0.0).1).unwrap_or(&TARGETS[0]);
                let (ox, oy) = (rng.random_range(0.1..0.9), rng.random_range(0.2..0.8));
                let at = self.at + (i as i64 + 1) * self.dwell / (count as i64 + 1);
                (*selector, (b[0] + ox * b[2]) * scale, b[1] + oy * b[3], ox, oy, at)
            })
            .collect()
    }

    /// The heatmap body the enhanced script sends when the visitor leaves the page.
    pub(super) fn interactions(&self, rng: &mut impl Rng) -> anyhow::Result<Interactions> {
        let (w, h) = self.size();
        let clicks: Vec<Value> = self
            .clicks(rng)
            .into_iter()
            .map(
                |(selector, x, y, ox, oy, t)| json!({"x": x, "y": y, "selector": selector, "ox": ox, "oy": oy, "t": t}),
            )
            .collect();
        let moves: Vec<Value> = (0..rng.random_range(4..16))
            .map(|_| json!({"x": rng.random_range(0.0..w), "y": rng.random_range(0.0..h.min(PAGE_HEIGHT))}))
            .collect();
        // Most readers stop in the first half; a few reach the footer.
        let depth = (100.0 * (h / PAGE_HEIGHT) + rng.random::<f64>().powf(1.8) * 100.0).min(100.0).round();
        let body = json!({
            "tracking_key": self.site.tracking_key,
            "session_id": self.session_id,
            "url": self.url,
            "viewport": {"w": w, "h": h},
            "page": {"w": w, "h": PAGE_HEIGHT},
            "clicks": clicks,
            "moves": moves,
            "scrollDepth": depth,
        });
        let request: InteractionsRequest = serde_json::from_value(body).context("demo heatmap body")?;
        Interactions::from_request(request, self.site, self.at + self.dwell).context("demo heatmap data")
    }

    /// The recording of this page as the recorder uploads it: chunk `seq` of the visit, `last` on its last page.
    pub(super) fn recording(&self, seq: i64, last: bool, rng: &mut impl Rng) -> anyhow::Result<ReplayChunk> {
        let (w, h) = self.size();
        let page = Layout::new(self.url);
        let mut events = vec![
            json!({"type": 4, "data": {"href": self.url, "width": w, "height": h}, "timestamp": self.at}),
            json!({"type": 2, "data": {"node": page.document, "initialOffset": {"left": 0, "top": 0}}, "timestamp": self.at + 5}),
        ];
        let steps = (self.dwell / 1_500).clamp(2, 40);
        for step in 1..steps {
            let t = self.at + step * self.dwell / steps;
            let position =
                json!({"x": rng.random_range(0.0..w), "y": rng.random_range(0.0..h), "id": page.body, "timeOffset": 0});
            events.push(json!({"type": 3, "data": {"source": 1, "positions": [position]}, "timestamp": t}));
            if step % 4 == 0 {
                let y = (step as f64 / steps as f64 * (PAGE_HEIGHT - h).max(0.0)).round();
                events.push(json!({"type": 3, "data": {"source": 3, "id": 1, "x": 0, "y": y}, "timestamp": t + 10}));
            }
        }
        for (selector, x, y, _, _, t) in self.clicks(rng) {
            let id = page.id_of(selector);
            for (kind, offset) in [(1, 0), (0, 80), (2, 81)] {
                events.push(json!({"type": 3, "data": {"source": 2, "type": kind, "id": id, "x": x, "y": y}, "timestamp": t + offset}));
            }
        }
        events.sort_by_key(|e| e["timestamp"].as_i64().unwrap_or(0));
        let mut gzip = GzEncoder::new(Vec::new(), Compression::default());
        gzip.write_all(&serde_json::to_vec(&events)?)?;
        let upload = ReplayUpload {
            tracking_key: self.site.tracking_key.clone(),
            session_id: self.session_id.to_string(),
            seq,
            is_final: last,
            body: gzip.finish()?,
        };
        ReplayChunk::from_upload(upload, self.site, self.at).context("demo recording")
    }
}

/// A demo page as rrweb serialises it, with the node ids of the parts visitors click.
struct Layout {
    document: Value,
    body: i64,
    ids: Vec<(&'static str, i64)>,
}

/// Numbers the nodes of a serialised page as rrweb does: each node its own id, the document 1.
struct Nodes {
    last: i64,
    /// The ids of the clickable elements, by their selector in TARGETS.
    clickable: Vec<(&'static str, i64)>,
}

impl Nodes {
    fn id(&mut self) -> i64 {
        self.last += 1;
        self.last
    }

    fn text(&mut self, s: &str) -> Value {
        json!({"type": 3, "textContent": s, "id": self.id()})
    }

    fn element(&mut self, tag: &str, attributes: Value, children: Vec<Value>) -> Value {
        json!({"type": 2, "tagName": tag, "attributes": attributes, "childNodes": children, "id": self.id()})
    }

    /// An element visitors click, remembered under its selector.
    fn clickable(&mut self, selector: &'static str, tag: &str, attributes: Value, label: &str) -> Value {
        let label = self.text(label);
        let node = self.element(tag, attributes, vec![label]);
        self.clickable.push((selector, node["id"].as_i64().unwrap_or(0)));
        node
    }
}

impl Layout {
    fn new(url: &str) -> Layout {
        let path = url.split_once("://").and_then(|(_, rest)| rest.find('/').map(|i| &rest[i..])).unwrap_or("/");
        let last = path.split('?').next().unwrap_or("/").trim_end_matches('/').rsplit('/').next().unwrap_or("");
        let heading =
            if last.is_empty() { "Analytics you can host yourself".to_string() } else { last.replace('-', " ") };
        let mut n = Nodes { last: 1, clickable: Vec::new() };
        let doctype = json!({"type": 1, "name": "html", "publicId": "", "systemId": "", "id": n.id()});
        let title = n.text(&heading);
        let title = n.element("title", json!({}), vec![title]);
        let style = json!({"type": 3, "textContent": CSS, "isStyle": true, "id": n.id()});
        let style = n.element("style", json!({}), vec![style]);
        let head = n.element("head", json!({}), vec![title, style]);
        let logo = n.clickable("header > a.logo", "a", json!({"class": "logo", "href": "/"}), "tracker");
        let pricing =
            n.clickable("header > nav > a.pricing", "a", json!({"class": "pricing", "href": "/pricing"}), "Pricing");
        let docs = n.clickable("header > nav > a.docs", "a", json!({"class": "docs", "href": "/docs"}), "Docs");
        let nav = n.element("nav", json!({}), vec![pricing, docs]);
        let header = n.element("header", json!({}), vec![logo, nav]);
        let h1 = n.text(&heading);
        let h1 = n.element("h1", json!({}), vec![h1]);
        let p = n.clickable("main > p", "p", json!({}), PARAGRAPH);
        let cta = n.clickable("main > button.cta", "button", json!({"class": "cta"}), "Start free trial");
        let more = n.clickable("main > a.read-more", "a", json!({"class": "read-more", "href": "/blog"}), "Read more");
        let main = n.element("main", json!({}), vec![h1, p, cta, more]);
        let contact =
            n.clickable("footer > a.contact", "a", json!({"class": "contact", "href": "/contact"}), "Contact");
        let footer = n.element("footer", json!({}), vec![contact]);
        let body = n.element("body", json!({}), vec![header, main, footer]);
        let body_id = body["id"].as_i64().unwrap_or(0);
        let html = n.element("html", json!({"lang": "en"}), vec![head, body]);
        let document = json!({"type": 0, "childNodes": [doctype, html], "id": 1});
        Layout { document, body: body_id, ids: n.clickable }
    }

    fn id_of(&self, selector: &str) -> i64 {
        self.ids.iter().find(|(s, _)| *s == selector).map_or(self.body, |(_, id)| *id)
    }
}

const PARAGRAPH: &str = "Privacy-first website analytics in one binary: page views, sources, funnels, replays and \
heatmaps, on your own server, with no cookie banner needed.";

const CSS: &str = "body{margin:0;font-family:system-ui,sans-serif;background:#fff;color:#1f2937}\
header{display:flex;justify-content:space-between;align-items:center;height:72px;padding:0 40px;\
border-bottom:1px solid #e5e7eb}nav a{margin-left:24px;color:#374151;text-decoration:none}\
.logo{font-weight:700;color:#4f46e5;text-decoration:none}main{padding:64px 80px;min-height:2100px}\
h1{font-size:44px;margin:0 0 24px;text-transform:capitalize}p{max-width:700px;line-height:1.6;color:#4b5563}\
.cta{margin-top:32px;padding:14px 28px;border:0;border-radius:8px;background:#4f46e5;color:#fff;font-size:16px}\
.read-more{display:block;margin-top:280px;color:#4f46e5}footer{padding:32px 80px;border-top:1px solid #e5e7eb}";
