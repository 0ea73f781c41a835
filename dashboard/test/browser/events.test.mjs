// The Events screen (/events) in Chromium against the real daemon: empty states, the Create Event dialog's
// validation (nothing sent), the conversion value field, a definition created, counted from real hits,
// deactivated, edited and deleted, and the layout at 390 px.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { launchBrowser, screenshot, startDaemon, waitForText, waitForToast } from "./helpers.mjs";
import { overflowsHorizontally, ownerWithSites, track } from "./site-owner.mjs";

// Below 1024 px the shell's sidebar slides in from a menu button, so at 390 px the screen has the whole width.
describe("events screen", () => {
  let daemon, browser, page, owner, site;
  const posts = [];

  before(async () => {
    daemon = await startDaemon();
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, baseURL: daemon.url });
    page = await context.newPage();
    page.on("pageerror", (e) => console.error("page error:", e));
    page.on("request", (r) => {
      if (r.method() === "POST" && r.url().includes("/event-definitions")) posts.push(r.postData());
    });
    owner = await ownerWithSites(page, daemon.url, "events-owner@example.com", [
      { name: "Shop", domain: "shop.example.com", trackingLevel: "enhanced" },
    ]);
    site = owner.sites[0];
  });

  after(async () => {
    await browser?.close();
    await daemon?.stop();
  });

  it("shows the title, the four cards at zero and both empty states", async () => {
    await page.goto("/events");
    await page.getByRole("heading", { name: "Advanced Event Tracking" }).waitFor();
    await page.waitForURL(new RegExp(`website=${site.id}`));
    for (const card of ["Total Events", "Unique Events", "Conversions", "Definitions"]) {
      await waitForText(page.getByTestId(`metric-${card}`).getByTestId("metric-value"), "0");
    }
    await page.getByText("No event definitions yet. Create one to start capturing events.").waitFor();
    await page.getByText("No events tracked in this period").waitFor();
    assert.equal(await page.getByRole("combobox", { name: "Time range" }).inputValue(), "7d", "7d by default");
    await screenshot(page, "events-empty-1400");
  });

  it("refuses a blank event name or display name without sending anything", async () => {
    await page.getByRole("button", { name: "Create Event" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("heading", { name: "Create Event" }).waitFor();
    await dialog.getByRole("button", { name: "Create Event" }).click();
    let toast = await waitForToast(page, "Required Fields Missing");
    await waitForText(toast, "Please fill in the event name and display name.");
    await dialog.locator("#event-name").fill("signup_click");
    await dialog.locator("#event-display-name").fill("   ");
    await dialog.getByRole("button", { name: "Create Event" }).click();
    toast = await waitForToast(page, "Required Fields Missing");
    await screenshot(page, "events-required-fields-missing");
    assert.equal(posts.length, 0, "nothing was sent");
  });

  it("shows the conversion value only while 'Mark as Conversion Event' is on", async () => {
    const dialog = page.getByRole("dialog");
    assert.equal(await dialog.locator("#event-conversion-value").count(), 0);
    await dialog.getByRole("switch").click();
    await dialog.locator("#event-conversion-value").waitFor();
    await dialog.getByRole("switch").click();
    await dialog.locator("#event-conversion-value").waitFor({ state: "detached" });
  });

  it("shows the server's reason when a click event has no selector", async () => {
    const dialog = page.getByRole("dialog");
    await dialog.locator("#event-display-name").fill("Signup Click");
    await dialog.getByRole("button", { name: "Create Event" }).click();
    const toast = await waitForToast(page, "Error");
    await waitForText(toast, "Failed to create event definition. Please try again.");
    await waitForText(dialog.getByRole("alert"), "selector is required for click and submit events");
    assert.equal(posts.length, 1);
  });

  it("creates a conversion definition and lists it", async () => {
    const dialog = page.getByRole("dialog");
    await dialog.locator("#event-selector").fill("#signup");
    await dialog.getByRole("switch").click();
    await dialog.locator("#event-conversion-value").fill("49.99");
    await dialog.getByRole("button", { name: "Create Event" }).click();
    const toast = await waitForToast(page, "Event Definition Created");
    await waitForText(toast, "Your new event definition has been created successfully.");
    await dialog.waitFor({ state: "detached" });
    const row = page.getByTestId("event-definition");
    await waitForText(row, "Signup Click");
    for (const text of ["click", "Conversion · 49.99", "Active", "No description", "#signup", "Created Just now", "0 triggers"]) {
      await waitForText(row, text);
    }
    await waitForText(page.getByTestId("metric-Definitions").getByTestId("metric-value"), "1");
    assert.deepEqual(JSON.parse(posts.at(-1)), {
      name: "signup_click",
      displayName: "Signup Click",
      description: "",
      eventType: "click",
      selector: "#signup",
      isConversion: true,
      conversionValue: "49.99",
    });
  });

  it("counts the definition's triggers and the top events from real hits", async () => {
    const hit = (name) => ({ tracking_key: site.trackingKey, session_id: "events-visitor-1", url: "https://shop.example.com/", event: "custom", event_name: name });
    for (const name of ["signup_click", "signup_click", "signup_click", "video_play"]) await track(daemon.url, hit(name));
    await page.reload();
    await waitForText(page.getByTestId("metric-Total Events").getByTestId("metric-value"), "4");
    await waitForText(page.getByTestId("metric-Unique Events").getByTestId("metric-value"), "2");
    const top = page.getByTestId("top-event");
    await waitForText(top.first(), /1\s*signup_click\s*3 triggers/);
    await waitForText(top.nth(1), /2\s*video_play\s*1 trigger\b/);
    await waitForText(page.getByTestId("definition-triggers"), "3 triggers");
    await screenshot(page, "events-data-1400");
  });

  it("filters the cards, triggers and top events by a clicked event", async () => {
    await page.getByTestId("top-event").nth(1).getByRole("button").click();
    await page.waitForURL(/filters=/);
    assert.deepEqual(JSON.parse(new URL(page.url()).searchParams.get("filters")), [["is", "event:name", ["video_play"]]]);
    await waitForText(page.getByTestId("filter-bar"), "video_play");
    await waitForText(page.getByTestId("metric-Total Events").getByTestId("metric-value"), "1");
    await waitForText(page.getByTestId("definition-triggers"), "0 triggers");
    await page.reload();
    await waitForText(page.getByTestId("top-event").first(), /1\s*video_play\s*1 trigger\b/);
    await page.getByTestId("filter-bar").getByRole("button", { name: /Remove/ }).first().click();
    await page.waitForURL((url) => !url.searchParams.has("filters"));
    await waitForText(page.getByTestId("metric-Total Events").getByTestId("metric-value"), "4");
  });

  it("deactivates, edits and deletes a definition", async () => {
    await page.getByRole("switch", { name: "Deactivate Signup Click" }).click();
    await waitForText(page.getByTestId("event-definition"), "Inactive");
    const config = await (await fetch(`${daemon.url}/api/track/config?tracking_key=${site.trackingKey}`)).json();
    assert.deepEqual(config.definitions, [], "the scripts stop firing it");

    await page.getByRole("button", { name: "Edit Signup Click" }).click();
    const dialog = page.getByRole("dialog");
    assert.equal(await dialog.locator("#event-name").inputValue(), "signup_click");
    await dialog.locator("#event-display-name").fill("Sign-up button");
    await dialog.locator("#event-description").fill("The hero's button");
    await dialog.getByRole("button", { name: "Save Changes" }).click();
    await waitForToast(page, "Event Definition Updated");
    await waitForText(page.getByTestId("event-definition"), "Sign-up button");
    await waitForText(page.getByTestId("event-definition"), "The hero's button");

    await page.getByRole("button", { name: "Delete Sign-up button" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
    await waitForToast(page, "Event Definition Deleted");
    await page.getByText("No event definitions yet. Create one to start capturing events.").waitFor();
    assert.deepEqual(await owner.api("GET", `/api/websites/${site.id}/event-definitions`), []);
  });

  it("keeps the range in the URL and fits a 390 px column", async () => {
    await page.getByRole("combobox", { name: "Time range" }).selectOption("30d");
    await page.waitForURL(/range=30d/);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole("button", { name: "Create Event" }).click();
    await page.getByRole("dialog").locator("#event-name").waitFor();
    assert.equal(await overflowsHorizontally(page), false);
    await screenshot(page, "events-dialog-390-column");
    await page.keyboard.press("Escape");
    await page.getByRole("dialog").waitFor({ state: "detached" });
    assert.equal(await overflowsHorizontally(page), false);
    await screenshot(page, "events-390-column");
  });
});
