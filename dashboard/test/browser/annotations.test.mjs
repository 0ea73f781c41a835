// Annotations and saved segments in Chromium against the real daemon. An annotation written through the API
// shows on the Traffic Overview chart as a flag on its day that names it on hover and on keyboard focus, and in
// the list under the chart; one added from the dialog joins it; at 390 px the flag and the list stay on screen
// and a tap names it. A segment saved from the filter bar survives a reload, and picking it puts its filters in
// the URL, with the chips, the cards and the chart following; one saved "only for me" is marked so.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { launchBrowser, screenshot, startDaemon, waitForText } from "./helpers.mjs";
import { overflowsHorizontally, ownerWithSites, track } from "./site-owner.mjs";

const ORIGIN = "https://shop.example.com";

/** A UTC day `daysAgo` days before today, YYYY-MM-DD. */
function day(daysAgo) {
  return new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);
}

describe("annotations and saved segments", () => {
  let daemon, browser, owner, site;

  /** 5 visitors: 3 from google.com, 2 direct; so source Google → 3 visitors. */
  async function seed() {
    for (let n = 1; n <= 5; n++) {
      const referrer = n <= 3 ? "https://www.google.com/search?q=shop" : undefined;
      await track(daemon.url, { tracking_key: site.trackingKey, session_id: `annotated-${n}`, url: `${ORIGIN}/`, referrer }, `198.51.100.${n}`);
    }
  }

  async function signedInPage(viewport) {
    const context = await browser.newContext({ viewport, baseURL: daemon.url });
    const page = await context.newPage();
    page.on("pageerror", (e) => console.error("page error:", e));
    await page.goto("/auth");
    await page.evaluate((t) => {
      localStorage.setItem("accessToken", t.a);
      localStorage.setItem("refreshToken", t.r);
    }, owner.tokens);
    return page;
  }

  const markers = (page) => page.getByTestId("annotation-marker");

  before(async () => {
    daemon = await startDaemon();
    browser = await launchBrowser();
    const context = await browser.newContext({ baseURL: daemon.url });
    const page = await context.newPage();
    const made = await ownerWithSites(page, daemon.url, "annotations-owner@example.com", [{ name: "Shop", domain: "shop.example.com", trackingLevel: "enhanced" }]);
    const tokens = await page.evaluate(() => ({ a: localStorage.getItem("accessToken"), r: localStorage.getItem("refreshToken") }));
    owner = { ...made, tokens };
    site = made.sites[0];
    await context.close();
    await seed();
    await owner.api("POST", `/api/websites/${site.id}/annotations`, { date: day(2), text: "Release 2.0" });
  });

  after(async () => {
    await browser?.close();
    await daemon?.stop();
  });

  it("marks an annotation on the chart at 1400 px, names it on hover and focus, and adds one from the dialog", async () => {
    const page = await signedInPage({ width: 1400, height: 900 });
    await page.goto(`/?website=${site.id}&range=7d`);
    await markers(page).first().waitFor();
    assert.equal(await markers(page).count(), 1);
    assert.equal(await markers(page).first().getAttribute("aria-label"), `Annotation ${new Date(`${day(2)}T00:00:00Z`).toLocaleDateString("en-US", { month: "short", day: "numeric", timeZone: "UTC" })}: Release 2.0`);
    await waitForText(page.getByTestId("annotation-item"), "Release 2.0");

    await markers(page).first().hover();
    await waitForText(page.getByTestId("annotation-shown"), /: Release 2\.0$/);
    await page.mouse.move(5, 5);
    await waitForText(page.getByTestId("annotation-shown"), /^$/);
    await markers(page).first().focus();
    await waitForText(page.getByTestId("annotation-shown"), /: Release 2\.0$/);
    await screenshot(page, "annotations-chart-1400");

    await page.getByRole("button", { name: "Add annotation" }).click();
    const dialog = page.getByRole("dialog", { name: "Add annotation" });
    assert.equal(await dialog.getByLabel("Day (UTC)").inputValue(), day(0), "today by default");
    await dialog.getByLabel("Text").fill("Newsletter sent");
    await dialog.getByRole("button", { name: "Save annotation" }).click();
    await dialog.waitFor({ state: "detached" });
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="annotation-marker"]').length === 2);
    const stored = await owner.api("GET", `/api/websites/${site.id}/annotations`);
    assert.deepEqual(stored.map((a) => [a.date, a.text]), [[day(2), "Release 2.0"], [day(0), "Newsletter sent"]]);

    // A refused text says why in the dialog, and nothing is stored.
    await page.getByRole("button", { name: "Add annotation" }).click();
    await dialog.getByLabel("Day (UTC)").fill("1969-12-31");
    await dialog.getByLabel("Text").fill("Before time");
    await dialog.getByRole("button", { name: "Save annotation" }).click();
    await waitForText(dialog.getByRole("alert"), "date must be a day as YYYY-MM-DD");
    await page.keyboard.press("Escape");
    assert.equal((await owner.api("GET", `/api/websites/${site.id}/annotations`)).length, 2);
    await page.context().close();
  });

  it("keeps the flag and the list readable at 390 px, and a tap names the annotation", async () => {
    const page = await signedInPage({ width: 390, height: 844 });
    await page.goto(`/?website=${site.id}&range=7d`);
    await markers(page).first().waitFor();
    const box = await markers(page).first().boundingBox();
    assert.ok(box && box.x >= 0 && box.x + box.width <= 390, `the flag is on screen: ${JSON.stringify(box)}`);
    await markers(page).first().click();
    await waitForText(page.getByTestId("annotation-shown"), /: (Release 2\.0|Newsletter sent)$/);
    const item = page.getByTestId("annotation-item").filter({ hasText: "Release 2.0" });
    const itemBox = await item.boundingBox();
    assert.ok(itemBox && itemBox.x + itemBox.width <= 390, `the list item fits: ${JSON.stringify(itemBox)}`);
    assert.equal(await overflowsHorizontally(page), false, "no horizontal scroll at 390 px");
    await screenshot(page, "annotations-chart-390");
    await page.context().close();
  });

  it("saves the filters as a segment, and picking it after a reload puts them back in the URL and the panels", async () => {
    const page = await signedInPage({ width: 1400, height: 900 });
    const metric = (title) => page.getByTestId(`metric-${title}`).getByTestId("metric-value");
    const google = [["is", "visit:source", ["Google"]]];
    await page.goto(`/?website=${site.id}&range=7d&filters=${encodeURIComponent(JSON.stringify(google))}`);
    await waitForText(metric("Total Visitors"), /^3$/);

    await page.getByTestId("segments-trigger").click();
    await page.getByRole("menuitem", { name: "Save as segment…" }).click();
    const dialog = page.getByRole("dialog", { name: "Save as segment" });
    await dialog.getByLabel("Name").fill("From Google");
    await dialog.getByRole("button", { name: "Save segment" }).click();
    await dialog.waitFor({ state: "detached" });
    await waitForText(page.getByTestId("segments-trigger"), "Segment: From Google");

    // Cleared, reloaded: the segment is still there; picking it filters the URL, the chips, the cards and the chart.
    await page.getByRole("button", { name: "Clear all" }).click();
    await waitForText(metric("Total Visitors"), /^5$/);
    await page.reload();
    await waitForText(metric("Total Visitors"), /^5$/);
    assert.equal(new URL(page.url()).searchParams.get("filters"), null);
    await page.getByTestId("segments-trigger").click();
    await page.getByTestId("segment-item").filter({ hasText: "From Google" }).click();
    await page.waitForURL(/filters=/);
    assert.deepEqual(JSON.parse(new URL(page.url()).searchParams.get("filters")), google);
    await waitForText(page.getByTestId("filter-chip"), "Google");
    await waitForText(metric("Total Visitors"), /^3$/);
    await waitForText(page.getByTestId("chart-totals"), "3 visitors");
    await waitForText(page.getByTestId("segments-trigger"), "Segment: From Google");
    const saved = await owner.api("GET", `/api/websites/${site.id}/segments`);
    assert.deepEqual(saved.map((s) => [s.name, s.filters]), [["From Google", google]]);
    await screenshot(page, "segments-picked");
    await page.context().close();
  });

  it("saves a segment only for its saver, marked as such in the menu", async () => {
    const page = await signedInPage({ width: 1400, height: 900 });
    const direct = [["is", "visit:source", ["Direct / None"]]];
    await page.goto(`/?website=${site.id}&range=7d&filters=${encodeURIComponent(JSON.stringify(direct))}`);
    await page.getByTestId("segments-trigger").click();
    await page.getByRole("menuitem", { name: "Save as segment…" }).click();
    const dialog = page.getByRole("dialog", { name: "Save as segment" });
    await dialog.getByLabel("Name").fill("My direct");
    await dialog.getByLabel(/Only for me/).check();
    await dialog.getByRole("button", { name: "Save segment" }).click();
    await dialog.waitFor({ state: "detached" });
    await page.getByTestId("segments-trigger").click();
    await waitForText(page.getByTestId("segment-item").filter({ hasText: "My direct" }), /My direct\s*only you/);
    await waitForText(page.getByTestId("segment-item").filter({ hasText: "From Google" }), /^From Google$/);
    const saved = await owner.api("GET", `/api/websites/${site.id}/segments`);
    assert.deepEqual(saved.map((s) => [s.name, s.personal]), [["From Google", false], ["My direct", true]]);
    await page.context().close();
  });
});
