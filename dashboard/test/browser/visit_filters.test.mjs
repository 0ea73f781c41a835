// Filters on the screens of whole visits in Chromium against the real daemon: with a filter chip set (from the
// URL, as a link or another screen leaves it), the Funnels, Customer Journeys, Session Replays and Advanced
// Analytics screens show the figures of the visits the filter admits (numbers known by construction); removing the chip brings the
// whole site's back.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { gzipSync } from "node:zlib";
import { launchBrowser, screenshot, startDaemon, waitForText } from "./helpers.mjs";
import { VISITOR_UA, ownerWithSites, track } from "./site-owner.mjs";

const ORIGIN = "https://shop.example.com";
/** Only the visit from Google: `visit:referrer` is google.com. */
const GOOGLE = JSON.stringify([["is", "visit:referrer", ["google.com"]]]);

describe("filters on funnels, journeys, replays and advanced analytics", () => {
  let daemon, browser, page, site;

  /** Three visits from addresses of their own, each recorded:
   *  "google-visit" from google.com: / then /pricing;  "direct-visit": / then /pricing;  "blog-visit": /blog.
   *  So the funnel / → /pricing counts 2 then 2, the Google visit alone 1 then 1. */
  async function seed() {
    const visits = [
      ["google-visit", "https://google.com/search?q=shop", ["/", "/pricing"], "198.51.100.11"],
      ["direct-visit", undefined, ["/", "/pricing"], "198.51.100.12"],
      ["blog-visit", undefined, ["/blog"], "198.51.100.13"],
    ];
    for (const [session, referrer, paths, address] of visits) {
      for (const path of paths) {
        await track(daemon.url, { tracking_key: site.trackingKey, session_id: session, url: `${ORIGIN}${path}`, referrer }, address);
      }
      const start = Date.now() - 30_000;
      const events = [
        { type: 4, data: { href: `${ORIGIN}${paths[0]}`, width: 1280, height: 720 }, timestamp: start },
        { type: 2, data: { node: { type: 0, id: 1, childNodes: [] }, initialOffset: { left: 0, top: 0 } }, timestamp: start + 1 },
      ];
      const res = await fetch(`${daemon.url}/api/replay?tracking_key=${site.trackingKey}&session_id=${session}&seq=0`, {
        method: "POST",
        headers: { "Content-Type": "application/octet-stream", "User-Agent": VISITOR_UA, "X-Forwarded-For": address },
        body: gzipSync(JSON.stringify(events)),
      });
      if (res.status !== 202) throw new Error(`replay: ${res.status} ${await res.text()}`);
    }
  }

  before(async () => {
    daemon = await startDaemon();
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, baseURL: daemon.url });
    page = await context.newPage();
    page.on("pageerror", (e) => console.error("page error:", e));
    const owner = await ownerWithSites(page, daemon.url, "visit-filters@example.com", [
      { name: "Shop", domain: "shop.example.com", trackingLevel: "enhanced" },
    ]);
    [site] = owner.sites;
    await seed();
    await owner.api("POST", "/api/funnels", {
      name: "Pricing",
      websiteId: site.id,
      steps: [
        { name: "Home", url: "/" },
        { name: "Pricing", url: "/pricing" },
      ],
    });
  });

  after(async () => {
    await browser?.close();
    await daemon?.stop();
  });

  const filtered = (path) => `${path}${path.includes("?") ? "&" : "?"}filters=${encodeURIComponent(GOOGLE)}`;

  it("the Funnels screen counts the visits the chip admits, and all of them once it is removed", async () => {
    await page.goto(filtered(`/funnels?range=7d`));
    const chip = page.getByTestId("filter-chip");
    await waitForText(chip, /google\.com/);
    const funnel = page.getByTestId("funnel").filter({ hasText: "Pricing" });
    await waitForText(funnel.getByTestId("funnel-total-visitors"), /^1$/);
    assert.deepEqual(await funnel.getByTestId("step-visitors").allTextContents(), ["1", "1"]);
    await screenshot(page, "visit-filters-01-funnel-filtered-1400");

    await page.getByRole("button", { name: /Remove filter/ }).click();
    await page.waitForURL((url) => !url.searchParams.has("filters"));
    await waitForText(funnel.getByTestId("funnel-total-visitors"), /^2$/);
    assert.deepEqual(await funnel.getByTestId("step-visitors").allTextContents(), ["2", "2"]);
  });

  it("the Customer Journeys screen lists and counts the visits the chip admits", async () => {
    await page.goto(filtered(`/customer-journeys?website=${site.id}`));
    await waitForText(page.getByTestId("filter-chip"), /google\.com/);
    const card = page.getByTestId("metric-Total Journeys").getByTestId("metric-value");
    await waitForText(card, /^1$/);
    await waitForText(page.getByTestId("journey-paths"), /\/pricing/);
    assert.equal(await page.getByTestId("journey-row").count(), 1);
    assert.doesNotMatch(await page.getByTestId("journey-paths").textContent(), /\/blog/);

    await page.getByRole("button", { name: /Remove filter/ }).click();
    await waitForText(card, /^3$/);
    await waitForText(page.getByTestId("journey-paths"), /\/blog/);
    assert.equal(await page.getByTestId("journey-row").count(), 3);
  });

  it("the Session Replays screen lists and counts the recordings of the visits the chip admits", async () => {
    await page.goto(filtered(`/session-replays?website=${site.id}&range=24h`));
    await waitForText(page.getByTestId("filter-chip"), /google\.com/);
    const total = page.getByTestId("metric-Total Replays").getByTestId("metric-value");
    await waitForText(total, /^1$/);
    const rows = page.getByTestId("replay-row");
    await rows.first().waitFor();
    assert.deepEqual(await rows.evaluateAll((r) => r.map((row) => row.dataset.session)), ["google-visit"]);
    await screenshot(page, "visit-filters-02-replays-filtered-1400");

    await page.getByRole("button", { name: /Remove filter/ }).click();
    await waitForText(total, /^3$/);
    assert.deepEqual((await rows.evaluateAll((r) => r.map((row) => row.dataset.session))).sort(), ["blog-visit", "direct-visit", "google-visit"]);
  });

  it("the Advanced Analytics screen's cards, top pages and intent scores follow the chip", async () => {
    await page.goto(filtered(`/advanced-analytics?website=${site.id}&range=7d`));
    await waitForText(page.getByTestId("filter-chip"), /google\.com/);
    const visitors = page.getByTestId("metric-Total Visitors").getByTestId("metric-value");
    await waitForText(visitors, /^1$/);
    const pages = page.getByTestId("top-page");
    await waitForText(pages.first(), /\/pricing|\//);
    assert.equal(await pages.count(), 2);
    assert.doesNotMatch(await page.getByTestId("top-pages-card").textContent(), /\/blog/);
    await screenshot(page, "visit-filters-03-advanced-filtered-1400");

    await page.getByRole("tab", { name: "AI Intent" }).click();
    const analyzed = page.getByTestId("intent-stat-Visits Analyzed").getByTestId("intent-stat-value");
    await waitForText(analyzed, /^1$/);

    await page.getByRole("button", { name: /Remove filter/ }).click();
    await page.waitForURL((url) => !url.searchParams.has("filters"));
    await waitForText(analyzed, /^3$/);
    await page.getByRole("tab", { name: "Overview" }).click();
    await waitForText(visitors, /^3$/);
    await waitForText(page.getByTestId("top-pages-card"), /\/blog/);
  });
});
