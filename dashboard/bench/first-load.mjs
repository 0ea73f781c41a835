// First load of the dashboard as a new visitor's browser sees it: real headless Chromium against a running
// tracker binary (release by default) on the loopback. A benchmark, not a test: it prints figures and
// whether they are within budget, for BENCHMARKS.md.
//
//   cargo build --release -p tracker && (cd dashboard && node bench/first-load.mjs)
//   TRACKER_BIN=../target/debug/tracker RUNS=5 node bench/first-load.mjs
//
// Each run opens /auth in a fresh browser context (empty cache) and measures
// - the JavaScript bytes that went over the wire (encoded body sizes) and all bytes,
// - time to interactive: from navigation start until the sign-in form's button is on screen and enabled,
// once as browsers fetch it (Accept-Encoding: gzip, deflate, br, zstd) and once with compression refused
// (Accept-Encoding: identity), which is how the dashboard went out before precompression: the baseline,
// measured in the same run.
import { resolve } from "node:path";
import { startDaemon, launchBrowser } from "../test/browser/helpers.mjs";

const JS_BUDGET = 150 * 1024;
const TTI_BUDGET_MS = 1000;
const runs = Number(process.env.RUNS || 5);
process.env.TRACKER_BIN ||= resolve(new URL("..", import.meta.url).pathname, "../target/release/tracker");

const daemon = await startDaemon();
const browser = await launchBrowser();
try {
  const results = {};
  for (const [label, encoding] of [
    ["compressed", null],
    ["identity (baseline)", "identity"],
  ]) {
    const samples = [];
    for (let i = 0; i < runs; i++) samples.push(await firstLoad(encoding));
    results[label] = samples;
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  console.log(`tracker first load of /auth, ${runs} runs each, medians (${process.env.TRACKER_BIN})`);
  console.log("| delivery | JS files | JS bytes on the wire | all bytes | time to interactive |");
  console.log("|---|---|---|---|---|");
  for (const [label, samples] of Object.entries(results)) {
    console.log(
      `| ${label} | ${samples[0].jsFiles} | ${median(samples.map((s) => s.jsBytes)).toLocaleString("en")} B | ` +
        `${median(samples.map((s) => s.allBytes)).toLocaleString("en")} B | ${median(samples.map((s) => s.tti)).toFixed(0)} ms |`,
    );
  }
  const now = results.compressed;
  const js = median(now.map((s) => s.jsBytes));
  const tti = median(now.map((s) => s.tti));
  console.log(`budget: JavaScript ${js <= JS_BUDGET ? "ok" : "OVER"} (${js} <= ${JS_BUDGET}), time to interactive ${tti <= TTI_BUDGET_MS ? "ok" : "OVER"} (${tti.toFixed(0)} <= ${TTI_BUDGET_MS} ms)`);
} finally {
  await browser.close();
  await daemon.stop();
}

/** One first visit of /auth in an empty context; `encoding` overrides Accept-Encoding. */
async function firstLoad(encoding) {
  const context = await browser.newContext({
    baseURL: daemon.url,
    viewport: { width: 1400, height: 900 },
    ...(encoding ? { extraHTTPHeaders: { "Accept-Encoding": encoding } } : {}),
  });
  const page = await context.newPage();
  const responses = [];
  page.on("requestfinished", (request) => responses.push(request));
  await page.goto("/auth", { waitUntil: "commit" });
  // performance.now() counts from the navigation's start; checked on every frame.
  const ready = await page.waitForFunction(
    () => {
      const button = document.querySelector('form button[type="submit"]');
      return button && !button.disabled && button.getBoundingClientRect().height > 0 && performance.now();
    },
    undefined,
    { polling: "raf" },
  );
  const tti = await ready.jsonValue();
  await page.waitForLoadState("networkidle");
  let jsBytes = 0;
  let allBytes = 0;
  let jsFiles = 0;
  for (const request of responses) {
    const { responseBodySize, responseHeadersSize } = await request.sizes();
    allBytes += responseBodySize + responseHeadersSize;
    if (request.url().endsWith(".js")) {
      jsBytes += responseBodySize;
      jsFiles += 1;
    }
  }
  await context.close();
  return { tti, jsBytes, allBytes, jsFiles };
}
