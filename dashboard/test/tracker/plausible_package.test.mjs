// Issue 38: "their scripts work unchanged". Plausible's own npm tracker (`@plausible-analytics/tracker`, the
// package of its official script: a devDependency, bundled by esbuild as a site's build would) runs in headless
// Chromium on a page served here, initialised with `endpoint` pointing at the real daemon's `/api/event`. A
// visitor lands, follows a link (a full navigation), scrolls three quarters down the pricing page, moves on
// in-page (history.pushState, which the package counts as a page view and which makes it send the pricing page's
// `engagement` event) and buys: a custom event with props and revenue. What the daemon stored is read back
// through our own API: the page views, the event and its props, the conversion's value, the scroll depth and the
// visit's length that the engagement events fed.
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { after, before, test } from "node:test";
import { build } from "esbuild";
import { apiClient, launchBrowser, newContext, startDaemon, until } from "./harness.mjs";

const dashboard = new URL("../../", import.meta.url).pathname;
const DOMAIN = "shop.acme.example";

let daemon, api, browser, site, website;

/** The package bundled for the page, its two functions on `window.plausibleNpm`. */
async function bundle() {
  const out = await build({
    stdin: { contents: 'import { init, track } from "@plausible-analytics/tracker"; window.plausibleNpm = { init, track };', resolveDir: dashboard },
    bundle: true,
    format: "iife",
    write: false,
    logLevel: "silent",
  });
  return out.outputFiles[0].text;
}

