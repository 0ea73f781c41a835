// The heatmap panel of Advanced Analytics in headless Chromium against the real daemon: visitors on a phone
// and on a desktop click a known button (placed differently at the two widths) on a test page carrying the
// real tracking script with recording on (real ingest path); the panel renders the page from the latest
// recording in a frame sandboxed without scripts, and the click heat is drawn over that button inside the
// frame, at 1400 and 390 px, and in the downloaded PNG (with the page under it); the controls (type,
// opacity, replay / stop / clear); a page without a recording keeps the page-sized canvas and says why; the
// empty state of a site without data.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { gzipSync } from "node:zlib";
import { launchBrowser, screenshot, startDaemon, waitForText } from "./helpers.mjs";

const UA = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
/** The button of the test page, in page pixels at a 1280 px wide page; on a phone it sits elsewhere. */
const BUTTON = { left: 200, top: 300, width: 120, height: 40 };
const PHONE_BUTTON = { left: 20, top: 500 };
/** The page's background, to find the page's rendering in the PNG. */
const PAGE_BG = [254, 243, 199];

async function call(base, method, path, token, body) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : null };
}

/** A customer's page with the personalised script and one absolutely placed button. */
async function startTestSite(scriptUrl) {
  const html = `<!doctype html><html><head><meta charset="utf-8"><title>Shop</title>
<script async src="${scriptUrl}"></script>
<style>body{margin:0;height:1600px;background:rgb(${PAGE_BG})}
#buy{position:absolute;left:${BUTTON.left}px;top:${BUTTON.top}px;width:${BUTTON.width}px;height:${BUTTON.height}px}
@media (max-width:600px){#buy{left:${PHONE_BUTTON.left}px;top:${PHONE_BUTTON.top}px}}</style></head>
<body><button id="buy">Buy</button>
<script>window.__pageScriptRan = 1;</script>
</body></html>`;
  const server = createServer((req, res) => {
    res.writeHead(200, { "content-type": "text/html" });
    res.end(html);
  });
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  return { url: `http://127.0.0.1:${server.address().port}`, stop: () => new Promise((ok) => server.close(ok)) };
}

/** Pixels of a canvas-like image inside the page: the centroid of strongly coloured pixels. */
async function hotCentroid(page, selectorOrDataUrl) {
  return page.evaluate(async (src) => {
    let canvas;
    if (src.startsWith("data:")) {
      const img = new Image();
      img.src = src;
      await img.decode();
      canvas = document.createElement("canvas");
      canvas.width = img.width;
      canvas.height = img.height;
      canvas.getContext("2d").drawImage(img, 0, 0);
    } else {
      canvas = document.querySelector(src);
    }
    const { width, height } = canvas;
    const data = canvas.getContext("2d").getImageData(0, 0, width, height).data;
    let sx = 0, sy = 0, n = 0;
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const i = (y * width + x) * 4;
        // Red heat (a count of 10 is full intensity): strongly red over the dark background or transparency.
        if (data[i] > 120 && data[i] > data[i + 2] + 60 && data[i + 3] > 60) {
          sx += x;
          sy += y;
          n++;
        }
      }
    }
    return { width, height, n, x: n ? sx / n : -1, y: n ? sy / n : -1 };
  }, selectorOrDataUrl);
}

