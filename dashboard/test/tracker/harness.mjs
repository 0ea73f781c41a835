// Shared helpers of the tracker browser tests: Chromium via playwright-core, the demo site server, a fake
// tracking endpoint (protocol tests) and the real daemon with a small API client (end-to-end tests).
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { gunzipSync } from "node:zlib";
import { chromium } from "playwright-core";

export { startSite } from "../../../examples/serve.mjs";

const dashboard = new URL("../../", import.meta.url).pathname;
export const distTracker = join(dashboard, "dist/tracker");

export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

const executablePath = process.env.CHROMIUM || "/usr/bin/chromium";

/**
 * The user agent of this Chromium without "Headless": the server drops headless browsers as bots. Set on
 * the command line, not only per context, because requests that outlive their page (keepalive fetches at
 * pagehide) are sent by the browser process with its own user agent.
 */
export const USER_AGENT = (() => {
  const version = execFileSync(executablePath, ["--version"], { stdio: ["ignore", "pipe", "ignore"] }).toString().match(/(\d+\.[\d.]+)/)?.[1] || "120.0.0.0";
  return `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${version} Safari/537.36`;
})();

export function launchBrowser() {
  return chromium.launch({ executablePath, args: [...CHROMIUM_ARGS, `--user-agent=${USER_AGENT}`] });
}

/**
 * Polls `fn` until it returns a truthy value other than an array (returned) or the deadline passes (throws
 * with `what` and the last value: return an array to explain what was seen so far).
 */
