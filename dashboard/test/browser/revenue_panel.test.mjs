// The Revenue panel of the Analytics Dashboard's Conversions tab in Chromium against the real daemon: sums per
// source and currency, per goal in its tab, a row filtering the screen (the URL holds the filter, the panel
// follows), 390 px.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { launchBrowser, screenshot, startDaemon, waitForText } from "./helpers.mjs";
import { overflowsHorizontally, ownerWithSites, track } from "./site-owner.mjs";

const ORIGIN = "https://revenue.example.com";

describe("revenue panel", () => {
  let daemon, browser, context, page, site;

  /** Three visits from three addresses: from Google a purchase of 40 EUR; direct a purchase of 12.50 EUR and a
   * plan of 9 USD; direct, a purchase without a value. */
  async function seed() {
    const visits = [
      ["https://www.google.com/", [["purchase", { value: 40, currency: "EUR" }]]],
      ["", [["purchase", { value: 12.5, currency: "EUR" }], ["plan", { value: 9, currency: "USD" }]]],
      ["", [["purchase", {}]]],
    ];
    for (const [i, [referrer, conversions]] of visits.entries()) {
      const session_id = `revenue-visit-${i}`;
      const address = `198.51.100.${i + 1}`;
      await track(daemon.url, { tracking_key: site.trackingKey, session_id, url: `${ORIGIN}/shop`, referrer }, address);
      for (const [name, props] of conversions) {
        const body = { tracking_key: site.trackingKey, session_id, url: `${ORIGIN}/shop`, event: "conversion", event_name: name, event_properties: props };
        await track(daemon.url, body, address);
      }
    }
  }

  before(async () => {
    daemon = await startDaemon();
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1400, height: 900 }, baseURL: daemon.url });
    page = await context.newPage();
    page.on("pageerror", (e) => console.error("page error:", e));
    const owner = await ownerWithSites(page, daemon.url, "revenue-owner@example.com", [{ name: "Revenue", domain: "revenue.example.com", trackingLevel: "enhanced" }]);
    [site] = owner.sites;
    await seed();
  });

  after(async () => {
    await browser?.close();
    await daemon?.stop();
  });

  it("sums each source's conversions per currency, and each goal's in its tab", async () => {
    await page.goto(`/dashboard?website=${site.id}&tab=conversions&range=7d`);
    const panel = page.getByTestId("panel-revenue");
    await waitForText(panel.getByTestId("revenue-rows"), /Google\s*1 conversion\s*€40\.00\s*Direct\s*1 conversion\s*€12\.50\s*Direct\s*1 conversion\s*\$9\.00/);
    await panel.getByRole("button", { name: "By goal" }).click();
    await waitForText(panel.getByTestId("revenue-rows"), /purchase\s*2 conversions\s*€52\.50\s*plan\s*1 conversion\s*\$9\.00/);
    await screenshot(page, "revenue-panel-1400");
  });

  it("filters the screen by a row's goal, and the panel follows", async () => {
    const panel = page.getByTestId("panel-revenue");
    await panel.getByRole("button", { name: /Filter by .*plan/ }).click();
    await page.waitForURL(/filters=/);
    assert.deepEqual(JSON.parse(new URL(page.url()).searchParams.get("filters")), [["is", "event:goal", ["plan"]]]);
    await panel.getByRole("button", { name: "By source" }).click();
    await waitForText(panel.getByTestId("revenue-rows"), /^Direct\s*1 conversion\s*\$9\.00$/);
  });

  it("fits a 390 px column", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`/dashboard?website=${site.id}&tab=conversions&range=7d`);
    await page.getByTestId("revenue-rows").waitFor();
    assert.equal(await overflowsHorizontally(page), false);
    await screenshot(page, "revenue-panel-390");
  });
});