describe("heatmap panel", () => {
  let daemon, browser, context, page, token, site, emptySite, plainSite, shop, siteKey;
  const dashboardRequests = [];

  /** A visitor at `width` px clicks the button ten times at its centre, then leaves. */
  async function visit(width) {
    const visitor = await browser.newContext({ viewport: { width, height: 800 }, userAgent: UA });
    const tab = await visitor.newPage();
    await tab.goto(shop.url);
    await tab.waitForFunction(() => window.tracker && window.tracker._ && window.tracker._.h && window.tracker._.r);
    const sent = tab.waitForResponse((r) => r.url().includes("/api/interactions"), { timeout: 15_000 });
    // The recorder uploads every few seconds: the first chunk holds the page's full snapshot.
    const recorded = tab.waitForResponse((r) => r.url().includes("/api/replay?"), { timeout: 15_000 });
    const box = await tab.locator("#buy").boundingBox();
    for (let i = 0; i < 10; i++) await tab.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    assert.equal((await sent).status(), 202);
    assert.equal((await recorded).status(), 202);
    // Leaving sends the recording's last chunk (the daemon is polled for it: the answer comes after the page left).
    await tab.goto("about:blank");
    await visitor.close();
  }

  /** Polls a daemon read until `done` holds. */
  async function until(what, path, done) {
    const deadline = Date.now() + 15_000;
    let last;
    while (Date.now() < deadline) {
      last = await call(daemon.url, "GET", path, token);
      if (done(last.json)) return last.json;
      await new Promise((ok) => setTimeout(ok, 200));
    }
    assert.fail(`${what}: ${JSON.stringify(last?.json)?.slice(0, 300)}`);
  }

  before(async () => {
    daemon = await startDaemon();
    const reg = await call(daemon.url, "POST", "/api/register", null, { email: `heat-${Date.now()}@example.com`, password: "secret1" });
    token = reg.json.accessToken;
    const created = await call(daemon.url, "POST", "/api/websites", token, { name: "Heat Shop", domain: "127.0.0.1", trackingLevel: "enhanced" });
    site = created.json.id;
    siteKey = created.json.trackingKey;
    emptySite = (await call(daemon.url, "POST", "/api/websites", token, { name: "Quiet", domain: "quiet.example.com", trackingLevel: "enhanced" })).json.id;
    const plain = (await call(daemon.url, "POST", "/api/websites", token, { name: "Plain", domain: "plain.example.com", trackingLevel: "enhanced" })).json;
    plainSite = plain.id;
    shop = await startTestSite(`${daemon.url}/tracking/${created.json.trackingKey}.js`);
    browser = await launchBrowser();

    // A phone visitor first, then a desktop one: the desktop recording is the latest, the page rendered.
    await visit(390);
    await until("the phone recording", `/api/analytics/heatmap/page?website_id=${site}&url=%2F`, (j) => j?.snapshot?.width === 390);
    await visit(1280);
    await until("the desktop recording", `/api/analytics/heatmap/page?website_id=${site}&url=%2F`, (j) => j?.snapshot?.width === 1280);
    const heat = await until("the twenty clicks", `/api/analytics/heatmap?website_id=${site}&url=%2F&time_range=7d`, (j) => (j?.clicks ?? []).reduce((s, c) => s + c.count, 0) >= 20);
    assert.equal(heat.clicks.length, 2, "two places on the page-sized grid (the button moves on a phone)");
    assert.deepEqual(heat.elementClicks.map((c) => [c.selector, c.offsetX, c.offsetY, c.count]), [["#buy", 0.5, 0.5, 20]], "one place on the element");

    // A page with clicks but no recording, posted as the script would.
    const post = (path, body) => fetch(`${daemon.url}${path}`, { method: "POST", headers: { "user-agent": UA }, body: JSON.stringify(body) });
    const sid = `plain-${Date.now()}`;
    assert.equal((await post("/api/track", { tracking_key: plain.trackingKey, session_id: sid, url: "https://plain.example.com/", event: "pageview" })).status, 202);
    const ix = { tracking_key: plain.trackingKey, session_id: sid, url: "https://plain.example.com/", viewport: { w: 1280, h: 800 }, page: { w: 1280, h: 1600 } };
    assert.equal((await post("/api/interactions", { ...ix, clicks: Array.from({ length: 10 }, () => ({ x: 260, y: 320, selector: "#buy", ox: 0.5, oy: 0.5 })) })).status, 202);

    context = await browser.newContext({ viewport: { width: 1400, height: 900 }, baseURL: daemon.url, acceptDownloads: true });
    await context.addInitScript(([a, r]) => {
      if (!localStorage.getItem("accessToken")) {
        localStorage.setItem("accessToken", a);
        localStorage.setItem("refreshToken", r);
      }
    }, [token, reg.json.refreshToken]);
    context.on("request", (r) => dashboardRequests.push(r.url()));
    page = await context.newPage();
    page.on("pageerror", (e) => console.error("page error:", e));
  });

  after(async () => {
    await browser?.close();
    await shop?.stop();
    await daemon?.stop();
  });

  /** The button's box inside the rendered frame, in the overlay canvas's pixels. */
  const buttonInCanvas = () =>
    page.evaluate(() => {
      const frame = document.querySelector("[data-testid=heatmap-frame]");
      const canvas = document.querySelector("[data-testid=heatmap-canvas]");
      const button = frame.contentDocument.querySelector("#buy").getBoundingClientRect();
      const f = frame.getBoundingClientRect();
      const c = canvas.getBoundingClientRect();
      const scale = f.width / frame.offsetWidth;
      const px = canvas.width / c.width;
      return {
        left: (f.left - c.left + button.left * scale) * px,
        top: (f.top - c.top + button.top * scale) * px,
        width: button.width * scale * px,
        height: button.height * scale * px,
      };
    });

  const expectOver = (spot, box, what) => {
    assert.ok(spot.n > 20, `${what}: a hot spot is drawn (${spot.n} px)`);
    const inX = spot.x >= box.left && spot.x <= box.left + box.width;
    const inY = spot.y >= box.top && spot.y <= box.top + box.height;
    assert.ok(inX && inY, `${what}: the hot spot (${spot.x.toFixed(0)}, ${spot.y.toFixed(0)}) lies over the button ${JSON.stringify(box)}`);
  };

  /** Waits for the page's rendering in its frame. */
  async function rendered() {
    await page.locator("[data-testid=heatmap-note][data-rendered=page]").waitFor();
    await page.waitForFunction(() => {
      const c = document.querySelector("[data-testid=heatmap-canvas]");
      return c.width > 100 && c.getContext("2d").getImageData(0, 0, c.width, c.height).data.some((v, i) => i % 4 === 3 && v > 60);
    });
  }

  it("renders the page from its recording in a frame without scripts, the heat over the button", async () => {
    await page.goto(`/advanced-analytics?tab=heatmaps&website=${site}`);
    await page.getByRole("tab", { name: "Heatmaps", selected: true }).waitFor();
    assert.equal(await page.locator("#heatmap-url").inputValue(), "/");
    await waitForText(page.getByTestId("heatmap-opacity"), "50%");
    await rendered();
    const frame = page.getByTestId("heatmap-frame");
    assert.equal(await frame.getAttribute("sandbox"), "allow-same-origin", "no allow-scripts");
    const inside = await page.evaluate(() => {
      const f = document.querySelector("[data-testid=heatmap-frame]");
      return { text: f.contentDocument.querySelector("#buy")?.textContent, scripts: f.contentDocument.querySelectorAll("script").length, ran: f.contentWindow.__pageScriptRan ?? null };
    });
    assert.deepEqual(inside, { text: "Buy", scripts: 0, ran: null }, "the page is there, its script neither kept nor run");
    await waitForText(page.getByTestId("heatmap-note"), /20 of 20 clicks placed on their element/);
    expectOver(await hotCentroid(page, "[data-testid=heatmap-canvas]"), await buttonInCanvas(), "overlay at 1400 px");
    await page.getByText("Page Performance").waitFor();
    await page.getByText("Form Interactions").waitFor();
    await page.getByText("Scroll Depth Analysis").waitFor();
    await screenshot(page, "heatmap-01-clicks");
  });

  it("downloads a PNG with the page and the hot spot over the button", async () => {
    const box = await buttonInCanvas();
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download PNG" }).click()]);
    assert.match(download.suggestedFilename(), /^heatmap-click-root-\d{4}-\d{2}-\d{2}\.png$/);
    const png = readFileSync(await download.path());
    assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], "a PNG file");
    const url = `data:image/png;base64,${png.toString("base64")}`;
    const spot = await hotCentroid(page, url);
    const canvasWidth = await page.evaluate(() => document.querySelector("[data-testid=heatmap-canvas]").width);
    assert.equal(spot.width, canvasWidth, "the PNG is the panel's drawing");
    expectOver(spot, box, "PNG");
    // The page's own background under the heat, far from the spot: the rendering is in the PNG.
    const corner = await page.evaluate(async (src) => {
      const img = new Image();
      img.src = src;
      await img.decode();
      const c = document.createElement("canvas");
      c.width = img.width;
      c.height = img.height;
      const ctx = c.getContext("2d");
      ctx.drawImage(img, 0, 0);
      return [...ctx.getImageData(c.width - 5, c.height - 5, 1, 1).data.slice(0, 3)];
    }, url);
    assert.deepEqual(corner, PAGE_BG, "the page's background is in the PNG");
  });

  it("clear wipes the canvas, replay draws it again; opacity has a 10-100 step 10 slider", async () => {
    await page.getByRole("button", { name: "Clear" }).click();
    assert.equal((await hotCentroid(page, "[data-testid=heatmap-canvas]")).n, 0, "cleared");
    await page.getByRole("button", { name: "Replay" }).click();
    await page.waitForFunction(() => {
      const c = document.querySelector("[data-testid=heatmap-canvas]");
      const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
      for (let i = 3; i < d.length; i += 4) if (d[i] > 60) return true;
      return false;
    });
    const slider = page.getByRole("slider", { name: "Opacity" });
    assert.equal(await slider.getAttribute("aria-valuemin"), "10");
    assert.equal(await slider.getAttribute("aria-valuemax"), "100");
    await slider.focus();
    await page.keyboard.press("ArrowRight");
    await waitForText(page.getByTestId("heatmap-opacity"), "60%");
    await page.locator("#heatmap-kind").selectOption("scroll");
    await page.getByRole("heading", { name: "Scroll Depth", exact: true }).waitFor();
  });

  it("fits 390 px, the heat still over the button in the frame", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    // The app shell keeps a fixed 16rem sidebar at every width (AppLayout, not this panel's); the panel is
    // checked in the full 390 px column a phone layout gives it.
    await page.addStyleTag({ content: "aside, nav[aria-label=Main] { display: none !important } main { padding-left: 0 !important }" });
    await page.locator("#heatmap-kind").selectOption("click");
    await page.waitForFunction(() => document.querySelector("[data-testid=heatmap-canvas]").width < 390);
    await rendered();
    expectOver(await hotCentroid(page, "[data-testid=heatmap-canvas]"), await buttonInCanvas(), "overlay at 390 px");
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `no horizontal scrolling at 390 px (overflow ${overflow})`);
    await screenshot(page, "heatmap-02-390");
    await page.setViewportSize({ width: 1400, height: 900 });
  });

  it("keeps the page-sized canvas and says why for a page without a recording", async () => {
    await page.goto(`/advanced-analytics?tab=heatmaps&website=${plainSite}`);
    await page.locator("[data-testid=heatmap-note][data-rendered=canvas]").waitFor();
    await waitForText(page.getByTestId("heatmap-note"), /No session recording of this page yet/);
    assert.equal(await page.getByTestId("heatmap-frame").count(), 0);
    await page.waitForFunction(() => document.querySelector("[data-testid=heatmap-canvas]").width > 100);
    const spot = await hotCentroid(page, "[data-testid=heatmap-canvas]");
    const scale = spot.width / 1280;
    expectOver(spot, { left: 200 * scale, top: 300 * scale, width: 120 * scale, height: 40 * scale }, "page-sized canvas");
  });

  it("renders a hostile recording of the page without running or loading anything from it", async () => {
    // A "visitor" uploads crafted events for the page: a script, handlers, a frame, a meta refresh, links.
    const sid = `hostile-${Date.now()}`;
    const steal = (from) => `parent.__heatXss='${from}';fetch('${daemon.url}/api/heat-xss-marker?from=${from}')`;
    const el = (id, tagName, attributes, childNodes = []) => ({ type: 2, tagName, attributes, childNodes, id });
    const doc = {
      type: 0,
      id: 1,
      childNodes: [
        el(3, "html", {}, [
          el(4, "head", {}, [
            el(10, "script", {}, [{ type: 3, textContent: steal("script"), id: 11 }]),
            el(12, "meta", { "http-equiv": "refresh", content: `0;url=${daemon.url}/api/heat-xss-marker?from=refresh` }),
            el(13, "link", { rel: "prefetch", href: `${daemon.url}/api/heat-xss-marker?from=link` }),
          ]),
          el(5, "body", { onload: steal("onload") }, [
            el(6, "h1", {}, [{ type: 3, textContent: "HOSTILE-PAGE", id: 7 }]),
            el(8, "img", { src: "/no-such-image.png", onerror: steal("onerror") }),
            el(9, "iframe", { srcdoc: `<script>${steal("srcdoc").replaceAll("parent.", "parent.parent.")}</script>` }),
            el(14, "a", { id: "buy", href: `javascript:${steal("href")}` }, [{ type: 3, textContent: "Buy", id: 15 }]),
          ]),
        ]),
      ],
    };
    const start = Date.now();
    const events = [
      { type: 4, data: { href: `${shop.url}/`, width: 1280, height: 720 }, timestamp: start },
      { type: 2, data: { node: doc, initialOffset: { left: 0, top: 0 } }, timestamp: start + 1 },
    ];
    const headers = { "user-agent": UA };
    const hit = await fetch(`${daemon.url}/api/track`, { method: "POST", headers, body: JSON.stringify({ tracking_key: siteKey, session_id: sid, url: `${shop.url}/`, event: "pageview" }) });
    assert.equal(hit.status, 202);
    const upload = await fetch(`${daemon.url}/api/replay?tracking_key=${siteKey}&session_id=${sid}&seq=0`, { method: "POST", headers, body: gzipSync(JSON.stringify(events)) });
    assert.equal(upload.status, 202, await upload.text());
    await until("the hostile recording is the latest", `/api/analytics/heatmap/page?website_id=${site}&url=%2F`, (j) => JSON.stringify(j?.snapshot?.node ?? {}).includes("HOSTILE-PAGE"));

    await page.goto(`/advanced-analytics?tab=heatmaps&website=${site}`);
    await rendered();
    const inside = await page.evaluate(() => {
      const d = document.querySelector("[data-testid=heatmap-frame]").contentDocument;
      const attributes = [...d.querySelectorAll("*")].flatMap((e) => [...e.attributes].map((a) => `${a.name}=${a.value}`));
      return { text: d.body?.textContent, tags: [...d.querySelectorAll("script, iframe, meta, link")].length, risky: attributes.filter((a) => /^on|javascript:/i.test(a)) };
    });
    assert.deepEqual(inside, { text: "HOSTILE-PAGEBuy", tags: 0, risky: [] });
    // The clicks on #buy land on the hostile page's #buy: placement still works.
    expectOver(await hotCentroid(page, "[data-testid=heatmap-canvas]"), await buttonInCanvas(), "overlay on the hostile page");
    // Give anything that could run a moment to do so, then check that nothing did.
    await page.evaluate(() => new Promise((ok) => setTimeout(ok, 500)));
    assert.equal(await page.evaluate(() => window.__heatXss ?? null), null, "nothing ran in the dashboard");
    assert.deepEqual(dashboardRequests.filter((u) => u.includes("heat-xss-marker")), [], "nothing was fetched from the recording");
  });

  it("says so for a site without pages", async () => {
    await page.goto(`/advanced-analytics?tab=heatmaps&website=${emptySite}`);
    await page.getByText("No pages yet").waitFor();
  });
});
