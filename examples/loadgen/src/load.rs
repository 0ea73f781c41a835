//! The HTTP load: N keep-alive connections sending tracking hits for a fixed time, closed loop (as fast as
//! answers come) or open loop at a fixed total rate, latency measured from each hit's scheduled send time.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use anyhow::Context;
use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::Request;
use hyper_util::rt::TokioIo;
use rand::SeedableRng;
use rand::rngs::SmallRng;

use crate::traffic::Visitor;

/// Visits a connection interleaves, so consecutive hits of one session are spread out.
const VISITS_PER_CONNECTION: usize = 8;

/// What to send and how hard.
#[derive(Clone)]
pub struct LoadPlan {
    /// The servers: connection i goes to `addrs[i % len]`, as a proxy keeping connections to several daemons.
    pub addrs: Vec<SocketAddr>,
    pub tracking_key: String,
    pub connections: usize,
    pub duration: Duration,
    /// Total hits per second over all connections; `None` sends as fast as answers come.
    pub rate: Option<f64>,
}

/// The outcome of a load run.
#[derive(Debug, Default)]
pub struct LoadReport {
    pub ok: u64,
    pub non_2xx: u64,
    pub errors: u64,
    pub elapsed: Duration,
    /// Latencies in microseconds, sorted.
    pub latencies_us: Vec<u32>,
}

impl LoadReport {
    /// 2xx answers per second.
    pub fn hits_per_s(&self) -> f64 {
        self.ok as f64 / self.elapsed.as_secs_f64()
    }

    /// The latency at quantile `q` (0..=1) in milliseconds.
    pub fn quantile_ms(&self, q: f64) -> f64 {
        if self.latencies_us.is_empty() {
            return 0.0;
        }
        let index = ((self.latencies_us.len() as f64 * q).ceil() as usize).clamp(1, self.latencies_us.len()) - 1;
        self.latencies_us[index] as f64 / 1000.0
    }

    /// One line: rate, percentiles, failures.
    pub fn summary(&self) -> String {
        format!(
            "{:>9.0} hits/s  p50 {:>6.2} ms  p99 {:>7.2} ms  p99.9 {:>7.2} ms  2xx {}  non-2xx {}  errors {}",
            self.hits_per_s(),
            self.quantile_ms(0.50),
            self.quantile_ms(0.99),
            self.quantile_ms(0.999),
            self.ok,
            self.non_2xx,
            self.errors
        )
    }
}

/// Runs the plan: every connection sends until the duration is over, then finishes its request in flight.
pub async fn run(plan: &LoadPlan) -> anyhow::Result<LoadReport> {
    let start = Instant::now();
    let deadline = start + plan.duration;
    let mut tasks = Vec::with_capacity(plan.connections);
    for index in 0..plan.connections {
        let plan = plan.clone();
        tasks.push(tokio::spawn(async move { connection(plan, index, start, deadline).await }));
    }
    let mut report = LoadReport::default();
    for task in tasks {
        let part = task.await.context("load task panicked")??;
        report.ok += part.ok;
        report.non_2xx += part.non_2xx;
        report.errors += part.errors;
        report.latencies_us.extend(part.latencies_us);
    }
    report.elapsed = start.elapsed();
    report.latencies_us.sort_unstable();
    Ok(report)
}

pub async fn connect(addr: SocketAddr) -> anyhow::Result<hyper::client::conn::http1::SendRequest<Full<Bytes>>> {
    let stream = tokio::net::TcpStream::connect(addr).await.with_context(|| format!("cannot connect to {addr}"))?;
    stream.set_nodelay(true)?;
    let (sender, conn) = hyper::client::conn::http1::handshake(TokioIo::new(stream)).await?;
    tokio::spawn(async move {
        let _ = conn.await;
    });
    Ok(sender)
}

async fn connection(plan: LoadPlan, index: usize, start: Instant, deadline: Instant) -> anyhow::Result<LoadReport> {
    let mut rng = SmallRng::seed_from_u64(index as u64 ^ 0x5eed);
    let mut visits: Vec<Visitor> = (0..VISITS_PER_CONNECTION).map(|_| Visitor::new(&mut rng)).collect();
    let addr = plan.addrs[index % plan.addrs.len()];
    let mut sender = connect(addr).await?;
    let interval = plan.rate.map(|rate| Duration::from_secs_f64(plan.connections as f64 / rate));
    // Open-loop connections start staggered so the total rate is smooth.
    let mut scheduled = start + interval.map(|i| i.mul_f64(index as f64 / plan.connections as f64)).unwrap_or_default();
    let mut report = LoadReport::default();
    let host = addr.to_string();
    let mut n: usize = 0;
    loop {
        let now = Instant::now();
        if now >= deadline {
            break;
        }
        if interval.is_none() {
            scheduled = now;
        } else if scheduled > now {
            tokio::time::sleep_until(scheduled.into()).await;
        }
        let slot = n % VISITS_PER_CONNECTION;
        n += 1;
        if visits[slot].done() {
            visits[slot] = Visitor::new(&mut rng);
        }
        let visitor = &mut visits[slot];
        let hit = visitor.next_hit(&mut rng, false);
        let request = Request::post("/api/track")
            .header("host", &host)
            .header("content-type", "application/json")
            .header("user-agent", visitor.user_agent)
            .header("x-forwarded-for", visitor.ip.to_string())
            .body(Full::new(Bytes::from(hit.body(&plan.tracking_key))))?;
        if sender.ready().await.is_err() {
            report.errors += 1;
            sender = connect(addr).await?;
            continue;
        }
        match sender.send_request(request).await {
            Ok(response) => {
                let status = response.status();
                let _ = response.into_body().collect().await;
                let latency = scheduled.elapsed();
                report.latencies_us.push(latency.as_micros().min(u32::MAX as u128) as u32);
                if status.is_success() {
                    report.ok += 1;
                } else {
                    report.non_2xx += 1;
                }
            }
            Err(_) => {
                report.errors += 1;
                sender = connect(addr).await?;
            }
        }
        if let Some(interval) = interval {
            scheduled += interval;
        }
    }
    Ok(report)
}
