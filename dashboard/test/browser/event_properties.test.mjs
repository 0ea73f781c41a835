// The Events screen's Event Properties and Not Found Pages cards in Chromium against the real daemon: an event
// broken down by a property it carries (a row filtering the screen by the event and the value), and the 404
// report fed by the one-liner copied from the Tracking Code dialog, run on a page of the demo site; 390 px.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { launchBrowser, screenshot, startDaemon, startDemoSite, waitForText } from "./helpers.mjs";
import { VISITOR_UA, overflowsHorizontally, ownerWithSites, track } from "./site-owner.mjs";

const ORIGIN = "https://props.example.com";

describe("event properties and not found pages", () => {
  let daemon, browser, context, page, site, demo, api;
  let snippet = "";

  /** Outbound clicks: two to a.example, one to b.example; one download of report.pdf. */
  async function seed() {
    const events = [
      ["Outbound", { url: "https://a.example/" }],
      ["Outbound", { url: "https://a.example/" }],
      ["Outbound", { url: "https://b.example/" }],
      ["Download", { file: "report.pdf" }],
    ];
    for (const [i, [name, props]] of events.entries()) {
      const body = { tracking_key: site.trackingKey, session_id: `props-visit-${i}`, url: `${ORIGIN}/`, event: "custom", event_name: name, event_properties: props };
      await track(daemon.url, body, `198.51.100.${i + 1}`);
    }
  }

  before(async () => {
    daemon = await startDaemon();
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1400, height: 900 }, baseURL: daemon.url });
    page = await context.newPage();
    page.on("pageerror", (e) => console.error("page error:", e));
    const owner = await ownerWithSites(page, daemon.url, "props-owner@example.com", [{ name: "Props", domain: "props.example.com", trackingLevel: "light" }]);
    [site] = owner.sites;
    api = owner.api;
    demo = await startDemoSite(() => snippet);
    await seed();
  });

  after(async () => {
    await browser?.close();
    await demo?.stop();
    await daemon?.stop();
  });

  it("breaks an event down by a property it carries", async () => {
    await page.goto(`/events?website=${site.id}&range=7d`);
    const card = page.getByTestId("event-properties");
    await waitForText(card, /Name a property of Outbound/);
    // The keys each event carried are offered: a click names one and shows its values.
    const keys = card.getByTestId("property-key-suggestions");
    await waitForText(keys, /^Seen:\s*url\s*3$/);
    await keys.getByRole("button", { name: /^url/ }).click();
    assert.equal(await card.getByLabel("Property", { exact: true }).inputValue(), "url");
    await waitForText(card.getByTestId("property-rows"), /^https:\/\/a\.example\/\s*2\s*https:\/\/b\.example\/\s*1$/);
    await card.getByLabel("Event").selectOption("Download");
    await waitForText(keys, /^Seen:\s*file\s*1$/);
    // A name can still be typed.
    await card.getByLabel("Property", { exact: true }).fill("file");
    await card.getByRole("button", { name: "Show" }).click();
    await waitForText(card.getByTestId("property-rows"), /^report\.pdf\s*1$/);
    await screenshot(page, "event-properties-1400");
  });

  it("filters the screen by the event and a row's value", async () => {
    const card = page.getByTestId("event-properties");
    await card.getByLabel("Event").selectOption("Outbound");
    await card.getByLabel("Property", { exact: true }).fill("url");
    await card.getByRole("button", { name: "Show" }).click();
    // One click adds two conditions (the event, then the value): the filters hook must keep both.
    await card.getByRole("button", { name: /Filter by .*b\.example/ }).click();
    await page.waitForURL(/filters=.*b\.example/);
    assert.deepEqual(JSON.parse(new URL(page.url()).searchParams.get("filters")), [
      ["is", "event:name", ["Outbound"]],
      ["is", "event:props:url", ["https://b.example/"]],
    ]);
    await waitForText(page.getByTestId("top-events"), /Outbound\s*1 trigger/);
  });

  it("lists the pages the copied one-liner reports as not found", async () => {
    await page.goto("/websites");
    await page.getByTestId("website-card").filter({ hasText: "Props" }).getByRole("button", { name: "Get Code" }).click();
    const dialog = page.getByRole("dialog");
    const embed = (await dialog.getByTestId("embed-snippet").textContent()).trim();
    const notFound = (await dialog.getByTestId("not-found-snippet").textContent()).trim();
    assert.match(notFound, /window\.tracker\.track\('404', \{path: location\.pathname\}\)/);
    await page.keyboard.press("Escape");
    snippet = `${embed}\n<script>${notFound}</script>`;
    const visitorContext = await browser.newContext({ userAgent: VISITOR_UA });
    const visitor = await visitorContext.newPage();
    for (const path of ["/about.html", "/form.html", "/about.html"]) {
      await visitor.goto(`${demo.url}${path}`);
      await visitor.waitForFunction(() => window.tracker?._?.c?.trackingKey);
    }
    await visitorContext.close();
    // The beacons are on disk once the daemon answers them; wait for the last before reading the screen.
    const filters = encodeURIComponent('[["is","event:name",["404"]]]');
    const deadline = Date.now() + 15_000;
    let reported = 0;
    while (reported < 3 && Date.now() < deadline) {
      const breakdown = await api("GET", `/api/websites/${site.id}/breakdown/prop:path?range=7d&filters=${filters}`);
      reported = breakdown.rows.reduce((n, r) => n + r.count, 0);
      if (reported < 3) await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(reported, 3, "three pages reported as not found");
    await page.goto(`/events?website=${site.id}&range=7d`);
    await waitForText(page.getByTestId("not-found-rows"), /^\/about\.html\s*2\s*\/form\.html\s*1$/, 20_000);
  });

  it("fits a 390 px column", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`/events?website=${site.id}&range=7d`);
    await page.getByTestId("not-found-rows").waitFor();
    assert.equal(await overflowsHorizontally(page), false);
    await screenshot(page, "event-properties-390");
  });
});
