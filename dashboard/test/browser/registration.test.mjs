// The Sign Up tab under the default registration mode (first-user): the first account signs up, and the tab
// then says that sign-up is closed instead of offering a form that would fail (issue 12, finding 5).
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { launchBrowser, screenshot, startDaemon } from "./helpers.mjs";

describe("sign-up in first-user mode", () => {
  let daemon, browser, page;

  before(async () => {
    daemon = await startDaemon({ TRACKER_REGISTRATION: "first-user" });
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, baseURL: daemon.url });
    page = await context.newPage();
  });

  after(async () => {
    await browser?.close();
    await daemon?.stop();
  });

  it("lets the first account sign up, then says sign-up is closed", async () => {
    await page.goto("/auth");
    await page.getByRole("tab", { name: "Sign Up" }).click();
    await page.locator("#signup-email").fill("operator@example.com");
    await page.locator("#signup-password").fill("correct-horse");
    await page.getByRole("button", { name: "Create Account" }).click();
    await page.waitForURL((u) => u.pathname === "/");

    // A second visitor (no tokens) finds the tab closed.
    await page.evaluate(() => localStorage.clear());
    await page.goto("/auth");
    await page.getByRole("tab", { name: "Sign Up" }).click();
    await page.getByText("Sign-up is closed on this server").waitFor();
    assert.equal(await page.locator("#signup-email").count(), 0, "no form that would only fail");
    await screenshot(page, "registration-closed-390");
  });
});
