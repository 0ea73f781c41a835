//! The state the hostile requests aim at: accounts, sites and real data seeded through the API.

use std::io::Write;

use anyhow::{Context, bail};
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use flate2::Compression;
use flate2::write::GzEncoder;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use serde_json::{Value, json};

use super::hostile::{OWNER_EMAIL, PASSWORD, Seeded};
use super::routes::INTERACTIONS_BODY;
use super::values::bombs;
use crate::daemon::{Daemon, JWT_SECRET};
use crate::traffic::Visitor;

/// Logs in the CLI-made accounts, creates their sites, and sends some real data (hits, interactions,
/// recordings, an event definition) so that the reads have something to read.
pub(super) async fn seed_target(daemon: &Daemon) -> anyhow::Result<Seeded> {
    let client = reqwest::Client::new();
    let base = &daemon.base;
    let session = |email: &'static str| {
        let client = client.clone();
        async move {
            let session: Value = client
                .post(format!("{base}/api/login"))
                .json(&json!({"email": email, "password": PASSWORD}))
                .send()
                .await?
                .error_for_status()?
                .json()
                .await?;
            anyhow::Ok((
                session["accessToken"].as_str().context("no accessToken")?.to_string(),
                session["refreshToken"].as_str().context("no refreshToken")?.to_string(),
                session["user"]["id"].as_i64().context("no user id")?,
            ))
        }
    };
    let (owner_token, _, owner_id) = session(OWNER_EMAIL).await?;
    let (other_token, _, _) = session("other@chaos.test").await?;
    let (sacrificial_token, sacrificial_refresh, _) = session("sacrificial@chaos.test").await?;
    // One account tracks a domain once: each of the owner's sites has its own.
    let create_site = |token: String, name: &'static str, domain: &'static str, level: &'static str| {
        let client = client.clone();
        async move {
            let site: Value = client
                .post(format!("{base}/api/websites"))
                .bearer_auth(token)
                .json(&json!({"name": name, "domain": domain, "trackingLevel": level}))
                .send()
                .await?
                .error_for_status()?
                .json()
                .await?;
            anyhow::Ok((
                site["id"].as_i64().context("no site id")?,
                site["trackingKey"].as_str().context("no trackingKey")?.to_string(),
            ))
        }
    };
    let (site, key) = create_site(owner_token.clone(), "Chaos", "example.com", "professional").await?;
    let (victim, _) = create_site(owner_token.clone(), "Victim", "victim.example.com", "light").await?;
    let (laced, _) = create_site(owner_token.clone(), "Laced", "laced.example.com", "professional").await?;
    let (other_site, other_key) = create_site(other_token.clone(), "Other", "example.com", "professional").await?;

    let mut rng = SmallRng::seed_from_u64(1);
    for (n, tracking_key) in [&key, &other_key].into_iter().enumerate() {
        for i in 0..40 {
            let mut visitor = Visitor::new(&mut rng);
            let mut hit = visitor.next_hit(&mut rng, true);
            let event = ["pageview", "custom", "conversion", "identify", "outbound"][i % 5];
            let mut body: Value = serde_json::from_str(&hit.body(tracking_key))?;
            body["event"] = event.into();
            body["event_name"] = "chaos_event".into();
            body["event_properties"] = match event {
                "conversion" => json!({"value": 9.5, "currency": "EUR"}),
                "identify" => json!({"company": "Acme Corp", "industry": "Software"}),
                "outbound" => json!({"href": "https://elsewhere.example/"}),
                _ => json!({"plan": "pro"}),
            };
            hit.session_id = format!("seed-session-{n}-{i}");
            body["session_id"] = hit.session_id.clone().into();
            client
                .post(format!("{base}/api/track"))
                .header("user-agent", visitor.user_agent)
                .body(body.to_string())
                .send()
                .await
                .map(checked)?
                .await?;
            let interactions =
                INTERACTIONS_BODY.replace("{key}", tracking_key).replace("{n}", &format!("seed-{n}-{i}"));
            client
                .post(format!("{base}/api/interactions"))
                .header("user-agent", visitor.user_agent)
                .body(interactions)
                .send()
                .await
                .map(checked)?
                .await?;
        }
        for seq in 0..3 {
            client
                .post(format!("{base}/api/replay?tracking_key={tracking_key}&session_id=chaos-replay&seq={seq}"))
                .header("user-agent", "Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0")
                .body(replay_chunk())
                .send()
                .await
                .map(checked)?
                .await?;
        }
    }
    client
        .post(format!("{base}/api/websites/{site}/event-definitions"))
        .bearer_auth(&owner_token)
        .json(&json!({"name": "buy", "displayName": "Buy", "eventType": "click", "selector": "#buy"}))
        .send()
        .await?
        .error_for_status()?;
    let replay_of = |token: String, site: i64| {
        let client = client.clone();
        async move {
            let list: Value = client
                .get(format!("{base}/api/websites/{site}/session-replays"))
                .bearer_auth(token)
                .send()
                .await?
                .error_for_status()?
                .json()
                .await?;
            list[0]["id"].as_i64().context("the seeded recording is not listed")
        }
    };
    let replay = replay_of(owner_token.clone(), site).await?;
    let other_replay = replay_of(other_token.clone(), other_site).await?;

    let now = chrono_now();
    let sign = |claims: Value, secret: &[u8], algorithm: jsonwebtoken::Algorithm| {
        jsonwebtoken::encode(
            &jsonwebtoken::Header::new(algorithm),
            &claims,
            &jsonwebtoken::EncodingKey::from_secret(secret),
        )
    };
    let real = JWT_SECRET.as_bytes();
    let hs256 = jsonwebtoken::Algorithm::HS256;
    let unsigned = format!(
        "{}.{}.",
        URL_SAFE_NO_PAD.encode(r#"{"alg":"none","typ":"JWT"}"#),
        URL_SAFE_NO_PAD.encode(json!({"sub": owner_id.to_string(), "iat": now, "exp": now + 600}).to_string())
    );
    // The owner's real token with its claims swapped for another id, the signature kept.
    let tampered = {
        let parts: Vec<&str> = owner_token.split('.').collect();
        let claims = URL_SAFE_NO_PAD
            .encode(json!({"sub": (owner_id + 1).to_string(), "iat": now, "exp": now + 600}).to_string());
        format!("{}.{claims}.{}", parts[0], parts.get(2).unwrap_or(&""))
    };
    let forged = vec![
        ("no token", String::new()),
        ("garbage token", "Bearer not-a-token".to_string()),
        ("empty bearer", "Bearer ".to_string()),
        ("huge token", format!("Bearer {}", "A".repeat(200_000))),
        ("basic auth", "Basic b3duZXJAY2hhb3MudGVzdDpjaGFvcy1wYXNzd29yZA==".to_string()),
        (
            "expired token",
            format!(
                "Bearer {}",
                sign(json!({"sub": owner_id.to_string(), "iat": now - 7200, "exp": now - 3600}), real, hs256)?
            ),
        ),
        ("alg none token", format!("Bearer {unsigned}")),
        (
            "token of another key",
            format!(
                "Bearer {}",
                sign(
                    json!({"sub": owner_id.to_string(), "iat": now, "exp": now + 600}),
                    b"some-other-secret-some-other-secret",
                    hs256
                )?
            ),
        ),
        (
            "HS512 token",
            format!(
                "Bearer {}",
                sign(
                    json!({"sub": owner_id.to_string(), "iat": now, "exp": now + 600}),
                    real,
                    jsonwebtoken::Algorithm::HS512
                )?
            ),
        ),
        (
            "token without exp",
            format!("Bearer {}", sign(json!({"sub": owner_id.to_string(), "iat": now}), real, hs256)?),
        ),
        (
            "token of a missing account",
            format!("Bearer {}", sign(json!({"sub": "987654321", "iat": now, "exp": now + 600}), real, hs256)?),
        ),
        (
            "token with sub abc",
            format!("Bearer {}", sign(json!({"sub": "abc", "iat": now, "exp": now + 600}), real, hs256)?),
        ),
        (
            "token with sub -1",
            format!("Bearer {}", sign(json!({"sub": "-1", "iat": now, "exp": now + 600}), real, hs256)?),
        ),
        (
            "token with a numeric sub",
            format!("Bearer {}", sign(json!({"sub": owner_id, "iat": now, "exp": now + 600}), real, hs256)?),
        ),
        ("tampered token", format!("Bearer {tampered}")),
        ("token with a suffix", format!("Bearer {owner_token}x")),
        ("token in the wrong scheme", format!("Token {owner_token}")),
        ("another account's token", format!("Bearer {other_token}")),
    ];
    Ok(Seeded {
        addr: daemon.addr,
        addrs: vec![daemon.addr],
        owner_token,
        sacrificial_token,
        sacrificial_refresh,
        site,
        victim,
        laced,
        other_site,
        replay,
        other_replay,
        key,
        other_key,
        forged,
        bombs: bombs()?,
    })
}

