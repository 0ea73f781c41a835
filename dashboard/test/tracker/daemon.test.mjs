// End to end: the demo site (examples/site, its own origin) with each snippet variant, in headless
// Chromium, against the real daemon binary; what the server stored is read back through the read API
// (spec part 2 §7, daemon/API.md), polling with a deadline instead of sleeping.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { request } from "node:http";
import { gunzipSync, constants as zlib } from "node:zlib";
import { TRACKING_GZIP_BUDGET } from "../../tracker/build.mjs";
import { apiClient, launchBrowser, newContext, replayText, startDaemon, startSite, until } from "./harness.mjs";

let daemon, api, browser;
const servers = [];

before(async () => {
  daemon = await startDaemon();
  api = await apiClient(daemon.url);
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await Promise.all(servers.map((s) => s.close()));
  await daemon?.stop();
});

/** Sites made so far: each gets a domain of its own, as one account tracks a domain once. */
let sitesMade = 0;

/** A new website of `level` (with `privacy` settings) and the demo site serving it with `variant`. */
async function newSite(level, variant = "personal", privacy, t) {
  sitesMade += 1;
  const domain = `https://site${sitesMade}.acme.example`;
  const website = await api.post("/api/websites", { name: `Acme ${level} ${variant}`, domain, trackingLevel: level });
  assert.equal(website.trackingLevel, level);
  if (privacy) {
    if (!(await needs(t, `/api/privacy/settings?website_id=${website.id}`))) return null;
    await api.put("/api/privacy/settings", { websiteId: website.id, ...privacy });
    // The personalised script carries the site's config: check that the settings reached it.
    const script = await (await fetch(`${daemon.url}/tracking/${website.trackingKey}.js`)).text();
    const config = JSON.parse(script.slice("window.__TRACKER__=".length, script.indexOf(";\n")));
    // The inlined config leaves out fields at their default (false): read as the script does.
    if ("cookieConsent" in privacy) assert.equal(!!config.requireConsent, privacy.cookieConsent, "cookieConsent → requireConsent");
    if ("respectDoNotTrack" in privacy) assert.equal(!!config.respectDoNotTrack, privacy.respectDoNotTrack, "respectDoNotTrack in the config");
  }
  const s = await startSite({ trackerUrl: daemon.url, trackingKey: website.trackingKey, variant });
  servers.push(s);
  return { website, id: website.id, origin: s.url };
}

const overview = (id) => api.get(`/api/dashboard/overview?website_id=${id}&range=1d`);
const sessionOf = (page) => page.evaluate(() => window.tracker._.s);

/**
 * Skips the test when the daemon lacks `path` (a route still being built): an unknown route answers 404
 * with a body that is not the API's "not found" for a known route with a bad id.
 */
/** Asserts the daemon serves `path` (an endpoint these tests read from must exist, never be skipped). */
async function needs(_t, path) {
  const res = await api.raw(path);
  assert.ok(res.status < 400, `${path.split("?")[0]} answered ${res.status} ${(await res.text()).slice(0, 80)}`);
  return true;
}

