// Every panel of the Analytics Dashboard in Chromium against the real daemon: a panel's tabs (screen sizes beside
// devices, a browser's versions once a browser is chosen), its Details (every row, searched, sorted, a row
// filtering the screen) and the CSV of what Details shows, read back from the downloaded file; 390 px.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { launchBrowser, screenshot, startDaemon, waitForText } from "./helpers.mjs";
import { overflowsHorizontally, ownerWithSites, track } from "./site-owner.mjs";

const ORIGIN = "https://panels.example.com";

describe("breakdown panels", () => {
  let daemon, browser, context, page, site;

  /** Five visits from five addresses: three on a 1920x1080 screen, two on 390x844, one of them from a page
   * whose path a spreadsheet would read as a formula. */
  async function seed() {
    const visits = [
      ["1920x1080", "/"],
      ["1920x1080", "/"],
      ["1920x1080", "/pricing"],
      ["390x844", "/"],
      ["390x844", "/=cmd"],
    ];
    for (const [i, [screen, path]] of visits.entries()) {
      await track(daemon.url, { tracking_key: site.trackingKey, session_id: `panel-visit-${i}`, url: `${ORIGIN}${path}`, screen }, `198.51.100.${i + 1}`);
    }
  }

  before(async () => {
    daemon = await startDaemon();
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1400, height: 900 }, baseURL: daemon.url, acceptDownloads: true });
    page = await context.newPage();
    page.on("pageerror", (e) => console.error("page error:", e));
    const owner = await ownerWithSites(page, daemon.url, "panels-owner@example.com", [{ name: "Panels", domain: "panels.example.com", trackingLevel: "enhanced" }]);
    [site] = owner.sites;
    await seed();
  });

  after(async () => {
    await browser?.close();
    await daemon?.stop();
  });

  it("shows screen sizes in the devices panel's second tab", async () => {
    await page.goto(`/dashboard?website=${site.id}&tab=visitors&range=7d`);
    const devices = page.getByTestId("panel-device");
    await devices.getByRole("button", { name: "Screens" }).click();
    await waitForText(devices.getByTestId("screen"), /1920x1080\s*3\s*390x844\s*2/);
    assert.equal(await devices.getByRole("button", { name: "Screens" }).getAttribute("aria-pressed"), "true");
    await screenshot(page, "panels-screens-1400");
  });

  it("opens every row in Details, searches and sorts them, and downloads them as CSV", async () => {
    const devices = page.getByTestId("panel-device");
    await devices.getByRole("button", { name: "Details of Screen Sizes" }).click();
    const details = page.getByTestId("breakdown-details");
    await waitForText(details.getByTestId("details-rows"), /1920x1080\s*3\s*390x844\s*2/);
    await page.getByLabel("Sort rows").selectOption("count-asc");
    await waitForText(details.getByTestId("details-rows"), /390x844\s*2\s*1920x1080\s*3/);
    await page.getByLabel("Search Screen Sizes").fill("390");
    await waitForText(details.getByTestId("details-rows"), /^390x844\s*2$/);
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download CSV" }).click()]);
    assert.equal(download.suggestedFilename(), "screen.csv");
    assert.equal(readFileSync(await download.path(), "utf8"), "Screen Sizes,visits\r\n390x844,2\r\n");

    // A row filters the screen as the panel's rows do, and closes the details.
    await details.getByRole("button", { name: /390x844/ }).click();
    await details.waitFor({ state: "detached" });
    await page.waitForURL(/filters=/);
    assert.deepEqual(JSON.parse(new URL(page.url()).searchParams.get("filters")), [["is", "visit:screen", ["390x844"]]]);
    await waitForText(page.getByTestId("metric-Total Visitors").getByTestId("metric-value"), /^2$/);
  });

  it("writes a page path a spreadsheet would run as text in the CSV", async () => {
    await page.goto(`/dashboard?website=${site.id}&tab=overview&range=7d`);
    const entry = page.getByTestId("panel-entry-page");
    await entry.getByRole("button", { name: "Details of Entry Pages" }).click();
    const details = page.getByTestId("breakdown-details");
    await waitForText(details.getByTestId("details-rows"), /\/=cmd/);
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download CSV" }).click()]);
    const lines = readFileSync(await download.path(), "utf8").trim().split("\r\n");
    assert.equal(lines[0], "Entry Pages,visits");
    assert.deepEqual(lines.slice(1).sort(), ["/,3", "/=cmd,1", "/pricing,1"]);
    await page.keyboard.press("Escape");
    await details.waitFor({ state: "detached" });
  });

  it("asks for a browser before its versions, then lists them", async () => {
    await page.goto(`/dashboard?website=${site.id}&tab=visitors&range=7d`);
    const browsers = page.getByTestId("panel-browser");
    await browsers.getByRole("button", { name: "Versions" }).click();
    await waitForText(browsers, /Filter by a browser to see its versions/);
    await browsers.getByRole("button", { name: "Browsers" }).click();
    await browsers.getByTestId("filter-row").first().click();
    await page.waitForURL(/filters=/);
    await browsers.getByRole("button", { name: "Versions" }).click();
    await waitForText(browsers.getByTestId("browser-version"), /^\d+\s*5$/);
  });

  it("fits a 390 px column with its tabs", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`/dashboard?website=${site.id}&tab=visitors&range=7d`);
    await page.getByTestId("panel-device").getByRole("button", { name: "Screens" }).waitFor();
    assert.equal(await overflowsHorizontally(page), false);
    await screenshot(page, "panels-390");
  });
});
