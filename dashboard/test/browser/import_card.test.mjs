// Settings > Import in headless Chromium against the real daemon: a GoatCounter export chosen in the card
// uploads with a progress bar (the upload throttled so the bar is seen part way), then the report shows its
// rows and days and the site's dashboard counts them; the wrong tool's file shows the importer's message.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { launchBrowser, screenshot, startDaemon, waitForText } from "./helpers.mjs";
import { ownerWithSites } from "./site-owner.mjs";

const HEADER = "2Path,Title,Event,UserAgent,Browser,System,Session,Bot,Referrer,Referrer scheme,Screen size,Location,FirstVisit,Date\n";

/** A GoatCounter export (format 2, as exportcsv.go writes it) of `rows` page views over yesterday and today. */
function goatcounterExport(rows) {
  const lines = [HEADER];
  const start = Date.now() - 86_400_000;
  for (let i = 0; i < rows; i++) {
    const at = new Date(start + Math.floor((i / rows) * 86_000_000)).toISOString().slice(0, 19) + "Z";
    lines.push(`/page-${i % 50},A page of the site with a long enough title,false,,Firefox 133,Linux,s-${i % 700},0,,,"1920,1080,1",DE,true,${at}\n`);
  }
  return Buffer.from(lines.join(""));
}

describe("the Import card", () => {
  let daemon, browser, context, page;

  before(async () => {
    daemon = await startDaemon();
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1400, height: 900 }, baseURL: daemon.url });
    page = await context.newPage();
    page.on("pageerror", (e) => console.error("page error:", e));
  });

  after(async () => {
    await browser?.close();
    await daemon?.stop();
  });

  it("uploads with a progress bar, reports the import, and the dashboard counts it", async () => {
    const owner = await ownerWithSites(page, daemon.url, "import-card@example.com", [
      { name: "First", domain: "first.example.com", trackingLevel: "light" },
      { name: "Moved", domain: "moved.example.com", trackingLevel: "light" },
    ]);
    const moved = owner.sites[1];
    await page.goto("/settings?tab=import");
    await page.locator("#import-site").selectOption(String(moved.id));
    await page.locator("#import-tool").selectOption("goatcounter");
    const file = goatcounterExport(8_000);
    await page.locator("#import-file").setInputFiles({ name: "goatcounter-export.csv", mimeType: "text/csv", buffer: file });

    // About 1 MB at 256 KB/s: the bar is seen part way.
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 256 * 1024 });
    await page.getByRole("button", { name: "Import" }).click();
    const bar = page.getByRole("progressbar", { name: "Upload" });
    await page.waitForFunction(() => {
      const now = Number(document.querySelector("[role=progressbar]")?.getAttribute("aria-valuenow"));
      return now > 0 && now < 100;
    });
    const partWay = Number(await bar.getAttribute("aria-valuenow"));
    assert.ok(partWay > 0 && partWay < 100, `part way: ${partWay}`);
    await screenshot(page, "import-card-uploading");
    const report = page.getByTestId("import-report");
    await report.waitFor({ timeout: 60_000 });
    await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    await waitForText(report, /Imported goatcounter-export\.csv/);
    await waitForText(report, /Rows imported\s*8,000/);
    assert.equal(await bar.count(), 0, "the bar goes when the import is done");
    await screenshot(page, "import-card-report");

    const overview = await owner.api("GET", `/api/dashboard/overview?website_id=${moved.id}&range=7d`);
    assert.equal(overview.metrics.pageViews, 8_000);
    const first = await owner.api("GET", `/api/dashboard/overview?website_id=${owner.sites[0].id}&range=7d`);
    assert.equal(first.metrics.pageViews, 0, "only the chosen site");
  });

  it("shows the importer's message for the wrong tool's file", async () => {
    await page.goto("/settings?tab=import");
    await page.locator("#import-tool").selectOption("umami");
    await page.locator("#import-file").setInputFiles({ name: "export.csv", mimeType: "text/csv", buffer: goatcounterExport(3) });
    await page.getByRole("button", { name: "Import" }).click();
    await waitForText(page.getByRole("alert"), /is not a Umami export: missing column/);
    assert.equal(await page.getByTestId("import-report").count(), 0);
  });
});
