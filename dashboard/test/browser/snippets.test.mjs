// Every snippet variant of the Tracking Code dialog, copied from the dialog onto a test page on its own
// origin, in headless Chromium against the real daemon: its page view and a custom event sent through the
// variant's own API are counted. The Legacy variant keeps a visitor_session id in localStorage only without
// a consent requirement or after consent, as the dialog says.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { launchBrowser, screenshot, startDaemon, startDemoSite, waitForText } from "./helpers.mjs";

const VISITOR_UA = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

/** Polls `read` until `ok(value)`, failing after `timeout` ms with the last value. */
async function until(what, read, ok, timeout = 15_000) {
  const deadline = Date.now() + timeout;
  let last;
  while (Date.now() < deadline) {
    last = await read();
    if (ok(last)) return last;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what} not seen within ${timeout} ms: ${JSON.stringify(last)}`);
}

const VARIANTS = [
  { tab: "Default", send: () => window.tracker.track("variant_event", { via: "default" }), pattern: /\/tracking\/[\w-]+\.js"/ },
  { tab: "Basic", send: () => window.tracker.track("variant_event", { via: "basic" }), pattern: /\/tracking\.js" data-tracking-key="/ },
  { tab: "Professional", send: () => window.tracer.track("variant_event", { via: "tracer" }), pattern: /new Tracer\(\{ websiteId: "[\w-]+", async: true, debug: false \}\)/ },
  { tab: "Legacy", send: () => window.event("variant_event", { via: "legacy" }), pattern: /\/tracking\/legacy\.js" data-tracking-key="/ },
];

describe("tracking snippet variants", () => {
  let daemon, browser, page, token;
  let snippet = "";
  let demo;
  const api = async (method, path, body) => {
    const res = await fetch(daemon.url + path, {
      method,
      headers: { Authorization: `Bearer ${token}`, ...(body ? { "Content-Type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    assert.ok(res.ok, `${method} ${path}: ${res.status}`);
    return res.json();
  };

  before(async () => {
    daemon = await startDaemon();
    browser = await launchBrowser();
    const res = await fetch(`${daemon.url}/api/register`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email: "snippets@example.com", password: "correct-horse" }),
    });
    const session = await res.json();
    token = session.accessToken;
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, baseURL: daemon.url });
    await context.addInitScript(([a, r]) => {
      if (!localStorage.getItem("accessToken")) {
        localStorage.setItem("accessToken", a);
        localStorage.setItem("refreshToken", r);
      }
    }, [session.accessToken, session.refreshToken]);
    page = await context.newPage();
    demo = await startDemoSite(() => snippet);
  });

  after(async () => {
    await browser?.close();
    await demo?.stop();
    await daemon?.stop();
  });

  /** The snippet of `tab` in the Tracking Code dialog of `site`. */
  async function copySnippet(site, tab) {
    await page.goto("/websites");
    const card = page.getByTestId("website-card").filter({ hasText: site.name });
    await card.getByRole("button", { name: "Get Code" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("tab", { name: tab }).click();
    if (tab === "Legacy") {
      await waitForText(dialog.getByTestId("snippet-variant-description"), "stores an id (visitor_session) on the visitor's device");
      await screenshot(page, "tracking-code-legacy-1400");
    }
    const text = (await dialog.getByTestId("embed-snippet").textContent()).trim();
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
    return text;
  }

  /** A visitor's page on the demo site carrying `text`. */
  async function visit(text) {
    snippet = text;
    const context = await browser.newContext({ userAgent: VISITOR_UA });
    const visitor = await context.newPage();
    await visitor.goto(`${demo.url}/index.html`);
    return { context, visitor };
  }

  for (const variant of VARIANTS) {
    it(`${variant.tab}: its page view and custom event are counted`, async () => {
      const site = await api("POST", "/api/websites", { name: `Variant ${variant.tab}`, domain: `https://${variant.tab.toLowerCase()}.acme.example`, trackingLevel: "light" });
      const text = await copySnippet(site, variant.tab);
      assert.match(text, variant.pattern);
      assert.ok(text.includes(site.trackingKey) && text.includes(daemon.url), text);
      const { context, visitor } = await visit(text);
      await visitor.waitForFunction(() => window.tracker && window.tracker._ && window.tracker._.c.trackingKey);
      await visitor.evaluate(variant.send);
      const overview = await until(
        "a page view",
        () => api("GET", `/api/dashboard/overview?website_id=${site.id}&range=1d`),
        (o) => o.metrics.pageViews >= 1,
      );
      assert.equal(overview.metrics.pageViews, 1);
      const summary = await until(
        "the custom event",
        () => api("GET", `/api/websites/${site.id}/events/summary?timeRange=24h`),
        (s) => s.topEvents.some((e) => e.name === "variant_event"),
      );
      assert.equal(summary.topEvents.find((e) => e.name === "variant_event").count, 1);
      const kept = await visitor.evaluate(() => localStorage.getItem("visitor_session"));
      if (variant.tab === "Legacy") assert.equal(kept, await visitor.evaluate(() => window.tracker._.s), "no consent required: the id is kept");
      else assert.equal(kept, null, "only the Legacy variant stores an id in localStorage");
      await context.close();
    });
  }

  it("Legacy: with consent required, the id is written only after the visitor consents", async () => {
    const site = await api("POST", "/api/websites", { name: "Variant Consent", domain: "https://consent.acme.example", trackingLevel: "light" });
    await api("PUT", "/api/privacy/settings", { websiteId: site.id, cookieConsent: true });
    const text = await copySnippet(site, "Legacy");
    const { context, visitor } = await visit(text);
    await visitor.waitForFunction(() => window.tracker && window.tracker._ && window.tracker._.c.trackingKey);
    await until("the anonymous page view", () => api("GET", `/api/dashboard/overview?website_id=${site.id}&range=1d`), (o) => o.metrics.pageViews >= 1);
    assert.equal(await visitor.evaluate(() => localStorage.getItem("visitor_session")), null, "nothing stored before consent");
    await visitor.evaluate(() => window.tracker.consent({ analytics: true, marketing: false }));
    const kept = await until("the kept id", () => visitor.evaluate(() => localStorage.getItem("visitor_session")), (v) => v !== null);
    assert.equal(kept, await visitor.evaluate(() => window.tracker._.s));
    // Withdrawn consent removes it again.
    await visitor.evaluate(() => window.tracker.consent({ analytics: false, marketing: false }));
    assert.equal(await visitor.evaluate(() => localStorage.getItem("visitor_session")), null);
    await context.close();
  });
});
