//! One hostile request: a route's well-formed request, spoiled by one variant.

use rand::Rng;
use rand::rngs::SmallRng;

use super::hostile::{Attempt, Seeded};
use super::routes::{Auth, Body, ROUTES};
use super::seed::replay_chunk;
use super::values::{hostile_body, hostile_json_id, hostile_path_id, hostile_query_value};
use crate::laced;

/// A change to a request's query parameters.
type QueryEdit = Box<dyn FnOnce(&mut Vec<(String, String)>)>;

/// Where a request's control character goes (`laced`), chosen before the request's parts are filled in.
#[derive(Clone, Copy)]
enum Lace {
    Body,
    Query,
    Path,
}

/// Builds request `route`'s well-formed request, then spoils it with one hostile variant.
pub(super) fn hostile_request(route_index: usize, seeded: &Seeded, rng: &mut SmallRng) -> Attempt {
    let route = &ROUTES[route_index];
    let mut method = route.method.to_string();
    let mut path_template = route.path.to_string();
    let mut query_ids: Option<String> = None;
    let mut path_ids: Option<String> = None;
    let mut body_ids: Option<String> = None;
    let mut authorization = match route.auth {
        Auth::Owner => Some(format!("Bearer {}", seeded.owner_token)),
        Auth::Sacrificial => Some(format!("Bearer {}", seeded.sacrificial_token)),
        Auth::Public | Auth::Query => None,
    };
    let mut query_token: Option<String> = None;
    let mut extra_headers: Vec<(String, Vec<u8>)> = Vec::new();
    let mut content_type: Option<String> = match route.body {
        Body::Json(_) => Some("application/json".to_string()),
        Body::None | Body::Replay => None,
    };
    let mut body_override: Option<Vec<u8>> = None;
    let mut content_length: Option<String> = None;
    let mut half_close = false;
    let mut may_close = false;
    let mut query_edit: Option<QueryEdit> = None;
    let mut path_suffix = String::new();
    let mut raw: Option<Vec<u8>> = None;
    let mut target_override: Option<Vec<u8>> = None;
    let mut lace: Option<Lace> = None;

    let has_ids = ["{site}", "{victim}", "{replay}", "{key}"].iter().any(|p| {
        route.path.contains(p) || route.query.contains(p) || matches!(route.body, Body::Json(b) if b.contains(p))
    });
    let mut attack = loop {
        match rng.random_range(0..14) {
            0 => {
                let methods = ["GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD", "TRACE", "CONNECT", "FOO"];
                let other = methods[rng.random_range(0..methods.len())];
                if other == route.method {
                    continue;
                }
                method = other.to_string();
                // Another method on the data site's path could be its DELETE: aim at the victim instead.
                path_template = path_template.replace("{site}", "{victim}");
                may_close = other == "CONNECT";
                break format!("method {other}");
            }
            1 if route.auth != Auth::Public => {
                let (name, header) = &seeded.forged[rng.random_range(0..seeded.forged.len())];
                if route.auth == Auth::Query {
                    let token = header.split_once(' ').map_or("", |(_, t)| t);
                    query_token = Some(token.to_string());
                } else {
                    authorization = (!header.is_empty()).then(|| header.clone());
                }
                break name.to_string();
            }
            2 if has_ids => {
                let id = hostile_path_id(seeded, rng);
                path_ids = Some(id.clone());
                query_ids = Some(id.clone());
                body_ids = Some(hostile_json_id(seeded, rng));
                break format!("id {id:.40} / body id {}", body_ids.as_deref().unwrap_or(""));
            }
            3 => {
                let value = hostile_query_value(rng);
                let label;
                match rng.random_range(0..5) {
                    0 => {
                        label = format!("every query value {value:.40}");
                        query_edit = Some(Box::new(move |q| q.iter_mut().for_each(|(_, v)| *v = value.clone())));
                    }
                    1 => {
                        label = "query keys repeated with other values".to_string();
                        query_edit = Some(Box::new(move |q| {
                            let copies: Vec<(String, String)> =
                                q.iter().map(|(k, _)| (k.clone(), value.clone())).collect();
                            q.extend(copies);
                        }));
                    }
                    2 => {
                        label = "no query".to_string();
                        query_edit = Some(Box::new(|q| q.clear()));
                    }
                    3 => {
                        label = "2,000 junk parameters".to_string();
                        query_edit =
                            Some(Box::new(|q| q.extend((0..2_000).map(|i| (format!("junk{i}"), "%ff".to_string())))));
                    }
                    _ => {
                        label = "query of separators".to_string();
                        query_edit = Some(Box::new(|q| {
                            q.clear();
                            q.push(("&&&".to_string(), "==&=".to_string()));
                        }));
                    }
                }
                break label;
            }
            4 => {
                let template = match route.body {
                    Body::Json(t) => Some(t),
                    _ => None,
                };
                let (name, body) = hostile_body(template, rng);
                body_override = Some(body);
                break format!("body: {name}");
            }
            5 => {
                let (name, bomb) = &seeded.bombs[rng.random_range(0..seeded.bombs.len())];
                body_override = Some(bomb.clone());
                if matches!(route.body, Body::Replay) {
                    // A fresh recording per bomb: the seeded one stays readable.
                    query_edit = Some(Box::new(|q| {
                        for (k, v) in q.iter_mut() {
                            if k == "session_id" {
                                *v = format!("chaos-bomb-{}", rand::rng().random::<u32>());
                            }
                        }
                    }));
                } else {
                    extra_headers.push(("content-encoding".to_string(), b"gzip".to_vec()));
                }
                break format!("compressed body: {name}");
            }
            6 => {
                may_close = true;
                match rng.random_range(0..7) {
                    0 => {
                        content_length = Some("more".to_string());
                        half_close = true;
                        break "Content-Length larger than the body, then EOF".to_string();
                    }
                    1 => {
                        content_length = Some("less".to_string());
                        break "Content-Length smaller than the body".to_string();
                    }
                    2 => {
                        content_length = Some("abc".to_string());
                        break "Content-Length abc".to_string();
                    }
                    3 => {
                        content_length = Some("-1".to_string());
                        break "Content-Length -1".to_string();
                    }
                    4 => {
                        content_length = Some("99999999999999999999".to_string());
                        half_close = true;
                        break "Content-Length 10^20".to_string();
                    }
                    5 => {
                        content_length = Some("none".to_string());
                        extra_headers.push(("transfer-encoding".to_string(), b"chunked".to_vec()));
                        body_override = Some(b"zz\r\nnot a chunk\r\n0\r\n\r\n".to_vec());
                        break "invalid chunked body".to_string();
                    }
                    _ => {
                        extra_headers.push(("content-length".to_string(), b"1".to_vec()));
                        break "two different Content-Lengths".to_string();
                    }
                }
            }
            7 => {
                let types = [
                    "text/plain",
                    "application/x-www-form-urlencoded",
                    "multipart/form-data; boundary=----chaos",
                    "application/json; charset=utf-16",
                    "garbage/;;;",
                    "",
                    "image/png",
                    "application/json, text/html",
                ];
                let t = types[rng.random_range(0..types.len())];
                content_type = Some(t.to_string());
                break format!("Content-Type {t:?}");
            }
            8 => {
                let choice = rng.random_range(0..9);
                may_close = choice <= 2;
                match choice {
                    0 => {
                        extra_headers.extend((0..200).map(|i| (format!("x-chaos-{i}"), b"flood".to_vec())));
                        break "200 headers".to_string();
                    }
                    1 => {
                        extra_headers.push(("x-chaos".to_string(), vec![b'a'; 500_000]));
                        break "a 500 KB header".to_string();
                    }
                    2 => {
                        extra_headers.push(("x-chaos".to_string(), b"bad\x01value\x7f".to_vec()));
                        break "control bytes in a header".to_string();
                    }
                    3 => {
                        extra_headers.push(("cookie".to_string(), format!("a={}", "b".repeat(60_000)).into_bytes()));
                        break "a 60 KB cookie".to_string();
                    }
                    4 => {
                        extra_headers.extend((0..50).map(|_| ("authorization".to_string(), b"Bearer x".to_vec())));
                        break "50 Authorization headers".to_string();
                    }
                    5 => {
                        extra_headers.push(("host".to_string(), b"evil.example\"><script>".to_vec()));
                        break "a hostile Host".to_string();
                    }
                    6 => {
                        let list: Vec<String> = (0..2_000).map(|i| format!("10.0.{}.{}", i / 250, i % 250)).collect();
                        extra_headers.push(("x-forwarded-for".to_string(), list.join(", ").into_bytes()));
                        break "X-Forwarded-For with 2,000 entries".to_string();
                    }
                    7 => {
                        extra_headers
                            .push(("x-forwarded-for".to_string(), b"not-an-ip, ::ffff:999.1.1.1, [::1]".to_vec()));
                        break "garbage X-Forwarded-For".to_string();
                    }
                    _ => {
                        extra_headers.push(("expect".to_string(), b"100-continue".to_vec()));
                        break "Expect: 100-continue".to_string();
                    }
                }
            }
            9 => {
                let suffixes = [
                    "/../../../../etc/passwd",
                    "%2F..%2F..%2F..%2Fetc%2Fpasswd",
                    "/",
                    "//",
                    "%00",
                    ";jsessionid=chaos",
                    "/%",
                    "/%ff",
                    "/extra/segments/here",
                    ".json",
                ];
                match rng.random_range(0..suffixes.len() + 3) {
                    i if i < suffixes.len() => {
                        path_suffix = suffixes[i].to_string();
                        break format!("path + {:?}", suffixes[i]);
                    }
                    i if i == suffixes.len() => {
                        path_suffix = format!("/{}", "a".repeat(60_000));
                        break "path + 60 KB".to_string();
                    }
                    i if i == suffixes.len() + 1 => {
                        path_template = path_template.replace("/api/", "//api//").to_uppercase();
                        break "path doubled slashes, upper case".to_string();
                    }
                    _ => {
                        may_close = true;
                        path_suffix = "\u{fffd}".to_string();
                        target_override = Some(b"/api/websites/\xff\xfe".to_vec());
                        break "raw invalid UTF-8 bytes in the path".to_string();
                    }
                }
            }
            10 => {
                may_close = true;
                let garbage: Vec<u8> = (0..1024).map(|_| rng.random()).collect();
                let choices: [(&str, Vec<u8>); 7] = [
                    ("random bytes", garbage),
                    ("HTTP/9.9", format!("{} {} HTTP/9.9\r\nhost: x\r\n\r\n", route.method, route.path).into_bytes()),
                    ("an HTTP/2 preface", b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".to_vec()),
                    ("nothing at all", Vec::new()),
                    (
                        "headers never finished",
                        format!("GET {} HTTP/1.1\r\nhost: x\r\nx-a: b", route.path).into_bytes(),
                    ),
                    (
                        "bare LF line ends",
                        format!("GET {} HTTP/1.1\nhost: x\nconnection: close\n\n", route.path).into_bytes(),
                    ),
                    (
                        "a 100 KB request line",
                        format!("GET /{} HTTP/1.1\r\nhost: x\r\n\r\n", "a".repeat(100_000)).into_bytes(),
                    ),
                ];
                let (name, bytes) = choices.into_iter().nth(rng.random_range(0..7)).unwrap_or_default();
                raw = Some(bytes);
                half_close = true;
                break format!("not HTTP: {name}");
            }
            11 => {
                // Two spoilers at once: a hostile id with a forged token, against the body too.
                let (name, header) = &seeded.forged[rng.random_range(0..seeded.forged.len())];
                if route.auth == Auth::Query {
                    query_token = Some(header.split_once(' ').map_or("", |(_, t)| t).to_string());
                } else if route.auth != Auth::Public {
                    authorization = (!header.is_empty()).then(|| header.clone());
                }
                let id = hostile_path_id(seeded, rng);
                path_ids = Some(id.clone());
                query_ids = Some(id.clone());
                let (body_name, body) = hostile_body(None, rng);
                body_override = Some(body);
                break format!("{name}, id {id:.40}, body: {body_name}");
            }
            12 => {
                // One field of a well-formed request laced with a control character; a mutating request aims
                // at the laced site rather than the victim, which is soon deleted (then every check would
                // stop at its 404 before the field is read).
                if route.method != "DELETE" {
                    path_template = path_template.replace("{victim}", "{laced}");
                }
                let mut places = Vec::new();
                if matches!(route.body, Body::Json(_)) {
                    places.extend([Lace::Body, Lace::Body, Lace::Body]);
                }
                if !route.query.is_empty() {
                    places.push(Lace::Query);
                }
                if route.path.matches('/').count() > 1 {
                    places.push(Lace::Path);
                }
                if places.is_empty() || rng.random_range(0..5) == 0 {
                    let (name, value, label, illegal) = laced::lace_header(rng);
                    extra_headers.push((name, value));
                    may_close = illegal;
                    break label;
                }
                lace = Some(places[rng.random_range(0..places.len())]);
                break "control character".to_string();
            }
            13 if route.path.starts_with("/api/funnels") && matches!(route.body, Body::Json(_)) => {
                let create = (route.method == "POST").then_some(seeded.laced);
                let (label, body) = laced::oversized_funnel(create, rng);
                body_override = Some(body);
                break label;
            }
            _ => continue,
        }
    };

    if let Some(raw) = raw {
        return Attempt { route: route_index, attack, bytes: raw, half_close, may_close };
    }

    let mut path = seeded.fill(&path_template, path_ids.as_deref(), rng, false) + &path_suffix;
    if let Some(Lace::Path) = lace {
        let label;
        (path, label) = laced::lace_path(&path, rng);
        attack = label;
    }
    let mut query: Vec<(String, String)> = route
        .query
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|pair| {
            let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
            (k.to_string(), seeded.fill(v, query_ids.as_deref(), rng, false))
        })
        .collect();
    if let Some(token) = query_token {
        for (k, v) in query.iter_mut() {
            if k == "token" {
                *v = token.clone();
            }
        }
    }
    if let Some(edit) = query_edit {
        edit(&mut query);
    }
    if let Some(Lace::Query) = lace {
        attack = laced::lace_query(&mut query, rng).unwrap_or(attack);
    }
    let body = match body_override {
        Some(body) => body,
        None => match route.body {
            Body::None => Vec::new(),
            Body::Json(template) if matches!(lace, Some(Lace::Body)) => {
                let filled = seeded.fill(&template.replace("{victim}", "{laced}"), None, rng, true);
                match laced::lace_json(&filled, rng) {
                    Some((label, body)) => {
                        attack = label;
                        body
                    }
                    None => filled.into_bytes(),
                }
            }
            Body::Json(template) => seeded.fill(template, body_ids.as_deref(), rng, true).into_bytes(),
            Body::Replay => replay_chunk(),
        },
    };

    let mut target = target_override.unwrap_or_else(|| path.into_bytes());
    if !query.is_empty() && !target.contains(&b'?') {
        let text: Vec<String> =
            query.iter().map(|(k, v)| if v.is_empty() { format!("{k}=") } else { format!("{k}={v}") }).collect();
        target.push(b'?');
        target.extend_from_slice(text.join("&").as_bytes());
    }
    let mut bytes = Vec::with_capacity(body.len() + 1024);
    bytes.extend_from_slice(method.as_bytes());
    bytes.push(b' ');
    bytes.extend_from_slice(&target);
    bytes.extend_from_slice(b" HTTP/1.1\r\n");
    let mut header = |name: &str, value: &[u8]| {
        bytes.extend_from_slice(name.as_bytes());
        bytes.extend_from_slice(b": ");
        bytes.extend_from_slice(value);
        bytes.extend_from_slice(b"\r\n");
    };
    if !extra_headers.iter().any(|(n, _)| n == "host") {
        header("host", seeded.addr.to_string().as_bytes());
    }
    header("connection", b"close");
    if !extra_headers.iter().any(|(n, _)| n == "user-agent") {
        header("user-agent", b"Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0");
    }
    if let Some(authorization) = &authorization {
        header("authorization", authorization.as_bytes());
    }
    if let Some(content_type) = &content_type {
        header("content-type", content_type.as_bytes());
    }
    match content_length.as_deref() {
        None => {
            if !body.is_empty() || method == "POST" || method == "PUT" {
                header("content-length", body.len().to_string().as_bytes())
            }
        }
        Some("more") => header("content-length", (body.len() + 1000).to_string().as_bytes()),
        Some("less") => header("content-length", (body.len() / 2).to_string().as_bytes()),
        Some("none") => {}
        Some(other) => header("content-length", other.as_bytes()),
    }
    for (name, value) in &extra_headers {
        header(name, value);
    }
    bytes.extend_from_slice(b"\r\n");
    bytes.extend_from_slice(&body);
    Attempt { route: route_index, attack, bytes, half_close, may_close }
}
