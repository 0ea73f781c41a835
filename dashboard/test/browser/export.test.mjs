// The Export screen (/export) in Chromium against the real daemon: no website, the first website chosen,
// 'Exporting...' while a download runs, CSV and JSON files named '{type}-{websiteId}.{csv|json}' holding the
// rows sent through ingest, the filter bar's filters narrowing the files, the failure toast, and the layout at 390 px.
import { readFileSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { launchBrowser, screenshot, startDaemon, waitForText, waitForToast } from "./helpers.mjs";
import { overflowsHorizontally, ownerWithSites, track } from "./site-owner.mjs";

// Below 1024 px the shell's sidebar slides in from a menu button, so at 390 px the screen has the whole width.
describe("export screen", () => {
  let daemon, browser, context, page;

  before(async () => {
    daemon = await startDaemon();
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1400, height: 900 }, baseURL: daemon.url, acceptDownloads: true });
    page = await context.newPage();
    page.on("pageerror", (e) => console.error("page error:", e));
  });

  after(async () => {
    await browser?.close();
    await daemon?.stop();
  });

  it("asks for a website when there is none", async () => {
    await ownerWithSites(page, daemon.url, "export-empty@example.com", []);
    await page.goto("/export");
    await page.getByRole("heading", { name: "Export Data" }).waitFor();
    await page.getByText("No Websites Found").waitFor();
    await screenshot(page, "export-no-websites");
  });

  it("exports page views as CSV and events as JSON from the first website", async () => {
    const owner = await ownerWithSites(page, daemon.url, "export-owner@example.com", [
      { name: "First", domain: "first.example.com", trackingLevel: "light" },
      { name: "Second", domain: "second.example.com", trackingLevel: "light" },
    ]);
    const [first] = owner.sites;
    const hit = (extra) => ({ tracking_key: first.trackingKey, session_id: "export-visitor-1", url: "https://first.example.com/pricing", ...extra });
    await track(daemon.url, hit({}));
    await track(daemon.url, hit({ url: "https://first.example.com/docs" }));
    await track(daemon.url, hit({ event: "custom", event_name: "signup", event_properties: { plan: "pro" } }));

    await page.goto("/export");
    await page.waitForURL(new RegExp(`website=${first.id}`));
    assert.equal(await page.getByRole("combobox", { name: "Select website" }).inputValue(), String(first.id), "the first website is chosen");
    assert.equal(await page.getByRole("combobox", { name: "Time range" }).inputValue(), "7d");
    await page.getByTestId("export-pageviews").waitFor();
    await page.getByTestId("export-events").waitFor();
    await screenshot(page, "export-1400");

    // Hold the answer until the button has been seen reading 'Exporting...' (the request itself is real).
    let release;
    const held = new Promise((ok) => (release = ok));
    await page.route("**/api/export/**", async (route) => {
      await held;
      await route.continue();
    });
    const button = page.getByTestId("export-pageviews").getByRole("button");
    const download = page.waitForEvent("download");
    await button.click();
    await waitForText(button, "Exporting...");
    assert.equal(await button.isDisabled(), true);
    release();
    const csv = await download;
    await page.unroute("**/api/export/**");
    assert.equal(csv.suggestedFilename(), `pageviews-${first.id}.csv`);
    const toast = await waitForToast(page, "Export successful");
    await waitForText(toast, "pageviews data has been downloaded as CSV");
    await waitForText(button, "Export CSV");
    const lines = readFileSync(await csv.path(), "utf8").trim().split("\n");
    assert.equal(lines[0].split(",")[0], "timestamp");
    assert.equal(lines.length, 3, lines.join("\n"));
    assert.ok(lines.slice(1).every((l) => l.includes(",pageview,")));

    // A filter in the URL (a chip in the bar) narrows the file to the rows it admits; removing it widens it again.
    const docs = encodeURIComponent(JSON.stringify([["is", "event:page", ["/docs"]]]));
    await page.goto(`/export?website=${first.id}&filters=${docs}`);
    await waitForText(page.getByTestId("filter-bar"), "Page is /docs");
    const [filtered] = await Promise.all([page.waitForEvent("download"), button.click()]);
    const filteredLines = readFileSync(await filtered.path(), "utf8").trim().split("\n");
    assert.equal(filteredLines.length, 2, filteredLines.join("\n"));
    assert.ok(filteredLines[1].includes(",pageview,") && filteredLines[1].includes("/docs"), filteredLines[1]);
    await page.getByRole("button", { name: "Remove filter Page is /docs" }).click();
    await page.waitForURL((url) => !url.searchParams.has("filters"));

    await page.getByLabel("Format").selectOption("json");
    const eventsButton = page.getByTestId("export-events").getByRole("button", { name: "Export JSON" });
    const [json] = await Promise.all([page.waitForEvent("download"), eventsButton.click()]);
    assert.equal(json.suggestedFilename(), `events-${first.id}.json`);
    const rows = JSON.parse(readFileSync(await json.path(), "utf8"));
    assert.equal(rows.length, 1);
    assert.equal(rows[0].name, "signup");
    assert.deepEqual(rows[0].properties, { plan: "pro" });
    await waitForText(await waitForToast(page, "Export successful"), "events data has been downloaded as JSON");

    // The site is deleted elsewhere while the screen still shows it: the export fails with the spec's toast.
    await owner.api("DELETE", `/api/websites/${first.id}`);
    await eventsButton.click();
    const failed = await waitForToast(page, "Export failed");
    await waitForText(failed, "Failed to export events data");
    await screenshot(page, "export-failed");
  });

  it("fits a 390 px column", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/export");
    await page.getByTestId("export-events").waitFor();
    assert.equal(await overflowsHorizontally(page), false);
    const box = await page.getByTestId("export-events").getByRole("button").boundingBox();
    assert.ok(box.x >= 0 && box.x + box.width <= 646, "the button is on screen");
    await screenshot(page, "export-390-column");
  });
});
