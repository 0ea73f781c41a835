// The Organizations screen (/organizations) in Chromium against the real daemon: the empty state, visits from
// company and university networks (through ingest, from public addresses), nothing guessed about them, the
// owner's edit with its validation, the Visit link, sorting, the cards and insights, and 390 px.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { launchBrowser, screenshot, startDaemon, waitForText, waitForToast } from "./helpers.mjs";
import { overflowsHorizontally, ownerWithSites, track } from "./site-owner.mjs";

// Public addresses the bundled ASN data maps to organizations (not providers).
const GOOGLE = "8.8.8.8"; // Google LLC, confidence 90
const BERKELEY = "128.32.0.1"; // University of California at Berkeley, confidence 85

// Below 1024 px the shell's sidebar slides in from a menu button, so at 390 px the screen has the whole width.
describe("organizations screen", () => {
  let daemon, browser, page, owner, site;

  before(async () => {
    daemon = await startDaemon();
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, baseURL: daemon.url });
    page = await context.newPage();
    page.on("pageerror", (e) => console.error("page error:", e));
    owner = await ownerWithSites(page, daemon.url, "orgs-owner@example.com", [
      { name: "B2B", domain: "b2b.example.com", trackingLevel: "professional" },
    ]);
    site = owner.sites[0];
  });

  after(async () => {
    await browser?.close();
    await daemon?.stop();
  });

  it("shows the empty state and no insights before any organization visits", async () => {
    await page.goto("/organizations");
    await page.getByRole("heading", { name: "Organization Intelligence" }).waitFor();
    await page.getByText("No organizations detected yet").waitFor();
    await waitForText(page.getByTestId("metric-Total Organizations").getByTestId("metric-value"), "0");
    assert.equal(await page.getByTestId("organization-insights").count(), 0);
    await screenshot(page, "organizations-empty");
  });

  it("lists visiting organizations with nothing guessed about them", async () => {
    const visit = (session, ip) => track(daemon.url, { tracking_key: site.trackingKey, session_id: session, url: "https://b2b.example.com/" }, ip);
    await visit("org-browser-visit-1", GOOGLE);
    await visit("org-browser-visit-2", GOOGLE);
    await visit("org-browser-visit-3", BERKELEY);
    await page.reload();
    const rows = page.getByTestId("organization-row");
    await waitForText(rows.first(), "Google LLC");
    assert.equal(await rows.count(), 2);
    await waitForText(rows.first(), /Domain unknown\s*Unknown\s*other\s*United States\s*2\s*90%/);
    await waitForText(rows.nth(1), /University of California at Berkeley.*1\s*85%/);
    assert.equal(await page.getByRole("link", { name: "Visit", exact: true }).count(), 0, "no Visit without a domain");
    assert.match(await rows.first().getByText("90%").getAttribute("class"), /emerald/, "90 or more is green");
    assert.match(await rows.nth(1).getByText("85%").getAttribute("class"), /amber/, "75 to 89 is yellow");
    await waitForText(page.getByTestId("metric-Total Organizations").getByTestId("metric-value"), "2");
    await waitForText(page.getByTestId("metric-B2B Sessions").getByTestId("metric-value"), "3");
    await waitForText(page.getByTestId("metric-Enterprise Visitors").getByTestId("metric-value"), "0");
    await waitForText(page.getByTestId("metric-Avg Confidence").getByTestId("metric-value"), "88%");
    await waitForText(page.getByTestId("insight-Enterprise share"), "0%");
    await waitForText(page.getByTestId("insight-High confidence (80%+)"), "2");
    await waitForText(page.getByTestId("insight-Industries"), "0");
    await screenshot(page, "organizations-1400");
  });

  it("sorts by name, confidence, recency and sessions", async () => {
    const sort = page.getByRole("combobox", { name: "Sort by" });
    const first = page.getByTestId("organization-row").first();
    await sort.selectOption("name");
    await page.waitForURL(/sort=name/);
    await waitForText(first, "Google LLC"); // G before U
    await sort.selectOption("recent");
    await waitForText(first, "University of California at Berkeley");
    await sort.selectOption("confidence");
    await waitForText(first, "Google LLC");
    await sort.selectOption("sessions");
    await waitForText(first, "Google LLC");
  });

  it("takes the owner's domain, industry and size, refusing a domain that is not a host name", async () => {
    await page.getByRole("button", { name: "Edit Google LLC" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.locator("#org-domain").fill("javascript:alert(1)");
    await dialog.getByRole("button", { name: "Save" }).click();
    await waitForText(dialog.getByRole("alert"), "Enter a domain such as example.com");
    await dialog.locator("#org-domain").fill("https://Example.com/");
    await dialog.locator("#org-industry").fill("Technology");
    await dialog.locator("#org-size").selectOption("enterprise");
    await dialog.getByRole("button", { name: "Save" }).click();
    await waitForToast(page, "Organization Updated");
    const row = page.getByTestId("organization-row").first();
    await waitForText(row, /Google LLC\s*example\.com\s*Technology\s*enterprise/);
    const visit = row.getByRole("link", { name: "Visit", exact: true });
    assert.equal(await visit.getAttribute("href"), "https://example.com/");
    assert.equal(await visit.getAttribute("target"), "_blank");
    assert.match(await visit.getAttribute("rel"), /\bnoopener\b/);
    await waitForText(page.getByTestId("metric-Enterprise Visitors").getByTestId("metric-value"), "2");
    await waitForText(page.getByTestId("insight-Enterprise share"), "50%");
    await waitForText(page.getByTestId("insight-Industries"), "1");
    const stored = await owner.api("GET", `/api/websites/${site.id}/organizations`);
    assert.deepEqual(
      stored.filter((o) => o.domain).map((o) => [o.organizationName, o.domain, o.industry, o.size]),
      [["Google LLC", "example.com", "Technology", "enterprise"]],
    );
    await screenshot(page, "organizations-edited");
  });

  it("fits a 390 px column (the table scrolls inside its card)", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/organizations");
    await page.getByTestId("organization-row").first().waitFor();
    assert.equal(await overflowsHorizontally(page), false);
    await screenshot(page, "organizations-390-column");
  });
});
