// The app shell on a phone-sized screen (390 px): the page gets the whole width (no sidebar column beside
// it), the navigation slides in from the top bar's menu button, following a link closes it, Escape closes
// it, and at 1400 px the sidebar is always shown with no menu button.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { launchBrowser, screenshot, startDaemon } from "./helpers.mjs";
import { overflowsHorizontally, ownerWithSites } from "./site-owner.mjs";

describe("app shell at 390 px", () => {
  let daemon, browser, context, page;

  before(async () => {
    daemon = await startDaemon();
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 390, height: 844 }, baseURL: daemon.url });
    page = await context.newPage();
    page.on("pageerror", (e) => console.error("page error:", e));
    await ownerWithSites(page, daemon.url, "shell-narrow@example.com", [{ name: "Phone Site", domain: "phone.example.com", trackingLevel: "light" }]);
  });

  after(async () => {
    await browser?.close();
    await daemon?.stop();
  });

  const navigation = () => page.getByRole("navigation", { name: "Main" });
  // The sidebar is off-screen (translated left of the viewport) when closed.
  const navigationOnScreen = () => navigation().evaluate((el) => el.getBoundingClientRect().right > 0);

  it("gives the page the whole width and opens the navigation from the menu button", async () => {
    await page.goto("/websites");
    await page.getByRole("heading", { name: "Websites" }).first().waitFor();
    const main = await page.locator("main").boundingBox();
    assert.ok(main && main.x === 0 && main.width === 390, `main spans the screen, got ${JSON.stringify(main)}`);
    assert.equal(await overflowsHorizontally(page), false, "nothing sticks out of a 390 px screen");
    assert.equal(await navigationOnScreen(), false, "the navigation starts closed");

    await page.getByRole("button", { name: "Open navigation" }).click();
    await page.waitForFunction(() => document.querySelector("#main-navigation")?.getBoundingClientRect().left === 0);
    await screenshot(page, "shell-390-navigation-open");
    await navigation().getByRole("link", { name: "Funnels" }).click();
    await page.waitForURL(/\/funnels$/);
    await page.waitForFunction(() => (document.querySelector("#main-navigation")?.getBoundingClientRect().right ?? 1) <= 0);

    await page.getByRole("button", { name: "Open navigation" }).click();
    await page.waitForFunction(() => document.querySelector("#main-navigation")?.getBoundingClientRect().left === 0);
    await page.keyboard.press("Escape");
    await page.waitForFunction(() => (document.querySelector("#main-navigation")?.getBoundingClientRect().right ?? 1) <= 0);
  });

  it("keeps the sidebar beside the page at 1400 px, without a menu button", async () => {
    await page.setViewportSize({ width: 1400, height: 900 });
    await page.goto("/websites");
    await page.getByRole("heading", { name: "Websites" }).first().waitFor();
    assert.equal(await navigationOnScreen(), true);
    assert.equal(await page.getByRole("button", { name: "Open navigation" }).isVisible(), false);
    const main = await page.locator("main").boundingBox();
    assert.ok(main && main.x === 0 && main.width === 1400);
    const content = await page.locator("main > div").boundingBox();
    assert.ok(content && content.x >= 256, `the content starts right of the sidebar, got x=${content?.x}`);
  });
});
