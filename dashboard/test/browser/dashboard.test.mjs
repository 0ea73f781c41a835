// End-to-end tests of the dashboard in headless Chromium against the real daemon (see helpers.mjs):
// sign up, protected redirect, 404, websites, tracking code, a real visit seen live, tabs, all sites,
// logout and sign in. Each screen is saved to tests/screenshots/.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { launchBrowser, screenshot, startDaemon, startDemoSite, waitForText, waitForToast } from "./helpers.mjs";

const logPageError = (e) => console.error("page error:", e);
const email = `owner-${Date.now()}@example.com`;
const password = "correct-horse";
const VISITOR_UA = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

describe("dashboard in a browser", () => {
  let daemon, browser, context, page, demo;
  let copiedSnippet = "";
  let websiteId;

  before(async () => {
    daemon = await startDaemon();
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1440, height: 900 }, baseURL: daemon.url });
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: daemon.url });
    page = await context.newPage();
    page.on("pageerror", logPageError);
    demo = await startDemoSite(() => copiedSnippet);
  });

  after(async () => {
    await browser?.close();
    await demo?.stop();
    await daemon?.stop();
  });

  it("redirects a signed-out visitor from a protected route to /auth", async () => {
    await page.goto("/websites");
    await page.waitForURL("**/auth");
    await page.getByRole("tab", { name: "Sign In", selected: true }).waitFor();
    await page.getByText("Website analytics made simple").waitFor();
    await screenshot(page, "01-auth-sign-in");
  });

  it("shows the 404 page for unknown paths with status 404", async () => {
    const res = await page.goto("/no-such-page");
    assert.equal(res.status(), 404);
    await page.getByRole("heading", { name: "404 Page Not Found" }).waitFor();
    assert.equal(await page.title(), "Page Not Found · tracker");
    assert.equal(await page.getByText("404", { exact: true }).count(), 0, "404 is said once, in the heading");
    await screenshot(page, "02-not-found");
  });

  it("signs up and lands on the overview", async () => {
    await page.goto("/auth");
    await page.getByRole("tab", { name: "Sign Up" }).click();
    await page.getByPlaceholder("Create a password (min 6 characters)").waitFor();
    await screenshot(page, "03-auth-sign-up");
    await page.locator("#signup-email").fill(email);
    await page.locator("#signup-password").fill(password);
    await page.getByRole("button", { name: "Create Account" }).click();
    await page.waitForURL((u) => u.pathname === "/");
    await waitForText(page.getByTestId("user-email"), email);
    await page.getByText("No Websites Found").waitFor();
    await screenshot(page, "04-overview-no-websites");
  });

  it("adds a website through the dialog, with the Missing information case", async () => {
    await page.getByRole("link", { name: "Websites" }).click();
    await page.waitForURL("**/websites");
    await page.getByText("Get started by adding your first website...").waitFor();
    await page.getByRole("button", { name: "Add Website" }).first().click();
    const dialog = page.getByRole("dialog");
    await dialog.waitFor();
    await dialog.locator("#add-name").fill("   ");
    await dialog.locator("#add-domain").fill("example.com");
    await dialog.getByRole("button", { name: "Add Website" }).click();
    const missing = await waitForToast(page, "Missing information");
    await waitForText(missing, "Please fill in both website name and domain.");
    await screenshot(page, "05-add-website-missing-information");
    assert.equal(await page.getByTestId("website-card").count(), 0, "nothing was sent");

    await dialog.locator("#add-name").fill("  Acme Coffee  ");
    await dialog.getByRole("button", { name: "Add Website" }).click();
    const ready = await waitForToast(page, "Tracking Code Ready");
    await waitForText(ready, /\/tracking\/[\w-]+\.js/);
    const card = page.getByTestId("website-card");
    await card.waitFor();
    await waitForText(card, "Acme Coffee");
    await waitForText(card, "https://example.com");
    await screenshot(page, "06-websites");

    // F8 focuses the toast region; a swipe of more than 50 px to the right dismisses the toast.
    await page.keyboard.press("F8");
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute("data-testid")), "toast-region");
    const box = await ready.boundingBox();
    await page.mouse.move(box.x + 20, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + 50, box.y + box.height / 2, { steps: 3 });
    await page.mouse.move(box.x + 90, box.y + box.height / 2, { steps: 3 });
    await page.mouse.up();
    await ready.waitFor({ state: "detached" });
  });

  it("copies the embed snippet from the Tracking Code dialog", async () => {
    await page.getByRole("button", { name: "Get Code" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByText("Basic pageview and event tracking.").waitFor();
    await waitForText(dialog, "window.tracker.track('purchase', {value: 49.99, currency: 'USD'})");
    await dialog.getByRole("button", { name: "Copy Code" }).click();
    await waitForToast(page, "Tracking code copied!");
    await dialog.getByRole("button", { name: "Copied!" }).waitFor();
    copiedSnippet = await page.evaluate(() => navigator.clipboard.readText());
    assert.match(copiedSnippet, new RegExp(`^<script async src="${daemon.url}/tracking/[\\w-]+\\.js"></script>$`));
    assert.equal(copiedSnippet, (await dialog.getByTestId("embed-snippet").textContent()).trim());
    await screenshot(page, "07-tracking-code-dialog");
    await dialog.getByRole("button", { name: "Copy Code" }).waitFor({ timeout: 5000 }); // back after 2 s
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
  });

  it("shows the analytics dashboard tabs with their empty states", async () => {
    await page.getByRole("link", { name: "Analytics", exact: true }).click();
    await page.waitForURL(/\/dashboard\?website=\d+/);
    websiteId = Number(new URL(page.url()).searchParams.get("website"));
    await page.getByRole("heading", { name: "Analytics Dashboard" }).waitFor();
    await waitForText(page.getByTestId("site-card"), "Acme Coffee");
    await waitForText(page.getByTestId("dashboard-period"), "Last 30 days");
    await page.waitForFunction(() => document.title === "Analytics Dashboard · Acme Coffee · tracker");
    await page.getByText("No page data available").waitFor();
    await page.getByText("No referrer data available").waitFor();
    await screenshot(page, "08-analytics-overview-tab");
    await page.getByRole("tab", { name: "Visitors" }).click();
    await page.getByText("No identified visitors yet").waitFor();
    await page.getByText("No country data available").waitFor();
    await screenshot(page, "09-analytics-visitors-tab");
    await page.getByRole("tab", { name: "Traffic" }).click();
    await page.getByText("No traffic data available").waitFor();
    await screenshot(page, "10-analytics-traffic-tab");
    await page.getByRole("tab", { name: "Conversions" }).click();
    await page.getByText("No conversions tracked yet").waitFor();
    await waitForText(page.getByTestId("metric-Conversions"), "No conversions");
    await screenshot(page, "11-analytics-conversions-tab");

    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Export CSV" }).click()]);
    assert.equal(download.suggestedFilename(), `analytics-${websiteId}.csv`);
  });

  it("shows a failed read with Retry in its panel, and moves between tabs with the arrow keys", async () => {
    // The first referrers read fails; Retry reads again and the panel shows the real (empty) answer.
    let failures = 0;
    await page.route("**/api/websites/*/breakdown/referrer*", (route) => {
      failures += 1;
      return route.fulfill({ status: 500, contentType: "application/json", body: '{"error":{"message":"referrers down"}}' });
    });
    await page.goto(`/dashboard?website=${websiteId}`);
    const alert = page.getByRole("alert").filter({ hasText: "Could not load this data." });
    await waitForText(alert, "referrers down");
    await page.unroute("**/api/websites/*/breakdown/referrer*");
    await alert.getByRole("button", { name: "Retry" }).click();
    await page.getByText("No referrer data available").waitFor();
    assert.equal(failures, 1);
    await alert.waitFor({ state: "detached" });

    await page.getByRole("tab", { name: "Overview" }).focus();
    await page.keyboard.press("ArrowRight");
    await page.getByRole("tab", { name: "Visitors", selected: true }).waitFor();
    await page.getByText("No country data available").waitFor();
    await page.waitForURL(/[?&]tab=visitors/);
  });

  it("edits a website from the row menu, and the page stays usable after the menu and dialog close", async () => {
    await page.goto("/basic-dashboard");
    await page.getByRole("button", { name: "Actions for Acme Coffee" }).click();
    await page.getByRole("menuitem", { name: "Edit" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByText("Edit Website").waitFor();
    assert.equal(await dialog.locator("#site-name").inputValue(), "Acme Coffee");
    assert.equal(await page.evaluate(() => document.activeElement?.id), "site-name", "focus starts in the first field");
    await dialog.getByRole("button", { name: "Save Changes" }).click();
    await waitForToast(page, "Website updated");
    await dialog.waitFor({ state: "detached" });
    // Pointer events work again: the search field takes a click and typing.
    await page.getByPlaceholder("Search websites...").click();
    await page.keyboard.type("zzz");
    await page.getByText('No websites match "zzz"').waitFor();
  });

  it("sees a visit to a page carrying the snippet live, in Top Pages and in Total Visitors", async () => {
    await page.goto(`/?website=${websiteId}`);
    const live = page.getByTestId("live-visitors");
    await waitForText(live.getByTestId("live-status"), "Real-time");
    await live.getByText("No active visitors").waitFor();

    // A separate visitor with an ordinary browser's user agent: the server drops headless Chrome as a bot.
    const visitorContext = await browser.newContext({ userAgent: VISITOR_UA });
    const visitor = await visitorContext.newPage();
    await visitor.goto(`${demo.url}/index.html`);
    await visitor.waitForLoadState("load");
    await visitor.waitForFunction(() => typeof window.tracker?.track === "function");

    await waitForText(live, /Session \S{8}/, 10_000);
    await waitForText(live, "Active");
    await waitForText(live, "Just now");
    await visitorContext.close();

    await page.reload();
    await waitForText(page.getByTestId("top-pages"), "/index.html");
    await waitForText(page.getByTestId("metric-Total Visitors").getByTestId("metric-value"), /^1$/);
    await waitForText(page.getByTestId("metric-Page Views").getByTestId("metric-value"), /^1$/);
    await waitForText(page.getByTestId("metric-Total Visitors").getByTestId("metric-caption"), "vs last month");
    await page.getByTestId("traffic-chart").waitFor();
    await waitForText(page.getByTestId("recent-activity"), "Page view");
    await screenshot(page, "12-overview-with-visit");
  });

  it("keeps the period in the URL", async () => {
    await waitForText(page.getByTestId("range-picker"), "Last 30 days");
    await page.getByTestId("range-picker").click();
    await page.getByRole("menuitem", { name: "Last 90 days" }).click();
    await page.waitForURL(/[?&]range=90d/);
    await page.getByTestId("traffic-chart").waitFor();
    await page.reload();
    await waitForText(page.getByTestId("range-picker"), "Last 90 days");
    await page.getByTestId("traffic-chart").waitFor();
  });

  it("shows the live page", async () => {
    await page.getByRole("link", { name: "Live Visitors" }).click();
    await page.waitForURL("**/live*");
    await waitForText(page.getByTestId("live-status"), "Real-time");
    await page.waitForFunction(() => document.title === "Live Visitors · Acme Coffee · tracker");
    await waitForText(page.getByTestId("live-visitors"), /Session \S{8}/);
    await screenshot(page, "13-live");
  });

  it("lists sites with real per-period figures and validates the site form", async () => {
    await page.goto("/basic-dashboard");
    await page.getByRole("heading", { name: "All Sites" }).waitFor();
    const row = page.getByTestId("site-row").first();
    await waitForText(row, "Acme Coffee");
    const cells = row.locator("td");
    await waitForText(cells.nth(2), /^1$/); // Today, page views
    await waitForText(cells.nth(5), /^1$/); // Last 30 Days
    await page.getByRole("combobox", { name: "Metric" }).selectOption("visitors");
    await waitForText(cells.nth(2), /^1$/);
    await page.getByPlaceholder("Search websites...").fill("zzz");
    await page.getByText('No websites match "zzz"').waitFor();
    await page.getByPlaceholder("Search websites...").fill("ACME");
    await row.waitFor();
    await page.getByRole("checkbox", { name: "Select all websites" }).check();
    await page.getByText("1 selected").waitFor();
    await screenshot(page, "14-all-sites");

    await page.getByRole("button", { name: "Add Website" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("button", { name: "Add Website" }).click();
    await dialog.getByText("Website name is required").waitFor();
    await dialog.getByText("Domain is required").waitFor();
    await dialog.locator("#site-name").fill("Blog");
    await dialog.locator("#site-domain").fill("not a url");
    await dialog.getByRole("button", { name: "Add Website" }).click();
    await dialog.getByText("Please enter a valid URL").waitFor();
    await screenshot(page, "15-all-sites-validation");
    await page.keyboard.press("Escape");

    await page.getByRole("button", { name: "Actions for Acme Coffee" }).click();
    await page.getByRole("menuitem", { name: "Edit" }).waitFor();
    await page.getByRole("menuitem", { name: "Get Code" }).waitFor();
    await page.getByRole("menuitem", { name: "Delete" }).waitFor();
    await page.keyboard.press("Escape");
  });

  it("shows the error fallback page on a render failure and recovers with Try Again", async () => {
    // An answer of the wrong shape makes the overview fail to render.
    await page.route("**/api/dashboard/overview?*", (route) =>
      route.fulfill({ json: { metrics: {}, previous: {}, topPages: 42 } }),
    );
    page.off("pageerror", logPageError);
    await page.goto("/");
    await page.getByRole("heading", { name: "Something went wrong" }).waitFor();
    await page.getByText("We encountered an unexpected error. Please try again.").waitFor();
    await page.getByRole("button", { name: "Reload Page" }).waitFor();
    await page.getByRole("button", { name: "Go Home" }).waitFor();
    await screenshot(page, "19-error-fallback");
    await page.unroute("**/api/dashboard/overview?*");
    await page.getByRole("button", { name: "Try Again" }).click();
    await waitForText(page.getByTestId("top-pages"), "/index.html");
    page.on("pageerror", logPageError);
  });

  it("gives every sidebar item a page", async () => {
    await page.getByRole("link", { name: "Settings" }).click();
    await page.waitForURL("**/settings");
    await page.getByRole("heading", { name: "Profile Information" }).waitFor();
    const current = page.getByRole("link", { name: "Settings" });
    assert.equal(await current.getAttribute("aria-current"), "page");
    await screenshot(page, "16-settings");
  });

  it("logs out, then signs in again", async () => {
    await page.getByRole("button", { name: "Logout" }).click();
    await page.waitForURL("**/auth");
    assert.equal(await page.evaluate(() => localStorage.getItem("accessToken")), null);
    assert.equal(await page.evaluate(() => localStorage.getItem("refreshToken")), null);
    await page.goto("/");
    await page.waitForURL("**/auth");

    await page.getByRole("tab", { name: "Sign Up" }).click();
    await page.locator("#signup-email").fill(email);
    await page.locator("#signup-password").fill(password);
    await page.getByRole("button", { name: "Create Account" }).click();
    await waitForToast(page, "Registration failed");
    await page.getByRole("tab", { name: "Sign In" }).click();

    await page.locator("#signin-email").fill(email);
    await page.locator("#signin-password").fill("wrong-password");
    await page.getByRole("button", { name: "Sign In" }).last().click();
    await waitForToast(page, "Login failed");
    await screenshot(page, "17-login-failed");

    await page.locator("#signin-password").fill(password);
    await page.getByRole("button", { name: "Sign In" }).last().click();
    await page.waitForURL((u) => u.pathname === "/");
    await waitForText(page.getByTestId("user-email"), email);
  });

  it("deletes a website after confirmation", async () => {
    await page.getByRole("link", { name: "Websites" }).click();
    await page.getByRole("button", { name: "Delete Acme Coffee" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByText("Delete website?").waitFor();
    await screenshot(page, "18-delete-confirm");
    await dialog.getByRole("button", { name: "Delete", exact: true }).click();
    await waitForToast(page, "Website deleted");
    await page.getByText("Get started by adding your first website...").waitFor();
  });
});
