// The dashboard's filters in Chromium against the real daemon: visits seeded through the tracking API with
// known counts; a referrer row clicked filters the cards, the chart, the pages panel (numbers asserted) and the
// recent activity, and
// the URL holds it; a second filter added from the menu with a suggested value; a chip removed; a reload keeps
// the rest; a country found by its name; an event property named in the menu; a traffic-source row on the
// Analytics Dashboard (keyboard), dropped on a site switch; a refused filter explains itself and clears; the bar
// wraps at 390 px.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { launchBrowser, screenshot, startDaemon, waitForText } from "./helpers.mjs";
import { overflowsHorizontally, ownerWithSites, track } from "./site-owner.mjs";

const ORIGIN = "https://shop.example.com";

describe("dashboard filters", () => {
  let daemon, browser, page, site, other;

  /** Seeds 9 visits, each from its own address (so its own visitor):
   *  3 from google.com viewing /pricing then /docs (6 page views),
   *  2 from news.ycombinator.com viewing /blog,
   *  4 direct viewing /, one of which goes on to /pricing.
   *  So: 9 visitors and 13 page views; referrer google.com → 3 visitors, 6 views (/pricing 3, /docs 3);
   *  page /pricing → 4 visitors, 4 views; both → 3 visitors, 3 views; source Direct → 4 visitors, 5 views. */
  async function seed() {
    let n = 0;
    const visit = async (referrer, paths, address) => {
      n += 1;
      const session = `filter-visit-${String(n).padStart(3, "0")}`;
      for (const path of paths) {
        await track(daemon.url, { tracking_key: site.trackingKey, session_id: session, url: `${ORIGIN}${path}`, referrer }, address ?? `198.51.100.${n}`);
      }
    };
    for (let i = 0; i < 3; i++) await visit("https://google.com/search?q=shop", ["/pricing", "/docs"]);
    // The first visit signs up on the pro plan: an event with a property, not a page view.
    await track(
      daemon.url,
      { tracking_key: site.trackingKey, session_id: "filter-visit-001", url: `${ORIGIN}/pricing`, event: "custom", event_name: "signup", event_properties: { plan: "pro" } },
      "198.51.100.1",
    );
    // From German addresses (the daemon's built-in country database): the only visits with a country.
    for (let i = 0; i < 2; i++) await visit("https://news.ycombinator.com/item?id=1", ["/blog"], `85.214.132.${10 + i}`);
    for (let i = 0; i < 4; i++) await visit(undefined, i === 0 ? ["/", "/pricing"] : ["/"]);
  }

  const metric = (title) => page.getByTestId(`metric-${title}`).getByTestId("metric-value");
  const filtersInUrl = () => JSON.parse(new URL(page.url()).searchParams.get("filters") ?? "[]");

  /** The Top Pages panel as {path: views}, once it shows exactly `expected`'s paths. */
  async function topPagesAre(expected) {
    const list = page.getByTestId("top-pages");
    const deadline = Date.now() + 10_000;
    let seen = {};
    while (Date.now() < deadline) {
      const rows = await list.getByTestId("filter-row").allTextContents();
      seen = Object.fromEntries(rows.map((t) => /^(\/\S*?)(\d+)$/.exec(t.trim())?.slice(1, 3) ?? [t, ""]).map(([p, n]) => [p, Number(n)]));
      if (JSON.stringify(Object.entries(seen).sort()) === JSON.stringify(Object.entries(expected).sort())) return;
      await page.waitForTimeout(100);
    }
    assert.deepEqual(seen, expected, "Top Pages");
  }

  before(async () => {
    daemon = await startDaemon();
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, baseURL: daemon.url });
    page = await context.newPage();
    page.on("pageerror", (e) => console.error("page error:", e));
    const owner = await ownerWithSites(page, daemon.url, "filters-owner@example.com", [
      { name: "Shop", domain: "shop.example.com", trackingLevel: "enhanced" },
      { name: "Blog", domain: "blog.example.com", trackingLevel: "enhanced" },
    ]);
    [site, other] = owner.sites;
    await seed();
  });

  after(async () => {
    await browser?.close();
    await daemon?.stop();
  });

  it("clicking a referrer filters the cards, the chart and the pages panel, and the URL holds it", async () => {
    await page.goto(`/?website=${site.id}`);
    await waitForText(metric("Total Visitors"), /^9$/);
    await waitForText(metric("Page Views"), /^13$/);
    await waitForText(page.getByTestId("chart-totals"), "9 visitors · 13 page views");
    assert.equal(await page.getByTestId("not-filtered").count(), 0, "nothing says 'Not filtered' without filters");

    const row = page.getByRole("button", { name: "Filter by Referrer is google.com" });
    await row.click();
    await page.waitForURL(/filters=/);
    assert.deepEqual(filtersInUrl(), [["is", "visit:referrer", ["google.com"]]]);
    await waitForText(page.getByTestId("filter-chip"), "Referrer is google.com");
    await waitForText(metric("Total Visitors"), /^3$/);
    await waitForText(metric("Page Views"), /^6$/);
    await waitForText(page.getByTestId("chart-totals"), "3 visitors · 6 page views");
    await topPagesAre({ "/pricing": 3, "/docs": 3 });
    // Recent Activity follows: google.com's six page views and its signup (seven of the site's 14 items).
    const activity = page.getByTestId("recent-activity");
    await page
      .waitForFunction(() => document.querySelectorAll('[data-testid="recent-activity"] li').length === 7, null, { timeout: 10_000 })
      .catch(async (e) => assert.fail(`${e}: ${await activity.textContent()}`));
    assert.doesNotMatch(await activity.textContent(), /\/blog/);
    // Reads that take no filters yet say so.
    await page.getByTestId("live-visitors").getByTestId("not-filtered").waitFor();
    await waitForText(page.getByTestId("metric-Active Sessions").getByTestId("metric-caption"), "not filtered");
    assert.equal(await page.getByTestId("not-filtered").count(), 1, "Live Visitors says 'Not filtered'");
    await screenshot(page, "filters-referrer-1400");
  });

  it("adds a second filter from the menu with a suggested value, narrowed by typing", async () => {
    await page.getByRole("button", { name: "Add filter" }).click();
    await page.getByRole("menuitem", { name: "Page", exact: true }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("heading", { name: "Filter by page" }).waitFor();
    const suggestions = dialog.getByTestId("filter-suggestions");
    // Suggested among what the other filter (referrer google.com) admits: no /blog, no /.
    await waitForText(suggestions, "/docs");
    assert.match(await suggestions.textContent(), /\/pricing3/);
    assert.doesNotMatch(await suggestions.textContent(), /\/blog/);
    await dialog.getByLabel("Value").fill("PRI");
    await waitForText(suggestions, /^\/pricing3$/);
    assert.doesNotMatch(await suggestions.textContent(), /\/docs/, "typing narrows the suggestions");
    await suggestions.getByRole("button", { name: /\/pricing/ }).click();
    await dialog.getByRole("button", { name: "Apply filter" }).click();
    await dialog.waitFor({ state: "detached" });

    await page.waitForURL((u) => (u.searchParams.get("filters") ?? "").includes("event:page"));
    assert.deepEqual(filtersInUrl(), [["is", "visit:referrer", ["google.com"]], ["is", "event:page", ["/pricing"]]]);
    await waitForText(metric("Page Views"), /^3$/);
    await waitForText(metric("Total Visitors"), /^3$/);
    await waitForText(page.getByTestId("chart-totals"), "3 visitors · 3 page views");
    await topPagesAre({ "/pricing": 3 });
  });

  it("removes one chip, and a reload keeps the remaining filter", async () => {
    await page.getByRole("button", { name: "Remove filter Referrer is google.com" }).click();
    await page.waitForURL((u) => !(u.searchParams.get("filters") ?? "").includes("visit:referrer"));
    assert.deepEqual(filtersInUrl(), [["is", "event:page", ["/pricing"]]]);
    await waitForText(metric("Total Visitors"), /^4$/);
    await waitForText(metric("Page Views"), /^4$/);

    await page.reload();
    await waitForText(page.getByTestId("filter-bar"), "Page is /pricing");
    assert.equal(await page.getByTestId("filter-chip").count(), 1);
    await waitForText(metric("Total Visitors"), /^4$/);
    await waitForText(page.getByTestId("chart-totals"), "4 visitors · 4 page views");
    await topPagesAre({ "/pricing": 4 });

    await page.getByRole("button", { name: "Clear all" }).click();
    await page.waitForURL((u) => !u.searchParams.has("filters"));
    await waitForText(metric("Total Visitors"), /^9$/);
  });

  it("finds a country by its name in the menu's suggestions", async () => {
    await page.getByRole("button", { name: "Add filter" }).click();
    await page.getByRole("menuitem", { name: "Country", exact: true }).click();
    const dialog = page.getByRole("dialog");
    const suggestions = dialog.getByTestId("filter-suggestions");
    await waitForText(suggestions, "Germany (DE)2");
    await dialog.getByLabel("Value").fill("germ");
    await waitForText(suggestions, /^Germany \(DE\)2$/);
    await suggestions.getByRole("button", { name: /Germany/ }).click();
    await dialog.getByRole("button", { name: "Apply filter" }).click();
    await waitForText(page.getByTestId("filter-bar"), "Country is DE");
    assert.deepEqual(filtersInUrl(), [["is", "visit:country", ["DE"]]]);
    await waitForText(metric("Total Visitors"), /^2$/);
    await waitForText(metric("Page Views"), /^2$/);
  });

  it("filters by an event property named in the menu", async () => {
    await page.getByRole("button", { name: "Clear all" }).click();
    await waitForText(metric("Total Visitors"), /^9$/);
    await page.getByRole("button", { name: "Add filter" }).click();
    await page.getByRole("menuitem", { name: "Property…" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByText("Name the property to see its values").waitFor();
    // The keys the period's events carried are offered; picking one names it.
    const keys = dialog.getByTestId("property-key-suggestions");
    await waitForText(keys, /^Seen:\s*plan\s*1$/);
    await keys.getByRole("button", { name: /^plan/ }).click();
    assert.equal(await dialog.getByLabel("Property name").inputValue(), "plan");
    const suggestions = dialog.getByTestId("filter-suggestions");
    await waitForText(suggestions, /^pro1$/);
    await suggestions.getByRole("button", { name: /pro/ }).click();
    await dialog.getByRole("button", { name: "Apply filter" }).click();
    await waitForText(page.getByTestId("filter-bar"), "Property plan is pro");
    assert.deepEqual(filtersInUrl(), [["is", "event:props:plan", ["pro"]]]);
    await waitForText(metric("Total Visitors"), /^1$/);
    await waitForText(metric("Page Views"), /^0$/); // the signup is not a page view
  });

  it("filters the Analytics Dashboard by the Direct traffic source, from the keyboard", async () => {
    await page.goto(`/dashboard?website=${site.id}&tab=traffic`);
    await page.getByRole("button", { name: "Filter by Source is Direct / None" }).focus();
    await page.keyboard.press("Enter");
    await page.waitForURL(/filters=/);
    assert.deepEqual(filtersInUrl(), [["is", "visit:source", ["Direct / None"]]]);
    await waitForText(metric("Total Visitors"), /^4$/);
    await waitForText(metric("Page Views"), /^5$/);
    await waitForText(page.getByTestId("traffic-sources"), /^Direct100\.0%4$/);
    await screenshot(page, "filters-dashboard-traffic");
    await page.getByRole("tab", { name: "Conversions" }).click();
    const conversions = page.getByRole("tabpanel");
    await waitForText(conversions, "Goals completed");
    assert.equal(await conversions.getByTestId("not-filtered").count(), 0, "conversions follow the filters");

    // Another site's pages and sources are not this one's: choosing it drops the filters.
    await page.getByRole("combobox", { name: "Select website" }).selectOption(String(other.id));
    await page.waitForURL((u) => u.searchParams.get("website") === String(other.id));
    assert.equal(new URL(page.url()).searchParams.has("filters"), false);
    await page.getByTestId("filter-chip").waitFor({ state: "detached" });
    await waitForText(metric("Total Visitors"), /^0$/);
  });

  it("explains a filter the daemon refuses and clears it", async () => {
    const bad = encodeURIComponent(JSON.stringify([["is", "visit:planet", ["Mars"]]]));
    await page.goto(`/?website=${site.id}&filters=${bad}`);
    const note = page.getByTestId("filters-refused");
    await waitForText(note, "unknown filter dimension");
    await waitForText(page.getByTestId("filter-bar"), "visit:planet");
    // The figures are unknown, not zero, and the panels say why they are empty instead of repeating the error.
    await waitForText(metric("Total Visitors"), "—");
    await waitForText(page.getByTestId("chart-card"), "Not shown: the filters above cannot be applied");
    const notShown = page.getByText("Not shown: the filters above cannot be applied");
    await notShown.nth(4).waitFor();
    assert.equal(await notShown.count(), 5, "chart, pages, referrers, countries, recent activity");
    assert.equal(await page.getByText("Could not load this data").count(), 0);
    await screenshot(page, "filters-refused");
    await page.getByRole("button", { name: "Clear filters" }).click();
    await page.waitForURL((u) => !u.searchParams.has("filters"));
    await waitForText(metric("Total Visitors"), /^9$/);
    assert.equal(await note.count(), 0);
  });

  it("wraps the filter bar at 390 px without horizontal overflow", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    const filters = [
      ["is", "visit:referrer", ["google.com"]],
      ["contains", "event:page", ["/pricing"]],
      ["is_not", "visit:country", ["DE", "FR", "a-very-long-value-that-cannot-break-anywhere-in-the-chip-it-sits-in"]],
    ];
    await page.goto(`/?website=${site.id}&filters=${encodeURIComponent(JSON.stringify(filters))}`);
    await waitForText(page.getByTestId("filter-bar"), "Country is not");
    await waitForText(metric("Total Visitors"), /^3$/);
    const chips = await page.getByTestId("filter-chip").evaluateAll((els) => els.map((e) => e.getBoundingClientRect().top));
    assert.equal(chips.length, 3);
    assert.ok(new Set(chips.map(Math.round)).size > 1, `the chips wrap onto several lines (${chips})`);
    assert.equal(await overflowsHorizontally(page), false, "no horizontal scroll at 390 px");
    await screenshot(page, "filters-390");
  });
});