export async function until(what, fn, { timeout = 15000, every = 100 } = {}) {
  const deadline = Date.now() + timeout;
  let last;
  for (;;) {
    try {
      const v = await fn();
      if (v && !Array.isArray(v)) return v;
      last = v;
    } catch (e) {
      last = e;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last: ${last instanceof Error ? last.message : JSON.stringify(last)}`);
    await new Promise((r) => setTimeout(r, every));
  }
}

/** A browser context with a log of every request URL it made. */
export async function newContext(browser, { dnt = false, gpc = false } = {}) {
  // A browser with DNT or GPC on says so both in JavaScript and in request headers.
  const extraHTTPHeaders = { ...(dnt ? { DNT: "1" } : {}), ...(gpc ? { "Sec-GPC": "1" } : {}) };
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 }, userAgent: USER_AGENT, extraHTTPHeaders });
  if (dnt || gpc)
    await context.addInitScript(
      ({ dnt, gpc }) => {
        if (dnt) Object.defineProperty(Navigator.prototype, "doNotTrack", { get: () => "1", configurable: true });
        if (gpc) Object.defineProperty(Navigator.prototype, "globalPrivacyControl", { get: () => true, configurable: true });
      },
      { dnt, gpc },
    );
  const requests = [];
  context.on("request", (r) => requests.push(r.url()));
  const errors = [];
  context.on("weberror", (e) => errors.push(String(e.error())));
  // What the page said and which requests failed, for the failure messages of flaky cases.
  const log = [];
  context.on("console", (m) => log.push(m.text().slice(0, 300)));
  context.on("requestfailed", (r) => log.push(`failed: ${r.method()} ${r.url().slice(0, 120)} ${r.failure()?.errorText}`));
  return { context, requests, errors, log };
}

const CORS = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Methods": "GET, POST, OPTIONS",
  "Access-Control-Allow-Headers": "Content-Type",
  "Access-Control-Max-Age": "600",
};

/**
 * A stand-in for the daemon's tracking side: serves the built scripts as the daemon does (config inlined
 * before /tracking/{key}.js) and captures every hit. `sites` maps tracking key to config.
 */
export async function startFakeEndpoint(sites) {
  const hits = []; // {path, query, headers, body: Buffer, json}
  const scripts = (name) => readFileSync(join(distTracker, name));
  const server = createServer((req, res) => {
    const url = new URL(req.url, "http://x");
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const send = (status, type, body) => {
        res.writeHead(status, { ...CORS, "Content-Type": type });
        res.end(body);
      };
      if (req.method == "OPTIONS") return send(204, "text/plain", "");
      const p = url.pathname;
      if (req.method == "GET") {
        const m = p.match(/^\/tracking\/([^/]+)\.js$/);
        if (m && (/^more\.[0-9a-f]+$/.test(m[1]) || ["enhanced", "recorder"].includes(m[1])))
          return send(200, "application/javascript", scripts(`${m[1]}.js`));
        if (m && sites[m[1]]) {
          const cfg = { ...sites[m[1]], trackingKey: m[1], endpoint: base };
          return send(200, "application/javascript", `window.__TRACKER__=${JSON.stringify(cfg)};\n${scripts("light.js")}`);
        }
        if (p == "/tracking.js") return send(200, "application/javascript", scripts("tracking.js"));
        if (p == "/tracer.js") return send(200, "application/javascript", scripts("tracer.js"));
        if (p == "/api/track/config") {
          const key = url.searchParams.get("tracking_key");
          if (!sites[key]) return send(404, "application/json", '{"error":{"message":"unknown tracking key"}}');
          return send(200, "application/json", JSON.stringify({ ...sites[key], trackingKey: key }));
        }
        return send(404, "text/plain", "not found");
      }
      const body = Buffer.concat(chunks);
      const hit = { path: p, query: Object.fromEntries(url.searchParams), headers: req.headers, body };
      try {
        hit.json = p == "/api/replay" ? JSON.parse(gunzipSync(body).toString()) : JSON.parse(body.toString());
      } catch (e) {
        hit.error = String(e);
      }
      hits.push(hit);
      send(202, "application/json", '{"ok":true}');
    });
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  const base = `http://127.0.0.1:${server.address().port}`;
  return {
    url: base,
    hits,
    track: () => hits.filter((h) => h.path == "/api/track").map((h) => h.json),
    close: () => new Promise((r) => server.close(r)),
  };
}

/** Starts the real daemon (TRACKER_BIN, default ../target/debug/tracker) on a free port and a temp data dir. */
export async function startDaemon() {
  const bin = process.env.TRACKER_BIN || join(dashboard, "../target/debug/tracker");
  const dataDir = mkdtempSync(join(tmpdir(), "tracker-test-"));
  // Tests register several accounts from loopback; the sign-up rules have their own tests.
  const env = { ...process.env, TRACKER_REGISTRATION: "open", TRACKER_REGISTRATIONS_PER_HOUR: "10000" };
  const child = spawn(bin, ["serve", "--addr", "127.0.0.1:0", "--data-dir", dataDir], { stdio: ["ignore", "pipe", "pipe"], env });
  let out = "";
  const url = await new Promise((resolve, reject) => {
    const onData = (d) => {
      out += d;
      const m = out.match(/Dashboard: (http:\/\/127\.0\.0\.1:\d+)\//);
      if (m) resolve(m[1]);
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    // A 5xx the daemon answers says only "internal server error": its log line says why, so errors are shown.
    createInterface({ input: child.stderr }).on("line", (line) => {
      if (/\bERROR\b/.test(line)) process.stderr.write(`[tracker daemon] ${line}\n`);
    });
    child.on("exit", (code) => reject(new Error(`tracker exited with ${code}: ${out}`)));
    child.on("error", reject);
    setTimeout(() => reject(new Error(`tracker did not print its URL in 20 s: ${out}`)), 20000);
  });
  return {
    url,
    dataDir,
    output: () => out,
    async stop() {
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A minimal client of the daemon's JSON API for one registered user. */
export async function apiClient(base) {
  const call = async (method, path, body, token) => {
    const res = await fetch(base + path, {
      method,
      headers: { ...(body ? { "Content-Type": "application/json" } : {}), ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status}: ${text}`);
    return text ? JSON.parse(text) : null;
  };
  const email = `owner-${Date.now()}-${Math.random().toString(36).slice(2)}@example.com`;
  const { accessToken } = await call("POST", "/api/register", { email, password: "correct horse battery" });
  return {
    get: (path) => call("GET", path, undefined, accessToken),
    post: (path, body) => call("POST", path, body, accessToken),
    put: (path, body) => call("PUT", path, body, accessToken),
    raw: (path) => fetch(base + path, { headers: { Authorization: `Bearer ${accessToken}` } }),
  };
}

const playerJs = () => readFileSync(join(dashboard, "node_modules/rrweb-player/dist/rrweb-player.umd.min.cjs"), "utf8");
const playerCss = () => readFileSync(join(dashboard, "node_modules/rrweb-player/dist/style.css"), "utf8");

/**
 * Replays rrweb `events` in rrweb-player (the dashboard's player) in a fresh page, seeks to `at` ms after
 * the first event (default: the end), and returns the replayed document's body text.
 */
export async function replayText(browser, events, at) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    const page = await context.newPage();
    await page.setContent(`<!doctype html><html><head><style>${playerCss()}</style></head><body><div id="player"></div></body></html>`);
    await page.addScriptTag({ content: playerJs() });
    return await page.evaluate(
      async ({ events, at }) => {
        const Player = window.rrwebPlayer.default || window.rrwebPlayer;
        const player = new Player({ target: document.getElementById("player"), props: { events, autoPlay: false, width: 1024, height: 576 } });
        const replayer = player.getReplayer();
        const end = events[events.length - 1].timestamp - events[0].timestamp;
        replayer.pause(at == null ? end + 1 : at);
        await new Promise((r) => setTimeout(r, 200));
        const doc = document.querySelector(".replayer-wrapper iframe").contentDocument;
        return doc.body ? doc.body.innerText : "";
      },
      { events, at },
    );
  } finally {
    await context.close();
  }
}