fn chrono_now() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs() as i64)
}

pub(super) fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = GzEncoder::new(Vec::new(), Compression::best());
    let _ = encoder.write_all(bytes);
    encoder.finish().unwrap_or_default()
}

/// A small well-formed recording chunk: a Meta event and a click.
pub(super) fn replay_chunk() -> Vec<u8> {
    let now = chrono_now() * 1000;
    let events = json!([
        {"type": 4, "data": {"href": "https://example.com/", "width": 1280, "height": 800}, "timestamp": now},
        {"type": 3, "data": {"source": 2, "type": 2, "id": 1, "x": 10, "y": 20}, "timestamp": now + 500},
    ]);
    gzip(events.to_string().as_bytes())
}

impl Seeded {
    /// Fills a route's placeholders; `ids` replaces every site, replay and key id when given (text for paths
    /// and queries, a JSON value for bodies).
    pub(super) fn fill(&self, template: &str, ids: Option<&str>, rng: &mut SmallRng, json: bool) -> String {
        let n = rng.random_range(0..100_000u32).to_string();
        let (site, victim, replay) = (self.site.to_string(), self.victim.to_string(), self.replay.to_string());
        let mut out = template
            .replace("{email}", &format!("chaos-{n}-{}@example.com", rng.random::<u32>()))
            .replace("{refresh}", &self.sacrificial_refresh)
            .replace("{token}", &self.owner_token)
            .replace("{n}", &n);
        let ids_value = ids.map(str::to_string);
        let laced = self.laced.to_string();
        out = out
            .replace("{laced}", &laced)
            .replace("{site}", ids_value.as_deref().unwrap_or(&site))
            .replace("{victim}", ids_value.as_deref().unwrap_or(&victim))
            .replace("{replay}", ids_value.as_deref().unwrap_or(&replay));
        // A tracking key sits inside a JSON string: a hostile id there must stay a string.
        let key_value = match ids {
            Some(id) if json => id.trim_matches('"').replace(['"', '\\'], ""),
            Some(id) => id.to_string(),
            None => self.key.clone(),
        };
        out.replace("{key}", &key_value)
    }
}

/// A seeding call's answer, or an error carrying the daemon's message.
async fn checked(response: reqwest::Response) -> anyhow::Result<reqwest::Response> {
    if response.status().is_success() {
        return Ok(response);
    }
    let (status, url) = (response.status(), response.url().clone());
    bail!("{url} answered {status}: {}", response.text().await.unwrap_or_default())
}
