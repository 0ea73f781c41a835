// Comparison in Chromium against the real daemon: choosing "Previous period" puts `compare=` in the URL, the
// chart overlays the earlier period point for point, the panels' rows carry their change ("new": nothing came
// before), the choice survives a reload, "Year over year" renames the cards' captions, and the picker fits 390 px.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { launchBrowser, screenshot, startDaemon, waitForText } from "./helpers.mjs";
import { overflowsHorizontally, ownerWithSites, track } from "./site-owner.mjs";

describe("comparison", () => {
  let daemon, browser, page, site;

  before(async () => {
    daemon = await startDaemon();
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, baseURL: daemon.url });
    page = await context.newPage();
    page.on("pageerror", (e) => console.error("page error:", e));
    const owner = await ownerWithSites(page, daemon.url, "compare-owner@example.com", [{ name: "Compare", domain: "compare.example.com", trackingLevel: "enhanced" }]);
    [site] = owner.sites;
    for (let i = 0; i < 3; i++) {
      await track(daemon.url, { tracking_key: site.trackingKey, session_id: `compare-visit-${i}`, url: "https://compare.example.com/", referrer: "https://news.ycombinator.com/" }, `198.51.100.${i + 1}`);
    }
  });

  after(async () => {
    await browser?.close();
    await daemon?.stop();
  });

  it("overlays the previous period on the chart and marks each row's change", async () => {
    await page.goto(`/?website=${site.id}&range=7d`);
    const chart = page.getByTestId("traffic-chart");
    await chart.waitFor();
    assert.equal(await chart.getAttribute("data-compared"), "0");
    await page.getByTestId("compare-picker").click();
    await page.getByRole("menuitem", { name: "Previous period" }).click();
    await page.waitForURL((u) => u.searchParams.get("compare") === "previous_period");
    await page.waitForFunction(() => document.querySelector('[data-testid="traffic-chart"]')?.getAttribute("data-compared") === "7");
    assert.equal(await chart.getAttribute("data-points"), "7", "as many earlier points as the chart's");
    await waitForText(page.getByTestId("chart-card"), /dashed: the period before/);
    await waitForText(page.getByTestId("referrers").getByTestId("row-change").first(), /^new$/);
    await screenshot(page, "compare-previous-1400");

    await page.reload();
    await page.waitForFunction(() => document.querySelector('[data-testid="traffic-chart"]')?.getAttribute("data-compared") === "7");
    await waitForText(page.getByTestId("compare-picker"), /vs previous period/);
  });

  it("names a year earlier in the cards, and turns off", async () => {
    await page.getByTestId("compare-picker").click();
    await page.getByRole("menuitem", { name: "Year over year" }).click();
    await page.waitForURL((u) => u.searchParams.get("compare") === "year_over_year");
    await waitForText(page.getByTestId("metric-Total Visitors"), /New vs a year earlier/);
    await page.getByTestId("compare-picker").click();
    await page.getByRole("menuitem", { name: "No comparison" }).click();
    await page.waitForURL((u) => !u.searchParams.has("compare"));
    await page.waitForFunction(() => document.querySelector('[data-testid="traffic-chart"]')?.getAttribute("data-compared") === "0");
    assert.equal(await page.getByTestId("row-change").count(), 0);
  });

  it("marks the Analytics Dashboard's panels too, and fits 390 px", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`/dashboard?website=${site.id}&tab=overview&range=7d&compare=previous_period`);
    await waitForText(page.getByTestId("referrers").getByTestId("row-change").first(), /^new$/);
    assert.equal(await overflowsHorizontally(page), false);
    await screenshot(page, "compare-390");
  });
});
