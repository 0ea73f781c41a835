// Advanced Analytics in headless Chromium against the real daemon: visits seeded through POST /api/track (the
// real ingest path, explicit timestamps and client addresses), then the summary cards, the Overview tab, the
// AI intent panel (patterns, high-intent visitors, the detail card, recommendations) and the empty states, at
// 1400 px and 390 px. Screens are saved to tests/screenshots/.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { launchBrowser, screenshot, startDaemon, waitForText } from "./helpers.mjs";

const UA = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const logPageError = (e) => console.error("page error:", e);

async function call(base, method, path, token, body) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  assert.ok(res.ok, `${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

async function hit(base, ip, body) {
  const res = await fetch(`${base}/api/track`, {
    method: "POST",
    headers: { "content-type": "text/plain", "user-agent": UA, "x-forwarded-for": ip },
    body: JSON.stringify(body),
  });
  assert.equal(res.status, 202, await res.text());
}

/** 40 finished visits of the last hours: engaged ones (/pricing, minutes, from search) convert, others not. */
async function seedVisits(base, key) {
  const now = Date.now();
  const visits = [];
  for (let i = 0; i < 40; i++) {
    const start = now - 6 * 3_600_000 + i * 60_000;
    const engaged = i % 4 === 0;
    const bounce = i % 4 === 3;
    const pages = engaged ? [["/", 0], ["/features", 60], ["/pricing", 150]] : bounce ? [["/blog/post", 0]] : [["/", 0], ["/blog/post", 40]];
    visits.push({ session: `browser-visit-${String(i).padStart(3, "0")}`, ip: `198.51.100.${i + 1}`, start, pages, engaged, convert: engaged && i % 8 === 0 });
  }
  await Promise.all(
    visits.map(async (v) => {
      for (const [i, [path, at]] of v.pages.entries()) {
        await hit(base, v.ip, {
          tracking_key: key,
          session_id: v.session,
          url: `https://shop.example.com${path}`,
          referrer: i === 0 && v.engaged ? "https://www.google.com/" : undefined,
          timestamp: v.start + at * 1000,
        });
      }
      if (v.engaged) {
        await hit(base, v.ip, {
          tracking_key: key, session_id: v.session, url: "https://shop.example.com/features",
          event: "custom", event_name: "video_play", timestamp: v.start + 90_000,
        });
      }
      if (v.convert) {
        await hit(base, v.ip, {
          tracking_key: key, session_id: v.session, url: "https://shop.example.com/thank-you",
          event: "conversion", event_name: "purchase", event_properties: { value: 49 }, timestamp: v.start + 200_000,
        });
      }
    }),
  );
  return visits;
}

