// Settings → Security → API Keys in headless Chromium against the real daemon (issue 36): create a read key,
// see its secret once (and copy it), use it from outside the browser within its scope, see its last use in the
// list, revoke it with the confirmation, and see it refused.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { launchBrowser, screenshot, startDaemon, waitForText, waitForToast } from "./helpers.mjs";

const email = "keys-owner@example.com";
const password = "correct-horse";

describe("API keys in Settings", () => {
  let daemon, browser, context, page;
  const withKey = (key, method, path, body) =>
    fetch(daemon.url + path, {
      method,
      headers: { Authorization: `Bearer ${key}`, ...(body ? { "Content-Type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });

  before(async () => {
    daemon = await startDaemon();
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1400, height: 900 }, baseURL: daemon.url });
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: daemon.url });
    page = await context.newPage();
    page.on("pageerror", (e) => console.error("page error:", e));
    const res = await fetch(`${daemon.url}/api/register`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email, password }),
    });
    assert.equal(res.status, 201);
    await page.goto("/auth");
    await page.locator("#signin-email").fill(email);
    await page.locator("#signin-password").fill(password);
    await page.getByRole("button", { name: "Sign In" }).click();
    await page.waitForURL((u) => u.pathname === "/");
  });

  after(async () => {
    await browser?.close();
    await daemon?.stop();
  });

  it("creates a key shown once, which works within its scope until revoked", async () => {
    await page.goto("/settings?tab=security");
    const card = page.getByTestId("api-keys");
    await waitForText(card, "No API keys yet.");

    await card.getByRole("button", { name: "Create API Key" }).click();
    const form = page.getByRole("form", { name: "Create API Key" });
    await form.locator("#api-key-name").fill("Browser test");
    await form.locator("#api-key-scope").selectOption("read");
    await form.getByRole("button", { name: "Create Key" }).click();

    const shown = page.getByTestId("api-key-secret");
    await shown.waitFor();
    const secret = (await shown.textContent()).trim();
    assert.match(secret, /^trk_[A-Za-z0-9_-]{43}$/);
    const dialog = page.getByRole("dialog", { name: "API Key Created" });
    await waitForText(dialog, "it will not be shown again");
    await dialog.getByRole("button", { name: "Copy Key" }).click();
    await waitForToast(page, "Key copied!");
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), secret);
    await screenshot(page, "api-keys-created");
    await dialog.getByRole("button", { name: "Done" }).click();
    await dialog.waitFor({ state: "detached" });

    // Listed without its secret: name, scope, prefix, never used.
    const row = card.getByTestId("api-key");
    await waitForText(row, "Browser test");
    const listed = await row.textContent();
    assert.match(listed, /read/);
    assert.ok(listed.includes(secret.slice(0, 10)), listed);
    assert.match(listed, /Never used/);
    assert.ok(!(await page.content()).includes(secret), "the secret is no longer on the page");

    // Used from outside the browser: it reads, it does not write.
    assert.equal((await withKey(secret, "GET", "/api/websites")).status, 200);
    const write = await withKey(secret, "POST", "/api/websites", { name: "No", domain: "no.example.com" });
    assert.equal(write.status, 403);
    assert.match((await write.json()).error.message, /read-only/);
    await page.reload();
    await waitForText(card.getByTestId("api-key"), /Last used/);

    // Revoked after the confirmation: gone from the list, refused at once.
    await card.getByRole("button", { name: "Revoke Browser test" }).click();
    const confirm = page.getByRole("dialog", { name: "Revoke API key?" });
    await confirm.getByRole("button", { name: "Revoke" }).click();
    await waitForToast(page, "API key revoked");
    await waitForText(card, "No API keys yet.");
    assert.equal((await withKey(secret, "GET", "/api/websites")).status, 401);
  });

  it("fits a 390 px screen", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/settings?tab=security");
    const card = page.getByTestId("api-keys");
    await card.getByRole("button", { name: "Create API Key" }).waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.equal(overflow, 0, "no horizontal scroll");
    await screenshot(page, "api-keys-390");
  });
});
