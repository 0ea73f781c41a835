// The range picker in Chromium against the real daemon: visits seeded today through the tracking API; Today
// shows today's figures and an hourly chart of 24 points; a past custom range chosen in the dialog (a start after
// the end refused there) puts from/to in the URL and reads 0; All time shows today's figures again and survives
// a reload; the Analytics Dashboard reads the same period; another site drops it; a period the daemon refuses
// shows its message; 390 px has no overflow.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { launchBrowser, screenshot, startDaemon, waitForText } from "./helpers.mjs";
import { overflowsHorizontally, ownerWithSites, track } from "./site-owner.mjs";

const ORIGIN = "https://shop.example.com";

describe("dashboard range picker", () => {
  let daemon, browser, page, site, other;

  const metric = (title) => page.getByTestId(`metric-${title}`).getByTestId("metric-value");
  const picker = () => page.getByTestId("range-picker");
  const urlParams = () => new URL(page.url()).searchParams;

  async function choose(label) {
    await picker().click();
    await page.getByRole("menuitem", { name: label }).click();
  }

  /** The cards read `visitors` and `views`. */
  async function cardsRead(visitors, views) {
    await waitForText(metric("Total Visitors"), new RegExp(`^${visitors}$`));
    await waitForText(metric("Page Views"), new RegExp(`^${views}$`));
  }

  before(async () => {
    daemon = await startDaemon();
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, baseURL: daemon.url });
    page = await context.newPage();
    page.on("pageerror", (e) => console.error("page error:", e));
    const owner = await ownerWithSites(page, daemon.url, "range-owner@example.com", [
      { name: "Shop", domain: "shop.example.com", trackingLevel: "enhanced" },
      { name: "Blog", domain: "blog.example.com", trackingLevel: "enhanced" },
    ]);
    [site, other] = owner.sites;
    // Today: 3 visitors (own addresses), 4 page views.
    const hits = [
      ["range-visit-1", "/", "198.51.100.1"],
      ["range-visit-1", "/pricing", "198.51.100.1"],
      ["range-visit-2", "/", "198.51.100.2"],
      ["range-visit-3", "/blog", "198.51.100.3"],
    ];
    for (const [session, path, address] of hits) {
      await track(daemon.url, { tracking_key: site.trackingKey, session_id: session, url: `${ORIGIN}${path}` }, address);
    }
  });

  after(async () => {
    await browser?.close();
    await daemon?.stop();
  });

  it("Today shows today's figures and a chart of 24 hourly points", async () => {
    await page.goto(`/?website=${site.id}`);
    await waitForText(picker(), "Last 30 days");
    await cardsRead(3, 4);
    await choose("Today");
    await page.waitForURL(/[?&]range=today/);
    await waitForText(picker(), "Today");
    await cardsRead(3, 4);
    await page.locator('[data-testid="traffic-chart"][data-points="24"]').waitFor();
    await waitForText(page.getByTestId("chart-card"), "per hour · Today");
    await waitForText(page.getByTestId("chart-totals"), "3 visitors · 4 page views");
    await waitForText(page.getByTestId("metric-Total Visitors").getByTestId("metric-caption"), "vs yesterday");
  });

  it("a past custom range from the dialog holds from/to in the URL and reads 0; a reversed one is refused", async () => {
    await choose("Custom range…");
    const dialog = page.getByRole("dialog", { name: "Custom range" });
    await dialog.getByLabel("From").fill("2020-01-10");
    await dialog.getByLabel("To").fill("2020-01-05");
    await dialog.getByRole("button", { name: "Apply" }).click();
    await waitForText(dialog.getByRole("alert"), "The start must not be after the end.");
    assert.equal(urlParams().get("from"), null, "a refused range does not reach the URL");
    await dialog.getByLabel("To").fill("2020-01-15");
    await dialog.getByRole("button", { name: "Apply" }).click();
    await dialog.waitFor({ state: "detached" });
    await page.waitForURL(/[?&]from=2020-01-10&to=2020-01-15/);
    assert.equal(urlParams().get("range"), null);
    await waitForText(picker(), "10 Jan – 15 Jan 2020");
    await cardsRead(0, 0);
    await page.locator('[data-testid="traffic-chart"][data-points="6"]').waitFor();
    await screenshot(page, "range-picker-custom");
  });

  it("All time shows today's figures again and a reload keeps it", async () => {
    await choose("All time");
    await page.waitForURL(/[?&]range=all/);
    assert.equal(urlParams().get("from"), null);
    await cardsRead(3, 4);
    await waitForText(page.getByTestId("metric-Page Views").getByTestId("metric-caption"), "Since the first data");
    await page.reload();
    await waitForText(picker(), "All time");
    await cardsRead(3, 4);
  });

  it("the Analytics Dashboard reads the same period, and another site drops it", async () => {
    await page.goto(`/dashboard?website=${site.id}&from=2020-01-10&to=2020-01-15`);
    await waitForText(picker(), "10 Jan – 15 Jan 2020");
    await waitForText(page.getByTestId("dashboard-period"), "10 Jan – 15 Jan 2020");
    await cardsRead(0, 0);
    await choose("Today");
    await page.waitForURL(/[?&]range=today/);
    await waitForText(page.getByTestId("dashboard-period"), "Today");
    await cardsRead(3, 4);
    await page.getByRole("combobox", { name: /website/i }).selectOption(String(other.id));
    await page.waitForURL(new RegExp(`[?&]website=${other.id}`));
    assert.equal(urlParams().get("range"), null);
    await waitForText(picker(), "Last 30 days");
  });

  it("a hand-edited period the daemon refuses shows its message, and the picker leads out", async () => {
    await page.goto(`/?website=${site.id}&range=fortnight`);
    await waitForText(picker(), "fortnight");
    await waitForText(page.getByRole("alert").first(), /Could not load this data\..*range must be one of/);
    await choose("Last 7 days");
    await page.waitForURL(/[?&]range=7d/);
    await cardsRead(3, 4);
    assert.equal(await page.getByRole("alert").count(), 0);
  });

  it("fits 390 px with the picker and its menu", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`/?website=${site.id}&range=28d`);
    await waitForText(picker(), "Last 28 days");
    await cardsRead(3, 4);
    assert.equal(await overflowsHorizontally(page), false);
    await picker().click();
    await page.getByRole("menuitem", { name: "Year to date" }).waitFor();
    assert.equal(await overflowsHorizontally(page), false);
    await screenshot(page, "range-picker-390");
    await page.keyboard.press("Escape");
  });
});