describe("advanced analytics in a browser", () => {
  let daemon, browser, context, page, token, site, emptySite, advanced, intent;

  before(async () => {
    daemon = await startDaemon();
    const signup = await call(daemon.url, "POST", "/api/register", null, { email: `adv-${Date.now()}@example.com`, password: "correct-horse" });
    token = signup.accessToken;
    site = await call(daemon.url, "POST", "/api/websites", token, { name: "Shop", domain: "shop.example.com", trackingLevel: "professional" });
    emptySite = await call(daemon.url, "POST", "/api/websites", token, { name: "Quiet", domain: "quiet.example.com", trackingLevel: "light" });
    await seedVisits(daemon.url, site.trackingKey);
    // What the server answers is what the screen must show.
    advanced = await call(daemon.url, "GET", `/api/analytics/advanced?website_id=${site.id}&time_range=1d`, token);
    intent = await call(daemon.url, "GET", `/api/analytics/ai-intent?website_id=${site.id}&time_range=24h`, token);
    assert.equal(advanced.totalVisitors, 40);
    assert.ok(intent.summary.highIntent > 0, JSON.stringify(intent.summary));
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1400, height: 900 }, baseURL: daemon.url });
    await context.addInitScript(([access, refresh]) => {
      if (!localStorage.getItem("accessToken")) {
        localStorage.setItem("accessToken", access);
        localStorage.setItem("refreshToken", refresh);
      }
    }, [signup.accessToken, signup.refreshToken]);
    page = await context.newPage();
    page.on("pageerror", logPageError);
  });

  after(async () => {
    await browser?.close();
    await daemon?.stop();
  });

  it("shows the seeded figures in the cards and the Overview tab", async () => {
    await page.goto(`/advanced-analytics?website=${site.id}&range=1d`);
    await page.getByRole("heading", { name: "Advanced Analytics" }).waitFor();
    await waitForText(page.getByTestId("metric-Total Visitors").getByTestId("metric-value"), "40");
    await waitForText(page.getByTestId("metric-High Intent").getByTestId("metric-value"), String(advanced.highIntentVisitors));
    await waitForText(page.getByTestId("metric-Conversion Rate").getByTestId("metric-value"), `${advanced.conversionRate.toFixed(1)}%`);
    await waitForText(page.getByTestId("metric-Avg Session").getByTestId("metric-value"), `${Math.round(advanced.averageSessionDuration / 60)}m`);
    for (const name of ["Overview", "AI Intent", "Heatmaps", "Privacy"]) await page.getByRole("tab", { name }).waitFor();
    assert.equal(await page.getByRole("tab", { name: "Overview" }).getAttribute("aria-selected"), "true");
    await page.getByTestId("pulse-dot").waitFor();
    await waitForText(page.getByTestId("rt-conversions"), String(advanced.realTimeMetrics.conversions));
    const pages = page.getByTestId("top-page");
    assert.equal(await pages.count(), advanced.topPages.length);
    await waitForText(pages.first(), `${advanced.topPages[0].url}`);
    await waitForText(pages.first(), `${advanced.topPages[0].views} views`);
    const pricing = advanced.topPages.find((p) => p.url === "/pricing");
    await waitForText(pages.filter({ hasText: "/pricing" }), `${pricing.conversionRate.toFixed(1)}%`);
    const search = advanced.visitorSegments.find((s) => s.segment === "Search");
    assert.equal(search.count, 10);
    await waitForText(page.getByTestId("segment").filter({ hasText: "Search" }), `${search.conversionRate.toFixed(1)}%`);
    await waitForText(page.getByTestId("perf-Bounce Rate"), `${advanced.bounceRate.toFixed(1)}%`);
    await screenshot(page, "advanced-01-overview");
  });

  it("switches tabs from Quick Actions and keeps the tab in the URL", async () => {
    await page.getByRole("button", { name: "Privacy Settings" }).click();
    await page.waitForURL(/tab=privacy/);
    await page.getByRole("button", { name: "Analyze Heatmaps" }).waitFor({ state: "detached" });
    await page.getByRole("tab", { name: "Overview" }).click();
    await page.getByRole("button", { name: "View AI Intent Analysis" }).click();
    await page.waitForURL(/tab=ai-intent/);
  });

  it("shows intent patterns, high-intent visitors with their detail card, and recommendations", async () => {
    await page.getByTestId("intent-panel").waitFor();
    const ready = intent.patterns.find((p) => p.pattern === "ready_to_convert");
    await waitForText(page.getByTestId("pattern-ready_to_convert").getByTestId("pattern-count"), String(ready.count));
    await waitForText(page.getByTestId("intent-stat-Visits Analyzed").getByTestId("intent-stat-value"), "40");
    await page.getByTestId("pattern-window_shopping").waitFor();
    await screenshot(page, "advanced-02-intent-patterns");

    await page.getByRole("tab", { name: "High-Intent Visitors" }).click();
    const rows = page.getByTestId("high-intent-row");
    await rows.first().waitFor();
    const expected = intent.topIntentSessions.filter((s) => s.intentScore >= 60).slice(0, 10);
    assert.equal(await rows.count(), expected.length);
    await waitForText(rows.first(), expected[0].sessionId.slice(0, 8));
    await rows.first().click();
    const detail = page.getByTestId("visitor-detail");
    await waitForText(detail, `Visitor ${expected[0].sessionId.slice(0, 16)}`);
    await waitForText(detail, expected[0].raisedBy[0].label);
    await screenshot(page, "advanced-03-visitor-detail");
    await detail.getByRole("button", { name: "Close Details" }).click();
    await detail.waitFor({ state: "detached" });

    await page.getByRole("tab", { name: "AI Recommendations" }).click();
    for (const r of intent.recommendations) {
      const card = page.getByTestId(`recommendation-${r.id}`);
      await waitForText(card, r.title);
      await waitForText(card, r.evidence[0].value);
    }
    await screenshot(page, "advanced-04-recommendations");
  });

  it("says when a site has no intent data", async () => {
    await page.goto(`/advanced-analytics?website=${emptySite.id}&tab=ai-intent`);
    await page.getByText("No intent data available").waitFor();
  });

  it("works at 390 px without horizontal overflow", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`/advanced-analytics?website=${site.id}&range=1d`);
    await waitForText(page.getByTestId("metric-Total Visitors").getByTestId("metric-value"), "40");
    await page.getByTestId("segments-card").waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 0, `page overflows by ${overflow}px`);
    await screenshot(page, "advanced-05-overview-390");
    await page.setViewportSize({ width: 1400, height: 900 });
  });

  it("shows the no-website states to a user without websites", async () => {
    const other = await call(daemon.url, "POST", "/api/register", null, { email: `empty-${Date.now()}@example.com`, password: "correct-horse" });
    const fresh = await browser.newContext({ viewport: { width: 1400, height: 900 }, baseURL: daemon.url });
    await fresh.addInitScript(([access, refresh]) => {
      localStorage.setItem("accessToken", access);
      localStorage.setItem("refreshToken", refresh);
    }, [other.accessToken, other.refreshToken]);
    const p = await fresh.newPage();
    p.on("pageerror", logPageError);
    await p.goto("/advanced-analytics?tab=ai-intent");
    await p.getByText("No Website Selected").waitFor();
    await p.getByText("Please select a website to view AI intent analysis").waitFor();
    await screenshot(p, "advanced-06-no-website");
    await p.getByRole("tab", { name: "Heatmaps" }).click();
    await p.getByText("Please select a website to view heatmap analytics").waitFor();
    await p.getByRole("tab", { name: "Privacy" }).click();
    await p.getByText("Please select a website to view privacy controls").waitFor();
    await fresh.close();
  });
});