/** GET `url` with `headers`, without decompressing: status, headers and the bytes as sent. */
const raw = (url, headers) =>
  new Promise((resolve, reject) => {
    request(url, { headers }, (res) => {
      const chunks = [];
      res.on("data", (c) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
    })
      .on("error", reject)
      .end();
  });

test("the personalised light script goes out gzipped, within its budget", async () => {
  const website = await api.post("/api/websites", { name: "Acme size", domain: "https://size.acme.example", trackingLevel: "light" });
  const res = await raw(`${daemon.url}/tracking/${website.trackingKey}.js`, { "Accept-Encoding": "gzip, deflate, br" });
  assert.equal(res.status, 200);
  assert.equal(res.headers["content-encoding"], "gzip");
  const script = gunzipSync(res.body).toString();
  const config = JSON.parse(script.slice("window.__TRACKER__=".length, script.indexOf(";\n")));
  assert.equal(config.trackingKey, website.trackingKey);
  assert.ok(res.body.length <= TRACKING_GZIP_BUDGET, `${res.body.length} bytes gzip on the wire, budget ${TRACKING_GZIP_BUDGET}`);
  console.log(`personalised light script: ${res.body.length} bytes gzip on the wire (${script.length} raw)`);
  // Its less used half, which every page loads after the page view, is named by its content and kept a year.
  const more = script.match(/more\.[0-9a-f]+\.js/);
  assert.ok(more, "the script names more.<hash>.js");
  const chunk = await raw(`${daemon.url}/tracking/${more[0]}`, { "Accept-Encoding": "gzip, deflate, br" });
  assert.equal(chunk.status, 200);
  assert.equal(chunk.headers["cache-control"], "public, max-age=31536000, immutable");
  assert.ok(["gzip", "br"].includes(chunk.headers["content-encoding"]), chunk.headers["content-encoding"]);
  const plain = await raw(`${daemon.url}/tracking/enhanced.js`, {});
  assert.equal(plain.headers["cache-control"], "public, max-age=3600", "unhashed chunks keep the hour");
  console.log(`${more[0]}: ${chunk.body.length} bytes ${chunk.headers["content-encoding"]} on the wire`);
});

describe("each snippet variant against the daemon", () => {
  for (const variant of ["personal", "basic", "tracer"]) {
    test(`${variant}: page views with SPA navigation stored`, async () => {
      const { id, origin } = await newSite("light", variant);
      const { context } = await newContext(browser);
      const page = await context.newPage();
      await page.goto(`${origin}/spa.html`);
      await page.click("#to-products");
      await page.click("#same-route");
      await page.click("#to-checkout");
      await page.goBack(); // popstate back to /spa/products
      const o = await until("four page views", async () => {
        const o = await overview(id);
        return o.metrics.pageViews >= 4 ? o : [o.metrics.pageViews];
      });
      assert.equal(o.metrics.pageViews, 4);
      assert.equal(o.metrics.totalVisitors, 1);
      const views = Object.fromEntries(o.topPages.map((p) => [new URL(p.url, origin).pathname, p.views]));
      assert.deepEqual(views, { "/spa/products": 2, "/spa.html": 1, "/spa/checkout": 1 });
      await context.close();
    });

    test(`${variant}: a custom event and a conversion with value stored and summarised`, async (t) => {
      const { id, origin } = await newSite("light", variant);
      if (!(await needs(t, `/api/websites/${id}/events/summary?timeRange=24h`))) return;
      const { context } = await newContext(browser);
      const page = await context.newPage();
      await page.goto(`${origin}/index.html`);
      await page.click("#signup-cta");
      await page.click("#buy");
      const summary = await until("the event summary", async () => {
        const s = await api.get(`/api/websites/${id}/events/summary?timeRange=24h`);
        return s.conversionEvents >= 1 && s.topEvents.length >= 2 ? s : [s];
      });
      assert.equal(summary.conversionEvents, 1);
      const counts = Object.fromEntries(summary.topEvents.map((e) => [e.name, e.count]));
      assert.equal(counts.newsletter_signup, 1);
      assert.equal(counts.purchase, 1);
      assert.ok(summary.totalEvents >= 2 && summary.uniqueEvents >= 2, JSON.stringify(summary));
      assert.equal((await overview(id)).metrics.conversions, 1);
      await t.test("the conversion listed with its value (spec part 1 §7)", async (st) => {
        if (!(await needs(st, `/api/websites/${id}/conversions`))) return;
        const conv = await api.get(`/api/websites/${id}/conversions`);
        assert.deepEqual(
          conv.conversions.map((c) => [c.goalName, c.value]),
          [["purchase", 49.9]],
        );
      });
      await context.close();
    });
  }
});

describe("tracking levels", () => {
  /** Clicks the newsletter button and scrolls to the bottom of the demo home page. */
  async function clickAndScroll(page) {
    const box = await page.locator("#signup-cta").boundingBox();
    await page.click("#signup-cta");
    await page.mouse.wheel(0, 5000);
    await until("the bottom of the page", () => page.evaluate(() => scrollY + innerHeight >= document.documentElement.scrollHeight - 2));
    return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  }

  test("enhanced: a click with coordinates and a scroll depth stored", async (t) => {
    const { id, origin } = await newSite("enhanced");
    if (!(await needs(t, `/api/analytics/urls?website_id=${id}`))) return;
    const { context, requests } = await newContext(browser);
    const page = await context.newPage();
    await page.goto(`${origin}/index.html`);
    const at = await clickAndScroll(page);
    const url = await until("the page among the heatmap URLs", async () => {
      const urls = await api.get(`/api/analytics/urls?website_id=${id}`);
      return urls.find((u) => u.includes("/index.html")) || urls;
    });
    const q = `/api/analytics/heatmap?website_id=${id}&url=${encodeURIComponent(url)}&time_range=7d`;
    const heat = await until("the click and the scroll depth", async () => {
      const h = await api.get(q);
      return h.clicks.length && h.scrollDepth.some((d) => d.depth >= 100 && d.visitors >= 1) ? h : [h];
    });
    // The server bins clicks into a 10 px grid.
    const click = heat.clicks.find((c) => Math.abs(c.x - at.x) <= 10 && Math.abs(c.y - at.y) <= 10);
    assert.ok(click, `a click at ${at.x},${at.y} in ${JSON.stringify(heat.clicks)}`);
    assert.equal(click.count, 1);
    assert.ok(requests.some((u) => u.endsWith("/tracking/recorder.js")), "the recorder is loaded on an enhanced site");
    await context.close();
  });

  test("light: neither clicks nor scroll depth, and the recorder never requested", async (t) => {
    const { id, origin } = await newSite("light");
    if (!(await needs(t, `/api/analytics/urls?website_id=${id}`))) return;
    const { context, requests } = await newContext(browser);
    const page = await context.newPage();
    await page.goto(`${origin}/index.html`);
    await clickAndScroll(page);
    await page.goto(`${origin}/about.html`); // would flush interactions on pagehide
    await until("both page views", async () => (await overview(id)).metrics.pageViews == 2);
    for (const url of await api.get(`/api/analytics/urls?website_id=${id}`)) {
      const h = await api.get(`/api/analytics/heatmap?website_id=${id}&url=${encodeURIComponent(url)}&time_range=7d`);
      assert.deepEqual(h.clicks, [], url);
      assert.ok(h.scrollDepth.every((d) => !d.visitors), JSON.stringify(h.scrollDepth));
    }
    assert.deepEqual(
      requests.filter((u) => /\/tracking\/(enhanced|recorder)\.js|\/api\/(interactions|replay)/.test(u)),
      [],
    );
    await context.close();
  });
});

/** Every text in the data folder's files, including what gzip members in them decompress to. */
function storedText(dir) {
  const texts = [];
  for (const f of readdirSync(dir, { recursive: true })) {
    let buf;
    try {
      buf = readFileSync(join(dir, f));
    } catch {
      continue;
    }
    texts.push(buf.toString("latin1"));
    for (let i = buf.indexOf("\x1f\x8b\x08", 0, "latin1"); i >= 0; i = buf.indexOf("\x1f\x8b\x08", i + 1, "latin1")) {
      try {
        texts.push(gunzipSync(buf.subarray(i), { finishFlush: zlib.Z_SYNC_FLUSH }).toString("latin1"));
      } catch {
        // not a gzip member, or cut by a page boundary
      }
    }
  }
  return texts.join("\n");
}

describe("session recording", () => {
  test("a short recorded session is stored, replays the pages, and never holds typed secrets", async (t) => {
    const { id, origin } = await newSite("enhanced");
    if (!(await needs(t, `/api/websites/${id}/session-replays?limit=100`))) return;
    const { context } = await newContext(browser);
    const page = await context.newPage();
    await page.goto(`${origin}/index.html`);
    const sid = await sessionOf(page);
    await page.waitForFunction(() => window.tracker._.r); // recording
    await page.goto(`${origin}/form.html`);
    await page.waitForFunction(() => window.tracker._.r);
    await page.fill("#email", "jane.secret@example.com");
    await page.fill("#password", "hunter2-very-secret");
    await page.fill("#company", "Initech Hidden Corp");
    await page.click("#submit");
    await page.waitForURL(`${origin}/thanks.html`);
    const replay = await until("the session's replay", async () => {
      const list = await api.get(`/api/websites/${id}/session-replays?limit=100`);
      return list.find((r) => r.sessionId == sid) || list;
    });
    assert.equal(replay.screenResolution, "1280x720");
    const { events } = await until("the recording of all three pages", async () => {
      const { events } = await api.get(`/api/replays/${replay.id}/events`);
      const pages = events.filter((e) => e.type == 4).map((e) => new URL(e.data.href).pathname);
      return ["/index.html", "/form.html", "/thanks.html"].every((p) => pages.includes(p)) ? { events } : pages;
    }, { timeout: 20000 });
    const formAt = events.find((e) => e.type == 4 && e.data.href.endsWith("/form.html")).timestamp;
    const thanksAt = events.find((e) => e.type == 4 && e.data.href.endsWith("/thanks.html")).timestamp;
    const start = events[0].timestamp;
    // Replayed in the dashboard's player: the form page just before leaving it, then the thanks page.
    const formText = await replayText(browser, events, thanksAt - start - 1);
    assert.match(formText, /Create your Acme account/);
    assert.match(await replayText(browser, events), /Thanks for signing up/);
    assert.ok(formAt < thanksAt);
    const secrets = ["jane.secret", "hunter2", "Initech", "4711-0815"];
    const served = JSON.stringify(events);
    for (const s of secrets) assert.ok(!served.includes(s), `${s} in the replay events`);
    const stored = storedText(daemon.dataDir);
    for (const s of secrets) assert.ok(!stored.includes(s), `${s} in the data folder`);
    await context.close();
  });
});

describe("privacy", () => {
  test("Do-Not-Track and Global Privacy Control honoured when the site respects them", async (t) => {
    const site = await newSite("enhanced", "personal", { respectDoNotTrack: true }, t);
    if (!site) return;
    const { id, origin } = site;
    for (const opts of [{ dnt: true }, { gpc: true }]) {
      const { context, requests } = await newContext(browser, opts);
      const page = await context.newPage();
      await page.goto(`${origin}/index.html`);
      await page.waitForFunction(() => window.tracker);
      await page.click("#buy");
      assert.ok(!requests.some((u) => u.startsWith(daemon.url + "/api/")), JSON.stringify(opts));
      await context.close();
    }
    // A visitor without DNT is counted; the two before were not.
    const { context } = await newContext(browser);
    await (await context.newPage()).goto(`${origin}/index.html`);
    await until("the one page view", async () => (await overview(id)).metrics.pageViews >= 1);
    assert.equal((await overview(id)).metrics.pageViews, 1);
    await context.close();
  });

  test("consent decisions logged; before consent only anonymous page views", async (t) => {
    const site = await newSite("enhanced", "personal", { cookieConsent: true }, t);
    if (!site || !(await needs(t, `/api/privacy/consent-logs?website_id=${site.id}`))) return;
    const { id, origin } = site;
    const { context, requests } = await newContext(browser);
    const page = await context.newPage();
    await page.goto(`${origin}/index.html`);
    const sid = await sessionOf(page);
    await page.click("#buy"); // before consent: not sent
    assert.ok(!requests.some((u) => u.endsWith("/tracking/recorder.js")), "no recorder before consent");
    await page.click("#consent-accept");
    await page.click("#buy");
    await page.click("#consent-decline");
    const { logs } = await until("two consent logs", async () => {
      const logs = await api.get(`/api/privacy/consent-logs?website_id=${id}`);
      return logs.length >= 2 ? { logs } : logs;
    });
    const byType = Object.fromEntries(logs.map((l) => [l.consentType, l]));
    assert.deepEqual(byType.accepted.consentData, { analytics: true, marketing: true });
    assert.deepEqual(byType.declined.consentData, { analytics: false, marketing: false });
    for (const l of logs) {
      assert.equal(l.sessionId, sid);
      assert.ok(!Number.isNaN(Date.parse(l.timestamp)));
      assert.ok(!l.ipAddress || /(\.0|::)$/.test(l.ipAddress), `anonymised IP: ${l.ipAddress}`);
    }
    // Only the purchase made after consent counts.
    await until("the conversion", async () => (await overview(id)).metrics.conversions >= 1);
    assert.equal((await overview(id)).metrics.conversions, 1);
    const summary = await api.get(`/api/websites/${id}/events/summary?timeRange=24h`);
    assert.equal(summary.conversionEvents, 1, JSON.stringify(summary));
    await context.close();
  });
});