/** A page 4000 px tall (so a scroll's depth is known), initialising the package against the daemon. */
function pageHtml(path) {
  const endpoint = `${daemon.url}/api/event`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Acme ${path}</title>
<style>html, body { margin: 0; } #tall { height: 4000px; }</style>
<script src="/plausible.js"></script>
<script>
  // captureOnLocalhost: the page is on 127.0.0.1, which the package otherwise ignores (as it ignores a
  // browser driven by automation), and which is the whole point of this test.
  plausibleNpm.init({ domain: ${JSON.stringify(DOMAIN)}, endpoint: ${JSON.stringify(endpoint)}, captureOnLocalhost: true, logging: true });
</script></head>
<body><div id="tall">
  <a id="pricing" href="/pricing">Pricing</a>
  <button id="checkout" onclick="history.pushState({}, '', '/checkout')">Checkout</button>
  <button id="buy" onclick="plausibleNpm.track('Purchase', { props: { plan: 'pro', seats: '5' }, revenue: { amount: '49.90', currency: 'EUR' }, callback: (r) => { window.bought = r; } })">Buy</button>
</div></body></html>`;
}

before(async () => {
  daemon = await startDaemon();
  api = await apiClient(daemon.url);
  browser = await launchBrowser();
  // Enhanced: engagement events feed the scroll depth, kept from that level up.
  website = await api.post("/api/websites", { name: "Acme shop", domain: `https://${DOMAIN}`, trackingLevel: "enhanced" });
  const script = await bundle();
  const server = createServer((req, res) => {
    const path = new URL(req.url, "http://x").pathname;
    const send = (type, body) => {
      res.writeHead(200, { "Content-Type": type, "Cache-Control": "no-store" });
      res.end(body);
    };
    if (path == "/plausible.js") return send("application/javascript", script);
    send("text/html; charset=utf-8", pageHtml(path));
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  site = { url: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((r) => server.close(r)) };
});
after(async () => {
  await browser?.close();
  await site?.close();
  await daemon?.stop();
});

const query = (body) => api.post("/api/v2/query", { site_id: DOMAIN, date_range: "day", ...body });
const rows = (answer) => answer.results.map((r) => [r.dimensions, r.metrics]);

test("Plausible's npm tracker, pointed at tracker: page views, a purchase with props and revenue, engagement", async () => {
  const { context, requests, errors, log } = await newContext(browser);
  const tab = await context.newPage();
  const sentEvents = () => requests.filter((u) => u == `${daemon.url}/api/event`).length;
  await tab.goto(`${site.url}/`);
  await until("the landing page view sent", () => sentEvents() >= 1 || [requests, log]);
  await tab.waitForTimeout(1500); // reading the landing page
  await Promise.all([tab.waitForURL((u) => u.pathname == "/pricing"), tab.click("#pricing")]);
  await until("the pricing page view stored", async () => {
    const r = rows(await query({ metrics: ["pageviews"] }));
    return r[0]?.[1][0] == 2 || [r, requests, log];
  });
  // Three quarters down: the viewport's bottom at 3000 of 4000 px.
  const viewport = await tab.evaluate(() => innerHeight);
  await tab.evaluate((y) => scrollTo(0, y), 3000 - viewport);
  await until("scrolled", () => tab.evaluate((y) => scrollY == y, 3000 - viewport));
  await tab.waitForTimeout(2000); // reading the prices
  await tab.evaluate(() => scrollTo(0, 0));
  await tab.click("#checkout"); // an in-page move: the package sends the pricing page's engagement, then a page view
  await tab.click("#buy");
  const bought = await tab.waitForFunction(() => window.bought).then((h) => h.jsonValue());
  assert.deepEqual(bought, { status: 202 }, "the package's callback saw our answer");
  assert.deepEqual(errors, []);

  // The three page views on their pages; the purchase with its props; no `engagement` custom event.
  const { r: totals } = await until("three page views and the purchase stored", async () => {
    const r = rows(await query({ metrics: ["visitors", "visits", "pageviews"] }));
    return r[0]?.[1][2] == 3 ? { r } : [r, log];
  });
  assert.deepEqual(totals, [[[], [1, 1, 3]]], "one visitor, one visit");
  const pages = rows(await query({ metrics: ["pageviews"], dimensions: ["event:page"] })).sort();
  assert.deepEqual(pages, [[["/"], [1]], [["/checkout"], [1]], [["/pricing"], [1]]]);
  const names = rows(await query({ metrics: ["events"], dimensions: ["event:name"] })).map(([d]) => d[0]);
  assert.ok(names.includes("Purchase"), JSON.stringify(names));
  assert.ok(!names.includes("engagement"), `engagement events are not custom events: ${JSON.stringify(names)}`);
  const plans = rows(await query({ metrics: ["events"], dimensions: ["event:props:plan"], filters: [["is", "event:name", ["Purchase"]]] }));
  assert.deepEqual(plans, [[["pro"], [1]]]);
  const seats = rows(await query({ metrics: ["events"], dimensions: ["event:props:seats"], filters: [["is", "event:name", ["Purchase"]]] }));
  assert.deepEqual(seats, [[["5"], [1]]]);

  // The revenue made the purchase a conversion worth 49.90; the engagement events kept the visit alive past
  // the 3.5 s read on its first two pages.
  const live = await api.get(`/api/analytics/live-visitors?website_id=${website.id}`);
  assert.equal(live.recentSessions.length, 1, JSON.stringify(live.recentSessions));
  const [visit] = live.recentSessions;
  assert.equal(visit.isConverted, true);
  assert.equal(visit.conversionValue, 49.9);
  assert.equal(visit.pageViewCount, 3);
  assert.ok(visit.sessionDuration >= 3, `the visit lasted ${visit.sessionDuration} s`);
  assert.equal(visit.browser, "Chrome");

  // The pricing page's engagement event carried its scroll depth (75 %): on its heatmap's scroll chart.
  const heat = await api.get(`/api/analytics/heatmap?website_id=${website.id}&url=%2Fpricing&time_range=1d`);
  const reached = heat.scrollDepth.filter((d) => d.visitors > 0).map((d) => d.depth);
  assert.equal(Math.max(...reached), 70, `the deepest bucket reached: ${JSON.stringify(heat.scrollDepth)}`);
});
