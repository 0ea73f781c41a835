//! How the dashboard and the scripts go on the wire: precompressed by Accept-Encoding, hashed assets cached
//! for a year and index.html revalidated, HEAD answered like GET, a favicon, the personalised script gzipped.

use std::io::Read;

use reqwest::Method;
use reqwest::header::HeaderMap;

use crate::util::TestServer;

async fn fetch(server: &TestServer, method: Method, path: &str, accept: Option<&str>) -> (u16, HeaderMap, Vec<u8>) {
    let mut request = server.client.request(method, server.url(path));
    if let Some(accept) = accept {
        request = request.header("accept-encoding", accept);
    }
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    (status, headers, response.bytes().await.unwrap().to_vec())
}

fn header<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers.get(name).map(|v| v.to_str().unwrap())
}

fn gunzip(body: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(body).read_to_end(&mut out).expect("a gzip body");
    out
}

#[tokio::test]
async fn dashboard_assets_are_precompressed_hashed_and_cached() {
    let server = TestServer::start().await;
    let (status, headers, index) = fetch(&server, Method::GET, "/", None).await;
    assert_eq!(status, 200);
    assert_eq!(header(&headers, "cache-control"), Some("no-cache"));
    assert_eq!(header(&headers, "content-encoding"), None, "identity without Accept-Encoding");
    assert_eq!(header(&headers, "vary"), Some("Accept-Encoding"));
    let index = String::from_utf8(index).unwrap();
    let main = index.split('"').find(|s| s.starts_with("/assets/main-") && s.ends_with(".js")).expect("hashed main.js");
    assert!(index.contains(r#"<link rel="icon" href="/favicon.ico""#));

    let (_, plain_headers, plain) = fetch(&server, Method::GET, main, Some("identity")).await;
    assert_eq!(header(&plain_headers, "cache-control"), Some("public, max-age=31536000, immutable"));
    assert_eq!(header(&plain_headers, "content-encoding"), None);
    let (_, gz_headers, gz) = fetch(&server, Method::GET, main, Some("gzip, deflate")).await;
    assert_eq!(header(&gz_headers, "content-encoding"), Some("gzip"));
    assert_eq!(gunzip(&gz), plain, "the gzip copy is the same file");
    assert!(gz.len() * 3 < plain.len(), "gzip {} of {} bytes", gz.len(), plain.len());
    let (_, br_headers, br) = fetch(&server, Method::GET, main, Some("gzip, deflate, br, zstd")).await;
    assert_eq!(header(&br_headers, "content-encoding"), Some("br"));
    assert_eq!(header(&br_headers, "vary"), Some("Accept-Encoding"));
    assert!(br.len() < gz.len(), "brotli {} vs gzip {}", br.len(), gz.len());
    let (_, refused, _) = fetch(&server, Method::GET, main, Some("br;q=0, gzip")).await;
    assert_eq!(header(&refused, "content-encoding"), Some("gzip"), "q=0 refuses a coding");
    // The compressed copies are not files of their own.
    assert_eq!(fetch(&server, Method::GET, &format!("{main}.gz"), None).await.0, 404);
    server.stop().await;
}

#[tokio::test]
async fn head_and_favicon_are_answered() {
    let server = TestServer::start().await;
    let (get_status, get_headers, get_body) = fetch(&server, Method::GET, "/", Some("gzip")).await;
    let (status, headers, body) = fetch(&server, Method::HEAD, "/", Some("gzip")).await;
    assert_eq!((status, get_status), (200, 200), "uptime checkers send HEAD /");
    assert!(body.is_empty(), "HEAD has no body");
    assert_eq!(header(&headers, "content-length"), Some(get_body.len().to_string().as_str()));
    assert_eq!(header(&headers, "content-encoding"), header(&get_headers, "content-encoding"));
    assert_eq!(fetch(&server, Method::HEAD, "/tracking.js", None).await.0, 200);
    assert_eq!(fetch(&server, Method::HEAD, "/no-such-page", None).await.0, 404);

    let (status, headers, icon) = fetch(&server, Method::GET, "/favicon.ico", None).await;
    assert_eq!(status, 200);
    assert_eq!(header(&headers, "content-type"), Some("image/x-icon"));
    assert_eq!(&icon[..4], &[0, 0, 1, 0], "an ICO file");
    server.stop().await;
}

#[tokio::test]
async fn tracking_scripts_are_compressed_on_the_wire() {
    let server = TestServer::start().await;
    let (token, _) = server.register("owner@example.com").await;
    let site = server.create_site(&token, "Shop", "light").await;
    let path = format!("/tracking/{}.js", site["trackingKey"].as_str().unwrap());

    let (status, headers, gz) = fetch(&server, Method::GET, &path, Some("gzip, deflate, br")).await;
    assert_eq!(status, 200);
    assert_eq!(header(&headers, "content-encoding"), Some("gzip"));
    assert_eq!(header(&headers, "vary"), Some("Host, Accept-Encoding"));
    let (_, plain_headers, plain) = fetch(&server, Method::GET, &path, None).await;
    assert_eq!(header(&plain_headers, "content-encoding"), None);
    assert_eq!(gunzip(&gz), plain);
    let script = String::from_utf8(plain).unwrap();
    // The inlined config leaves defaults out: a light site without consent carries no banner text.
    let config = &script["window.__TRACKER__=".len()..script.find(";\n").unwrap()];
    let config: serde_json::Value = serde_json::from_str(config).unwrap();
    assert_eq!(config["trackingKey"], site["trackingKey"]);
    assert!(config.get("consentMessage").is_none() && config.get("definitions").is_none(), "{config}");

    for static_script in
        ["/tracking.js", "/tracer.js", &path.replace(site["trackingKey"].as_str().unwrap(), "enhanced")]
    {
        let (status, headers, _) = fetch(&server, Method::GET, static_script, Some("br, gzip")).await;
        assert_eq!(status, 200, "{static_script}");
        assert_eq!(header(&headers, "content-encoding"), Some("br"), "{static_script}");
        assert_eq!(header(&headers, "access-control-allow-origin"), Some("*"), "{static_script}");
    }
    server.stop().await;
}
