// Share links in headless Chromium against the real daemon (issue 37): the share page without a sign-in at 1400
// and 390 px shows the site's figures and none of the owner's screens; a password link asks for its password
// first; an embed link renders inside a page of an allowed origin (a tiny page on another loopback port), and
// the browser refuses to frame it in a page of any other origin.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { launchBrowser, screenshot, startDaemon, waitForText } from "./helpers.mjs";
import { overflowsHorizontally, track } from "./site-owner.mjs";

/** A page on its own loopback origin holding an iframe of `src()`; its `load` sets `window.framed`. */
async function framingPage(src) {
  const server = createServer((_req, res) => {
    res.writeHead(200, { "Content-Type": "text/html" });
    res.end(`<!doctype html><title>host</title><iframe id="embed" src="${src()}" width="1200" height="900" onload="window.framed = true"></iframe>`);
  });
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  return { url: `http://127.0.0.1:${server.address().port}`, stop: () => new Promise((ok) => server.close(ok)) };
}

describe("Share links", () => {
  let daemon, browser, allowed, other;
  const links = {};
  let embedSrc = "";

  before(async () => {
    daemon = await startDaemon();
    browser = await launchBrowser();
    allowed = await framingPage(() => embedSrc);
    other = await framingPage(() => embedSrc);
    const call = async (method, path, token, body) => {
      const res = await fetch(`${daemon.url}${path}`, {
        method,
        headers: { "Content-Type": "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      assert.ok(res.ok, `${method} ${path}: ${res.status} ${text}`);
      return JSON.parse(text);
    };
    const session = await call("POST", "/api/register", null, { email: "share-owner@example.com", password: "correct-horse" });
    const site = await call("POST", "/api/websites", session.accessToken, { name: "Shared Shop", domain: "shop.example" });
    for (const [n, path] of [[1, "/"], [1, "/pricing"], [2, "/blog"], [3, "/"]]) {
      const hit = { tracking_key: site.trackingKey, session_id: `visitor-${n}`, url: `https://shop.example${path}` };
      await track(daemon.url, hit, `198.51.100.${n}`);
    }
    const make = (body) => call("POST", `/api/websites/${site.id}/shared-links`, session.accessToken, body);
    links.open = await make({ name: "Public figures" });
    links.locked = await make({ name: "Client report", password: "opensesame" });
    links.embed = await make({ name: "Embedded", embed: true, allowedOrigins: [allowed.url] });
    embedSrc = `${links.embed.url}?embed=true&theme=light`;
  });

  after(async () => {
    await browser?.close();
    await allowed?.stop();
    await other?.stop();
    await daemon?.stop();
  });

  for (const width of [1400, 390]) {
    it(`shows the site's figures without a sign-in at ${width} px, and nothing of the owner's`, async () => {
      const context = await browser.newContext({ viewport: { width, height: 900 }, baseURL: daemon.url });
      const page = await context.newPage();
      page.on("pageerror", (e) => console.error("page error:", e));
      await page.goto(new URL(links.open.url).pathname);
      await waitForText(page.getByTestId("metric-Page Views").getByTestId("metric-value"), "4");
      await waitForText(page.getByTestId("metric-Total Visitors").getByTestId("metric-value"), "3");
      await waitForText(page.getByTestId("site-card"), "Shared Shop");
      await waitForText(page.getByTestId("share-header"), "Public figures");
      assert.equal(await page.getByText("Tracking key").count(), 0, "no tracking key");
      assert.equal(await page.getByRole("link", { name: "Settings" }).count(), 0, "no sidebar");
      assert.equal(await page.getByRole("button", { name: /Get Tracking Code|Export CSV|Share/ }).count(), 0, "no owner actions");
      assert.equal(await page.getByRole("tab", { name: "Conversions" }).count(), 0, "no per-event lists");
      await page.getByRole("tab", { name: "Traffic" }).click();
      await waitForText(page.getByTestId("traffic-sources"), "Direct");
      assert.equal(await overflowsHorizontally(page), false, "no horizontal scroll");
      assert.equal(await page.evaluate(() => localStorage.getItem("accessToken")), null, "no sign-in");
      await screenshot(page, `share-page-${width}`);
      await context.close();
    });
  }

  it("asks for a password link's password first", async () => {
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, baseURL: daemon.url });
    const page = await context.newPage();
    await page.goto(new URL(links.locked.url).pathname);
    const form = page.getByTestId("share-password-form");
    await form.waitFor();
    assert.equal(await page.getByTestId("metric-Page Views").count(), 0, "no figures before the password");
    await form.locator("#share-password").fill("wrong-guess");
    await form.getByRole("button", { name: "View dashboard" }).click();
    await waitForText(form, "Wrong password.");
    await form.locator("#share-password").fill("opensesame");
    await form.getByRole("button", { name: "View dashboard" }).click();
    await waitForText(page.getByTestId("metric-Page Views").getByTestId("metric-value"), "4");
    // The session lasts the tab's life: a reload does not ask again.
    await page.reload();
    await waitForText(page.getByTestId("metric-Page Views").getByTestId("metric-value"), "4");
    await screenshot(page, "share-password-opened");
    await context.close();
  });

  it("renders an embed in a page of an allowed origin, and the browser refuses it elsewhere", async () => {
    const context = await browser.newContext({ viewport: { width: 1300, height: 1000 } });
    const page = await context.newPage();
    await page.goto(allowed.url);
    const frame = page.frameLocator("#embed");
    await waitForText(frame.getByTestId("metric-Page Views").getByTestId("metric-value"), "4", 20_000);
    await frame.getByTestId("share-embed").waitFor();
    assert.equal(await frame.getByTestId("share-header").count(), 0, "no chrome in an embed");
    assert.equal(await frame.locator("html").getAttribute("data-theme"), "light", "the embedding page's theme");
    // A real light theme, not the dark one inverted: the page and a card are light as computed, their text dark,
    // and no filter repaints the frame.
    const look = await frame.getByTestId("share-embed").evaluate((main) => {
      /** A computed colour (any syntax, oklch included) as the RGB a canvas paints it. */
      const rgb = (color) => {
        const canvas = document.createElement("canvas");
        canvas.width = canvas.height = 1;
        const ctx = canvas.getContext("2d");
        ctx.fillStyle = color;
        ctx.fillRect(0, 0, 1, 1);
        return [...ctx.getImageData(0, 0, 1, 1).data.slice(0, 3)];
      };
      const card = main.querySelector('[data-testid="site-card"]') ?? main;
      const heading = main.querySelector("h1, h2, h3");
      return {
        page: rgb(getComputedStyle(main).backgroundColor),
        card: rgb(getComputedStyle(card).backgroundColor),
        text: rgb(getComputedStyle(heading).color),
        filter: getComputedStyle(document.documentElement).filter,
      };
    });
    const light = ([r, g, b]) => Math.min(r, g, b) >= 235;
    assert.ok(light(look.page), `a light page behind the figures: ${JSON.stringify(look)}`);
    assert.ok(light(look.card), `light cards: ${JSON.stringify(look)}`);
    assert.ok(Math.max(...look.text) <= 80, `dark headings: ${JSON.stringify(look)}`);
    assert.equal(look.filter, "none", "no filter over the page");
    await screenshot(page, "share-embed-allowed");

    const refused = await context.newPage();
    await refused.goto(other.url);
    await refused.waitForFunction(() => window.framed === true);
    const child = refused.frames().find((f) => f !== refused.mainFrame());
    assert.ok(child, "the iframe exists");
    assert.notEqual(child.url(), embedSrc, `the browser did not load the dashboard in the frame (${child.url()})`);
    assert.equal(await refused.frameLocator("#embed").getByTestId("share-embed").count(), 0, "nothing rendered");
    await context.close();
  });
});
