// Every screen at a phone (390 px), a tablet (768 px) and a desktop (1400 px) width: nothing sticks out
// sideways (the page never scrolls horizontally), and a full-page screenshot of each goes to
// target/screenshots/screens/ (printed), for a person to look at. One account with one site with a few
// hits, so that the screens show data rather than only their empty states.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { launchBrowser, startDaemon } from "./helpers.mjs";
import { ownerWithSites, track } from "./site-owner.mjs";

const WIDTHS = [390, 768, 1400];
/** The app's screens: the router's paths (src/App.tsx; test/unit/app_routes.test.ts keeps the daemon's list the
 * same), signed in; /auth is visited signed out. */
const SCREENS = [...readFileSync(new URL("../../src/App.tsx", import.meta.url), "utf8").matchAll(/<Route path="(\/[^"]*)"/g)]
  .map((m) => m[1])
  .filter((path) => path !== "/auth");
const outDir = resolve(new URL("../../..", import.meta.url).pathname, "target", "screenshots", "screens");

describe("every screen at 390, 768 and 1400 px", () => {
  let daemon, browser;

  before(async () => {
    mkdirSync(outDir, { recursive: true });
    console.log(`screenshots: ${outDir}`);
    daemon = await startDaemon();
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await daemon?.stop();
  });

  /** What sticks out of the viewport sideways, if anything (for the failure message). */
  const overflow = (page) =>
    page.evaluate(() => {
      const width = window.innerWidth;
      if (document.scrollingElement.scrollWidth <= width) return null;
      const wide = [...document.querySelectorAll("body *")]
        .filter((el) => el.getBoundingClientRect().right > width + 0.5)
        .slice(0, 3)
        .map((el) => `${el.tagName.toLowerCase()}.${[...el.classList].slice(0, 3).join(".")}`);
      return `scrollWidth ${document.scrollingElement.scrollWidth} > ${width}: ${wide.join(", ")}`;
    });

  /** Waits for the screen's content: the main heading, and no loading spinner left. */
  const settled = (page) =>
    page.waitForFunction(() => document.querySelector("main h1, main h2, form") && !document.querySelector('[role="status"][aria-busy="true"], .animate-spin'));

  it("signed out: the sign-in screen", async () => {
    const context = await browser.newContext({ baseURL: daemon.url });
    const page = await context.newPage();
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto("/auth");
      await settled(page);
      assert.equal(await overflow(page), null, `/auth at ${width} px`);
      await page.screenshot({ path: join(outDir, `auth-${width}.png`), fullPage: true });
    }
    await context.close();
  });

  it("signed in: every screen", async () => {
    const context = await browser.newContext({ baseURL: daemon.url });
    const page = await context.newPage();
    const errors = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    const { sites, api } = await ownerWithSites(page, daemon.url, "screens@example.com", [
      { name: "Screens Site", domain: "screens.example.com", trackingLevel: "enhanced" },
    ]);
    const key = sites[0].trackingKey;
    for (const [i, path] of ["/", "/pricing", "/blog/a-rather-long-article-title-that-could-widen-a-table-cell"].entries())
      await track(daemon.url, { tracking_key: key, session_id: `screens-session-${i}`, url: `https://screens.example.com${path}`, event: "pageview", screen: "390x844" }, `203.0.113.${i + 1}`);
    // The share page's route names its slug: a real link of the site stands in for it.
    const link = await api("POST", `/api/websites/${sites[0].id}/shared-links`, { name: "Screens" });
    const failures = [];
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      for (const path of SCREENS) {
        await page.goto(`${path.replace(":slug", link.slug)}?website=${sites[0].id}`);
        await settled(page);
        const problem = await overflow(page);
        if (problem) failures.push(`${path} at ${width} px: ${problem}`);
        const name = path === "/" ? "overview" : path.slice(1);
        await page.screenshot({ path: join(outDir, `${name}-${width}.png`), fullPage: true });
      }
    }
    assert.deepEqual(failures, [], "screens scroll sideways");
    assert.deepEqual(errors, [], "no page errors");
    await context.close();
  });
});
