// Browser test helpers: start the real daemon on a free port with a fresh data dir, a tiny server for the
// examples/ demo site carrying a copied snippet, Chromium via playwright-core, screenshots, waits.
import { spawn } from "node:child_process";
import { createServer } from "node:http";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, extname, join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { chromium } from "playwright-core";

const dashboardDir = resolve(new URL("../..", import.meta.url).pathname);
const repoRoot = resolve(dashboardDir, "..");
export const screenshotDir = join(repoRoot, "tests", "screenshots");

/**
 * Starts `tracker serve --addr 127.0.0.1:0 --data-dir <temp>` and resolves once it prints its URL. Sign-up is
 * open unless `env` says otherwise (e.g. `{ TRACKER_REGISTRATION: "first-user" }`).
 */
export async function startDaemon(env = {}) {
  const bin = process.env.TRACKER_BIN ? resolve(dashboardDir, process.env.TRACKER_BIN) : join(repoRoot, "target", "debug", "tracker");
  const dataDir = mkdtempSync(join(tmpdir(), "tracker-browser-"));
  const child = spawn(bin, ["serve", "--addr", "127.0.0.1:0", "--data-dir", dataDir], {
    stdio: ["ignore", "pipe", "pipe"],
    // Tests register several accounts from loopback; the sign-up rules have their own tests.
    env: { ...process.env, RUST_LOG: process.env.RUST_LOG ?? "warn", TRACKER_REGISTRATION: "open", TRACKER_REGISTRATIONS_PER_HOUR: "10000", ...env },
  });
  const stderr = [];
  child.stderr.on("data", (c) => stderr.push(c));
  // A 5xx the daemon answers says only "internal server error": its log line says why, so errors are shown.
  createInterface({ input: child.stderr }).on("line", (line) => {
    if (/\bERROR\b/.test(line)) process.stderr.write(`[tracker daemon] ${line}\n`);
  });
  const url = await new Promise((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`daemon did not print its URL in 30 s\n${Buffer.concat(stderr)}`)), 30_000);
    const lines = createInterface({ input: child.stdout });
    lines.on("line", (line) => {
      const m = /Dashboard: (http:\/\/127\.0\.0\.1:\d+)\//.exec(line);
      if (m) {
        clearTimeout(timer);
        ok(m[1]);
      }
    });
    child.on("error", (e) => { clearTimeout(timer); fail(e); });
    child.on("exit", (code) => { clearTimeout(timer); fail(new Error(`daemon exited with ${code}\n${Buffer.concat(stderr)}`)); });
  });
  child.removeAllListeners("exit");
  return {
    url,
    // For CLI commands run beside the daemon (`tracker --data-dir ... import`).
    bin,
    dataDir,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((ok) => child.once("exit", ok));
        child.kill("SIGTERM");
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Serves the examples/ demo site on 127.0.0.1:0 (its own origin, like a customer's site). The snippet
 * placeholder of examples/site ({{TRACKER_SNIPPET}}) is replaced by `snippet()`, the snippet the test copied from the Tracking Code dialog, so the page carries
 * exactly what a site owner pastes.
 */
export async function startDemoSite(snippet) {
  const root = join(repoRoot, "examples", "site");
  const server = createServer((req, res) => {
    const path = new URL(req.url, "http://x").pathname;
    const file = join(root, path === "/" ? "index.html" : path);
    if (!file.startsWith(root)) return res.writeHead(403).end();
    let body;
    try {
      body = readFileSync(file);
    } catch {
      return res.writeHead(404).end("not found");
    }
    if (extname(file) === ".html") {
      const html = body
        .toString("utf8")
        .replaceAll("{{TRACKER_SNIPPET}}", snippet());
      res.writeHead(200, { "Content-Type": "text/html" });
      return res.end(html);
    }
    res.writeHead(200, { "Content-Type": extname(file) === ".css" ? "text/css" : "application/octet-stream" });
    res.end(body);
  });
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  const { port } = server.address();
  return { url: `http://127.0.0.1:${port}`, stop: () => new Promise((ok) => server.close(ok)) };
}

export async function launchBrowser() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
}

export async function screenshot(page, name) {
  mkdirSync(screenshotDir, { recursive: true });
  const path = join(screenshotDir, `${name}.png`);
  mkdirSync(dirname(path), { recursive: true });
  await page.screenshot({ path, fullPage: true });
}

/** Waits until the element's text matches, polling (no fixed sleeps). */
export async function waitForText(locator, pattern, timeout = 10_000) {
  const deadline = Date.now() + timeout;
  let last = "";
  while (Date.now() < deadline) {
    last = (await locator.textContent({ timeout }).catch(() => "")) ?? "";
    if (pattern instanceof RegExp ? pattern.test(last) : last.includes(pattern)) return last;
    await locator.page().waitForTimeout(100);
  }
  throw new Error(`text ${pattern} not seen within ${timeout} ms; last text: ${last}`);
}

/** The current toast's title and description once a toast with this title shows. */
export async function waitForToast(page, title) {
  const toast = page.getByTestId("toast").filter({ has: page.getByTestId("toast-title").getByText(title, { exact: true }) });
  await toast.waitFor({ state: "visible" });
  return toast;
}
