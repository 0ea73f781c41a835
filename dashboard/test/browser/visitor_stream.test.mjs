// The Visitor Stream in headless Chromium against the real daemon: the empty state, a visitor browsing a
// page that carries the real tracking snippet appearing within one poll (3 s), its Journey tab listing its
// pages in order, Paused stopping the polling, and the layout at 390 px and 1400 px.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { launchBrowser, screenshot, startDaemon, startDemoSite, waitForText } from "./helpers.mjs";

const VISITOR_UA = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const POLL_MS = 3000;
const email = `stream-${Date.now()}@example.com`;
const password = "correct-horse";

describe("visitor stream in a browser", () => {
  let daemon, browser, context, page, demo, site;
  let snippet = "";
  const livePolls = [];

  before(async () => {
    daemon = await startDaemon();
    const call = async (path, body, token) => {
      const res = await fetch(`${daemon.url}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify(body),
      });
      const text = await res.text();
      assert.ok(res.ok, `${path}: ${res.status} ${text}`);
      return JSON.parse(text);
    };
    const { accessToken } = await call("/api/register", { email, password });
    site = await call("/api/websites", { name: "Stream", domain: "stream.example.com", trackingLevel: "light" }, accessToken);
    snippet = `<script async src="${daemon.url}/tracking/${site.trackingKey}.js"></script>`;
    demo = await startDemoSite(() => snippet);
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1400, height: 900 }, baseURL: daemon.url });
    page = await context.newPage();
    page.on("pageerror", (e) => console.error("page error:", e));
    page.on("request", (r) => {
      if (r.url().includes("/api/analytics/live-visitors")) livePolls.push(Date.now());
    });
    await page.goto("/auth");
    await page.locator("#signin-email").fill(email);
    await page.locator("#signin-password").fill(password);
    await page.getByRole("button", { name: "Sign In" }).last().click();
    await page.waitForURL((u) => u.pathname === "/");
  });

  after(async () => {
    await browser?.close();
    await demo?.stop();
    await daemon?.stop();
  });

  it("shows the empty state while nobody is on the site", async () => {
    await page.goto(`/visitor-stream?website=${site.id}`);
    await page.getByText("No Active Visitors").waitFor();
    await waitForText(page.getByTestId("metric-Active Visitors").getByTestId("metric-value"), "0");
    await waitForText(page.getByTestId("metric-Top Page").getByTestId("metric-value"), "/");
    await waitForText(page.getByTestId("live-toggle"), "Live");
    await screenshot(page, "visitor-stream-empty");
  });

  it("shows a visitor browsing a tracked page within one poll, and its journey in order", async () => {
    const visitorContext = await browser.newContext({ userAgent: VISITOR_UA });
    const visitor = await visitorContext.newPage();
    await visitor.goto(`${demo.url}/index.html`);
    await visitor.waitForFunction(() => typeof window.tracker?.track === "function");
    // The hit is on disk when /api/track answers: from then on the next poll must show it.
    const tracked = visitor.waitForResponse((r) => r.url().includes("/api/track") && (r.request().postData() ?? "").includes("about.html"));
    await visitor.locator("#about-link").click();
    await visitor.waitForURL("**/about.html");
    assert.equal((await tracked).status(), 202);
    const visited = Date.now();

    const row = page.getByTestId("stream-session");
    // One poll interval plus the time one poll takes.
    await row.first().waitFor({ timeout: POLL_MS + 2000 });
    assert.ok(Date.now() - visited <= POLL_MS + 2000, "the visit shows within one poll");
    await waitForText(row.first().getByTestId("stream-activity"), "Viewing: /about.html", POLL_MS * 3);
    await waitForText(row.first().getByTestId("stream-location"), "Unknown Location");
    await waitForText(row.first(), "Browsing");
    await waitForText(row.first(), "Direct");
    await waitForText(page.getByTestId("metric-Active Visitors").getByTestId("metric-value"), "1");
    await waitForText(page.getByTestId("metric-New Today").getByTestId("metric-value"), "1");
    await screenshot(page, "visitor-stream-1400");

    await row.first().click();
    const panel = page.getByTestId("session-panel");
    await panel.getByRole("tab", { name: "Activity", selected: true }).waitFor();
    await waitForText(panel, "Entry Page/index.html");
    await panel.getByRole("tab", { name: "Journey" }).click();
    const pages = panel.getByTestId("journey-page");
    await pages.nth(1).waitFor();
    assert.deepEqual(await pages.allTextContents(), ["/index.html", "/about.html"]);
    await screenshot(page, "visitor-stream-journey");
    await page.keyboard.press("Escape");
    await panel.waitFor({ state: "detached" });
    await visitorContext.close();
  });

  it("stops polling while Paused and resumes when Live", async () => {
    const toggle = page.getByTestId("live-toggle");
    await toggle.click();
    await waitForText(toggle, "Paused");
    const paused = Date.now();
    // A request already in flight when the toggle flipped may still land.
    const before = livePolls.filter((t) => t <= paused + 200).length;
    await page.waitForTimeout(POLL_MS * 2 + 500);
    assert.equal(livePolls.length, before, "no polls while Paused");
    const resumed = page.waitForRequest((r) => r.url().includes("/api/analytics/live-visitors"), { timeout: POLL_MS + 2000 });
    await toggle.click();
    await waitForText(toggle, "Live");
    await resumed;
  });

  it("fits a 390 px wide phone", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await page.getByTestId("stream-cards").waitFor();
    await page.getByTestId("stream-session").first().waitFor();
    await screenshot(page, "visitor-stream-390");
    // At this width the shell's sidebar is a slide-in, so the stream has the whole screen: nothing of it may
    // stick out of the page's column.
    const wide = await page.evaluate(() => {
      const column = document.querySelector("main") ?? document.body;
      const right = column.getBoundingClientRect().right;
      return [...column.querySelectorAll("*")]
        .filter((e) => e.getBoundingClientRect().right > right + 0.5)
        .slice(0, 5)
        .map((e) => `${e.tagName}.${e.className}`);
    });
    assert.deepEqual(wide, [], `sticks out of the column: ${wide.join(" | ")}`);
    await page.setViewportSize({ width: 1400, height: 900 });
  });
});
