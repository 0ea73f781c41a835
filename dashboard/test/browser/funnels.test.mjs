// Conversion Funnels and Customer Journeys in headless Chromium against the real daemon, fed through the real
// ingest path (POST /api/track): a funnel whose per-step counts are known by construction (100 → 60 → 30 →
// 12) shows exactly those figures; the Create Funnel dialog's defaults and validation messages; pause and
// delete; the journeys filter changes the list and the cards; both screens stack at 390 px.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { launchBrowser, screenshot, startDaemon, waitForText, waitForToast } from "./helpers.mjs";

const VISITOR_UA = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const ORIGIN = "https://shop.example.com";

describe("funnels and journeys in a browser", () => {
  let daemon, browser, context, page, token, refresh, shop, spare;

  async function call(method, path, body) {
    const res = await fetch(`${daemon.url}${path}`, {
      method,
      headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    assert.ok(res.ok, `${method} ${path}: ${res.status} ${text}`);
    return text ? JSON.parse(text) : null;
  }

  async function track(key, session, path, extra = {}) {
    const res = await fetch(`${daemon.url}/api/track`, {
      method: "POST",
      headers: { "content-type": "text/plain", "user-agent": VISITOR_UA },
      body: JSON.stringify({ tracking_key: key, session_id: session, url: `${ORIGIN}${path}`, ...extra }),
    });
    assert.ok(res.ok, `track ${path}: ${res.status} ${await res.text()}`);
  }

  /** 100 visits land on /, 60 go on to /product, 30 to /checkout, 12 buy on /success (conversion "purchase"). */
  async function seedShop(key) {
    const visit = async (i) => {
      const s = `shop-${String(i).padStart(4, "0")}`;
      await track(key, s, "/");
      if (i < 60) await track(key, s, "/product");
      if (i >= 60 && i < 65) await track(key, s, "/checkout"); // skipped the product: stops at step 1
      if (i < 30) await track(key, s, "/checkout");
      if (i < 12) {
        await track(key, s, "/success");
        await track(key, s, "/success", { event: "conversion", event_name: "purchase", event_properties: { value: 30 } });
      }
    };
    for (let i = 0; i < 100; i += 20) await Promise.all(Array.from({ length: 20 }, (_, j) => visit(i + j)));
  }

  before(async () => {
    daemon = await startDaemon();
    const signup = await call("POST", "/api/register", { email: `funnels-${Date.now()}@example.com`, password: "secret1" });
    token = signup.accessToken;
    refresh = signup.refreshToken;
    shop = await call("POST", "/api/websites", { name: "Shop", domain: "shop.example.com", trackingLevel: "professional" });
    spare = await call("POST", "/api/websites", { name: "Spare", domain: "spare.example.com" });
    await seedShop(shop.trackingKey);
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1400, height: 900 }, baseURL: daemon.url });
    page = await context.newPage();
    page.on("pageerror", (e) => console.error("page error:", e));
    await page.goto("/auth");
    await page.evaluate(([a, r]) => {
      localStorage.setItem("accessToken", a);
      localStorage.setItem("refreshToken", r);
    }, [token, refresh]);
  });

  after(async () => {
    await browser?.close();
    await daemon?.stop();
  });

  it("the Create Funnel dialog prefills the spec's steps and shows its validation messages", async () => {
    await page.goto("/funnels");
    await page.getByText("No funnels yet").waitFor();
    await page.getByRole("button", { name: "Create Funnel" }).first().click();
    const dialog = page.getByRole("dialog", { name: "Create Funnel" });
    await dialog.waitFor();
    const steps = dialog.getByTestId("funnel-step-input");
    assert.equal(await steps.count(), 4);
    // At 1400x900 the dialog's own button stays in view without scrolling, with a step more than the default
    // (the steps scroll, the footer stays).
    await dialog.getByRole("button", { name: "Add Step" }).click();
    const create = await dialog.getByRole("button", { name: "Create Funnel" }).boundingBox();
    assert.ok(create && create.y >= 0 && create.y + create.height <= 900, `Create Funnel at ${JSON.stringify(create)}`);
    await dialog.getByRole("button", { name: "Remove step 5" }).click();
    const expected = [
      ["Landing Page", "/", ""],
      ["Product Page", "/product", ""],
      ["Checkout", "/checkout", ""],
      ["Purchase", "/success", "purchase"],
    ];
    for (const [i, [name, url, event]] of expected.entries()) {
      assert.equal(await dialog.getByLabel(`Step ${i + 1} name`).inputValue(), name);
      assert.equal(await dialog.getByLabel(`Step ${i + 1} URL`).inputValue(), url);
      assert.equal(await dialog.getByLabel(`Step ${i + 1} event name`).inputValue(), event);
    }

    await dialog.getByLabel("Website").selectOption({ label: "Select a website" });
    await dialog.getByLabel("Step 2 name").fill("");
    await dialog.getByLabel("Step 3 URL").fill("");
    await dialog.getByRole("button", { name: "Create Funnel" }).click();
    await dialog.getByText("Funnel name is required").waitFor();
    await dialog.getByText("Website is required").waitFor();
    await dialog.getByText("Step name is required").waitFor();
    await dialog.getByText("URL is required").waitFor();
    await screenshot(page, "funnels-01-dialog-errors");

    for (let i = 0; i < 3; i++) await dialog.getByRole("button", { name: "Remove step 1" }).click();
    assert.equal(await steps.count(), 1);
    await dialog.getByRole("button", { name: "Create Funnel" }).click();
    await dialog.getByText("At least 2 steps are required").waitFor();
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "hidden" });
  });

  it("a created funnel shows exactly the per-step counts built into the data", async () => {
    await page.getByRole("button", { name: "Create Funnel" }).first().click();
    const dialog = page.getByRole("dialog", { name: "Create Funnel" });
    await dialog.getByLabel("Funnel name").fill("Checkout flow");
    await dialog.getByLabel("Website").selectOption({ label: "Shop" });
    // Reordering works both ways: down then up leaves the defaults in place.
    await dialog.getByRole("button", { name: "Move step 1 down" }).click();
    assert.equal(await dialog.getByLabel("Step 1 name").inputValue(), "Product Page");
    await dialog.getByRole("button", { name: "Move step 2 up" }).click();
    assert.equal(await dialog.getByLabel("Step 1 name").inputValue(), "Landing Page");
    await dialog.getByRole("button", { name: "Create Funnel" }).click();
    await waitForToast(page, "Funnel created");
    await dialog.waitFor({ state: "hidden" });

    const funnel = page.getByTestId("funnel").filter({ hasText: "Checkout flow" });
    await funnel.waitFor();
    await waitForText(funnel.getByTestId("funnel-total-visitors"), "100");
    const visitors = await funnel.getByTestId("step-visitors").allTextContents();
    assert.deepEqual(visitors, ["100", "60", "30", "12"]);
    assert.deepEqual(await funnel.getByTestId("step-conversions").allTextContents(), ["60", "30", "12", "12"]);
    assert.deepEqual(await funnel.getByTestId("step-rate").allTextContents(), ["60.0%", "50.0%", "40.0%", "100.0%"]);
    assert.deepEqual(await funnel.getByTestId("step-dropoff").allTextContents(), ["40.0%", "50.0%", "60.0%", "0.0%"]);
    assert.deepEqual(await funnel.getByTestId("step-health").allTextContents(), ["Good", "Medium", "Medium", "Good"]);
    assert.equal(await funnel.getByTestId("funnel-total-conversions").textContent(), "12");
    assert.equal(await funnel.getByTestId("funnel-overall-rate").textContent(), "12.0%");
    await funnel.getByText("Active", { exact: true }).waitFor();
    await funnel.getByText(/^Shop · Created /).waitFor();

    // The range is sent: the same visits are within the last 24 hours.
    await page.getByLabel("Time range").selectOption("1d");
    await page.waitForURL(/range=1d/);
    await waitForText(funnel.getByTestId("funnel-total-visitors"), "100");
    await screenshot(page, "funnels-02-list-1400");
  });

  it("a step's drop-offs list the visits that stopped there, each opening its session in the Visitor Stream", async () => {
    const funnel = page.getByTestId("funnel").filter({ hasText: "Checkout flow" });
    const buttons = funnel.getByTestId("step-dropoffs");
    assert.deepEqual(await buttons.allTextContents(), [
      "40 dropped off: view visits",
      "30 dropped off: view visits",
      "18 dropped off: view visits",
    ]);
    await buttons.nth(2).click();
    const dialog = page.getByRole("dialog", { name: "Dropped off after Checkout" });
    await waitForText(dialog.getByTestId("dropoff-total"), "18 visits in all");
    const links = dialog.getByTestId("dropoff-session-link");
    assert.equal(await links.count(), 18);
    // Each visit checked out and left there: three pages, the last /checkout.
    const rows = await dialog.getByTestId("dropoff-visits").locator("li").allTextContents();
    assert.ok(rows.every((r) => r.includes("3 pages") && r.includes("left on /checkout")), rows.join("\n"));
    await page.setViewportSize({ width: 390, height: 844 });
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth), false);
    await screenshot(page, "funnels-04-dropoffs-390");
    await page.setViewportSize({ width: 1400, height: 900 });

    const href = await links.first().getAttribute("href");
    assert.match(href, new RegExp(`^/visitor-stream\\?website=${shop.id}&session=\\d+$`));
    await links.first().click();
    await page.waitForURL(/\/visitor-stream\?/);
    const panel = page.getByTestId("session-panel");
    await panel.waitFor();
    await panel.getByText("Session Details").waitFor();
    await panel.getByRole("tab", { name: "Journey" }).click();
    await waitForText(panel.getByTestId("journey-page").first(), "/");
    assert.deepEqual(await panel.getByTestId("journey-page").allTextContents(), ["/", "/product", "/checkout"]);
    await screenshot(page, "funnels-05-dropoff-session");
    await page.goto("/funnels");
    await page.getByTestId("funnel").filter({ hasText: "Checkout flow" }).waitFor();
  });

  it("a server refusal shows 'Error creating funnel' with the server's message", async () => {
    await page.getByRole("button", { name: "Create Funnel" }).first().click();
    const dialog = page.getByRole("dialog", { name: "Create Funnel" });
    await dialog.getByLabel("Funnel name").fill("Gone");
    await dialog.getByLabel("Website").selectOption({ label: "Spare" });
    // The site is deleted elsewhere while the dialog is open.
    await call("DELETE", `/api/websites/${spare.id}`);
    await dialog.getByRole("button", { name: "Create Funnel" }).click();
    const toast = await waitForToast(page, "Error creating funnel");
    await toast.getByText("website not found").waitFor();
    await dialog.getByRole("button", { name: "Cancel" }).click();
  });

  it("pauses, activates and deletes a funnel; the step cards stack at 390 px", async () => {
    const funnel = page.getByTestId("funnel").filter({ hasText: "Checkout flow" });
    await funnel.getByRole("button", { name: "Actions for Checkout flow" }).click();
    await page.getByRole("menuitem", { name: "Pause" }).click();
    await waitForToast(page, "Funnel paused");
    await funnel.getByText("Paused", { exact: true }).waitFor();

    await page.setViewportSize({ width: 390, height: 844 });
    await waitForText(funnel.getByTestId("funnel-total-visitors"), "100");
    // The step cards stack into one column at this width, and nothing sticks out of the screen.
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth), false);
    const lefts = await funnel.getByTestId("funnel-step").evaluateAll((cards) => cards.map((c) => Math.round(c.getBoundingClientRect().left)));
    assert.equal(new Set(lefts).size, 1, `step cards in one column: ${lefts}`);
    await screenshot(page, "funnels-03-list-390");
    await page.setViewportSize({ width: 1400, height: 900 });

    await funnel.getByRole("button", { name: "Actions for Checkout flow" }).click();
    await page.getByRole("menuitem", { name: "Activate" }).click();
    await funnel.getByText("Active", { exact: true }).waitFor();

    // An edit of the steps saves at once (the PUT answers with figuresPending): the card shows the new
    // definition as counting until the list's refetch, held here, brings the figures.
    let release;
    const held = new Promise((r) => (release = r));
    await page.route("**/api/funnels?*", async (route) => {
      await held;
      await route.continue();
    });
    await funnel.getByRole("button", { name: "Actions for Checkout flow" }).click();
    await page.getByRole("menuitem", { name: "Edit" }).click();
    const edit = page.getByRole("dialog", { name: "Edit Funnel" });
    await edit.getByLabel("Step 4 name").fill("Purchased");
    await edit.getByRole("button", { name: "Save Changes" }).click();
    await waitForToast(page, "Funnel updated");
    await funnel.getByTestId("funnel-pending").waitFor();
    await funnel.getByText("Purchased").waitFor();
    assert.deepEqual(await funnel.getByTestId("step-visitors").allTextContents(), ["…", "…", "…", "…"]);
    release();
    await funnel.getByTestId("funnel-pending").waitFor({ state: "detached" });
    await page.unrouteAll({ behavior: "wait" });
    assert.deepEqual(await funnel.getByTestId("step-visitors").allTextContents(), ["100", "60", "30", "12"]);
    await funnel.getByRole("button", { name: "Actions for Checkout flow" }).click();
    await page.getByRole("menuitem", { name: "Delete" }).click();
    await page.getByRole("dialog", { name: "Delete funnel" }).getByRole("button", { name: "Delete" }).click();
    await waitForToast(page, "Funnel deleted");
    await page.getByText("No funnels yet").waitFor();
    assert.deepEqual(await call("GET", "/api/funnels"), []);
  });

  it("the journeys filter changes the list and the cards", async () => {
    const key = (await call("POST", "/api/websites", { name: "Journeys", domain: "journeys.example.com" })).trackingKey;
    const site = (await call("GET", "/api/websites")).find((w) => w.name === "Journeys").id;
    const t0 = Date.now() - 2 * 3600_000;
    // Converted (over): / → /product → /success + purchase, 100 s. Abandoned (over): / → /pricing, 20 s.
    // Active: one page now.
    await track(key, "buyer-0001", "/", { timestamp: t0 });
    await track(key, "buyer-0001", "/product", { timestamp: t0 + 60_000 });
    await track(key, "buyer-0001", "/success", { timestamp: t0 + 90_000 });
    await track(key, "buyer-0001", "/success", { timestamp: t0 + 100_000, event: "conversion", event_name: "purchase" });
    await track(key, "leaver-001", "/", { timestamp: t0 });
    await track(key, "leaver-001", "/pricing", { timestamp: t0 + 20_000 });
    await track(key, "browser-01", "/");

    await page.goto(`/customer-journeys?website=${site}`);
    const card = (title) => page.getByTestId(`metric-${title}`).getByTestId("metric-value");
    await waitForText(card("Total Journeys"), /^3$/);
    assert.equal(await card("Avg Duration").textContent(), "40s");
    assert.equal(await card("Avg Touchpoints").textContent(), "2.3");
    assert.equal(await card("Conversion Rate").textContent(), "33.3%");
    assert.equal(await page.getByTestId("journey-row").count(), 3);
    assert.equal(await page.getByLabel("Period").inputValue(), "7d");
    await screenshot(page, "journeys-01-all-1400");

    await page.getByLabel("Filter").selectOption("converted");
    await page.waitForURL(/filter=converted/);
    await waitForText(card("Total Journeys"), /^1$/);
    await waitForText(card("Avg Duration"), "1m 40s");
    assert.equal(await card("Conversion Rate").textContent(), "100.0%");
    assert.equal(await page.getByTestId("journey-row").count(), 1);
    const detail = page.getByTestId("journey-detail");
    await detail.getByText("Journey buyer-00").waitFor();
    await detail.getByText("Converted", { exact: true }).waitFor();
    const path = await detail.getByTestId("journey-path").locator("li").allTextContents();
    assert.deepEqual(path, ["1/pageview1m 0s", "2/productpageview30s", "3/successpageview10s", "4/successconversion: purchase0s"]);

    await page.getByLabel("Filter").selectOption("abandoned");
    await waitForText(card("Avg Duration"), "20s");
    assert.equal(await card("Total Journeys").textContent(), "1");
    assert.equal(await card("Conversion Rate").textContent(), "0.0%");
    await detail.getByText("Journey leaver-0").waitFor();
    await detail.getByText("Abandoned", { exact: true }).waitFor();

    await page.getByLabel("Filter").selectOption("active");
    await detail.getByText("Journey browser-").waitFor();
    assert.equal(await card("Total Journeys").textContent(), "1");
    assert.equal(await page.getByTestId("journey-row").count(), 1);

    await page.getByLabel("Filter").selectOption("all");
    await waitForText(card("Total Journeys"), /^3$/);
    const paths = page.getByTestId("journey-paths");
    await paths.getByText("/ → /product → /success").waitFor();
    await page.getByTestId("journey-flow").waitFor();

    await page.setViewportSize({ width: 390, height: 844 });
    // Cards stack into one column; a tapped journey's details open under its row, in view.
    const cards = [];
    for (const title of ["Total Journeys", "Avg Duration", "Avg Touchpoints", "Conversion Rate"]) {
      cards.push(Math.round((await page.getByTestId(`metric-${title}`).boundingBox()).x));
    }
    assert.equal(new Set(cards).size, 1, `summary cards in one column: ${cards}`);
    await page.getByTestId("journey-detail").waitFor({ state: "detached" });
    const row = page.getByTestId("journey-row").nth(1);
    await row.click();
    const panel = await page.getByTestId("journey-detail").boundingBox();
    const tapped = await row.boundingBox();
    assert.ok(Math.abs(panel.y - (tapped.y + tapped.height)) < 20, `details under the tapped row: ${panel.y} vs ${tapped.y + tapped.height}`);
    assert.ok(panel.y < 844, "the details start in view");
    await screenshot(page, "journeys-02-all-390");
    await page.setViewportSize({ width: 1400, height: 900 });
  });

  it("the journeys list is paged, and Common Paths stays near the top", async () => {
    const key = (await call("POST", "/api/websites", { name: "Many Journeys", domain: "many.example.com" })).trackingKey;
    const site = (await call("GET", "/api/websites")).find((w) => w.name === "Many Journeys").id;
    const t0 = Date.now() - 3 * 3600_000;
    for (let i = 0; i < 23; i++) {
      const visitor = `v${String(i).padStart(3, "0")}-many-visits`;
      await track(key, visitor, "/", { timestamp: t0 + i * 60_000 });
      await track(key, visitor, "/pricing", { timestamp: t0 + i * 60_000 + 10_000 });
    }
    await page.goto(`/customer-journeys?website=${site}`);
    await waitForText(page.getByTestId("metric-Total Journeys").getByTestId("metric-value"), /^23$/);
    const pages = page.getByTestId("journey-pages");
    await waitForText(pages, "1-10 of 23");
    assert.equal(await page.getByTestId("journey-row").count(), 10);
    const first = await page.getByTestId("journey-row").first().textContent();
    await pages.getByRole("button", { name: "Next" }).click();
    await waitForText(pages, "11-20 of 23");
    assert.notEqual(await page.getByTestId("journey-row").first().textContent(), first);
    await pages.getByRole("button", { name: "Next" }).click();
    await waitForText(pages, "21-23 of 23");
    assert.equal(await page.getByTestId("journey-row").count(), 3);
    assert.ok(await pages.getByRole("button", { name: "Next" }).isDisabled());
    // The common paths begin within two screens of the top, not thousands of pixels down.
    const paths = await page.getByTestId("journey-paths").boundingBox();
    assert.ok(paths.y < 1800, `Common Paths at ${paths.y}px`);
    // The details column stays beside the list while the page scrolls.
    await page.mouse.wheel(0, 600);
    await page.getByTestId("journey-detail").waitFor();
  });
});
