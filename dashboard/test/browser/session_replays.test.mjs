// Session Replays (/session-replays) in headless Chromium against the real daemon: a test page recorded
// through the site's real tracking script replays in the dashboard's player with its text visible and its
// typed field masked; neither that page's <script> nor a hostile recording's event handlers run in the
// dashboard (the replay iframe is sandboxed without allow-scripts); filter and range change the list; the
// empty, loading and load-error states; the screen at 390 px and 1400 px; a link (?replay=ID, and the funnel
// drop-off list's) opens a recording directly. Screens go to tests/screenshots/.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { createServer } from "node:http";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { gzipSync } from "node:zlib";
import { USER_AGENT, launchBrowser, newContext, startDaemon, until } from "../tracker/harness.mjs";
import { screenshot, waitForText } from "./helpers.mjs";

const password = "correct-horse";
const SECRET = "TOPSECRET-TYPED";

/** The recorded page: visible text, a field the visitor types into, a script and an event handler. */
const testPage = (key, daemonUrl) => `<!doctype html>
<html><head><meta charset="utf-8"><title>Recorded shop</title>
<script async src="${daemonUrl}/tracking/${key}.js"></script></head>
<body>
  <h1>MARKER-VISIBLE-TEXT</h1>
  <p>Welcome to the recorded shop</p>
  <input id="secret" autocomplete="off">
  <button id="buy">Buy now</button>
  <script>window.__recordedScriptRan = 1; try { parent.__replayXss = "script"; } catch (e) {}
    fetch("${daemonUrl}/api/replay-xss-marker?from=script").catch(function () {});</script>
  <img src="/missing.png" alt="" onerror="window.__imgRan = 1; try { parent.__replayXss = 'onerror'; } catch (e) {}; fetch('${daemonUrl}/api/replay-xss-marker?from=onerror').catch(function () {})">
</body></html>`;

/** rrweb events a hostile visitor could upload: handlers and a script in the snapshot itself. */
function hostileEvents(start, daemonUrl) {
  const steal = `parent.__replayXss='hostile';fetch('${daemonUrl}/api/replay-xss-marker?from=hostile')`;
  const el = (id, tagName, attributes, childNodes = []) => ({ type: 2, tagName, attributes, childNodes, id });
  const doc = {
    type: 0,
    id: 1,
    childNodes: [
      { type: 1, name: "html", publicId: "", systemId: "", id: 2 },
      el(3, "html", {}, [
        el(4, "head", {}, [el(10, "script", {}, [{ type: 3, textContent: steal, id: 11 }])]),
        el(5, "body", {}, [
          el(6, "h1", {}, [{ type: 3, textContent: "HOSTILE-RECORDING", id: 7 }]),
          el(8, "img", { src: "/no-such-image.png", onerror: steal }),
          el(9, "iframe", { srcdoc: `<script>${steal.replaceAll("parent.", "parent.parent.")}</script>` }),
        ]),
      ]),
    ],
  };
  return [
    { type: 4, data: { href: "https://evil.example/", width: 1280, height: 720 }, timestamp: start },
    { type: 2, data: { node: doc, initialOffset: { left: 0, top: 0 } }, timestamp: start + 1 },
    { type: 3, data: { source: 1, positions: [{ x: 5, y: 5, id: 6, timeOffset: 0 }] }, timestamp: start + 4000 },
  ];
}

describe("Session Replays", () => {
  let daemon, browser, site, owner, websiteId, recordedSid, hostileSid, dashboard, page;
  const dashboardRequests = [];
  const cspViolations = [];

  const call = async (method, path, body, token) => {
    const res = await fetch(daemon.url + path, {
      method,
      headers: { ...(body ? { "Content-Type": "application/json" } : {}), ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return text ? JSON.parse(text) : null;
  };
  const sql = (statement) => execFileSync("sqlite3", ["-cmd", ".timeout 5000", join(daemon.dataDir, "tracker.db"), statement]).toString();
  const rows = () => page.getByTestId("replay-row");
  const signIn = async (tokens) => {
    await page.goto("/auth");
    await page.evaluate(({ accessToken, refreshToken }) => {
      localStorage.setItem("accessToken", accessToken);
      localStorage.setItem("refreshToken", refreshToken);
    }, tokens);
  };

  before(async () => {
    daemon = await startDaemon();
    browser = await launchBrowser();
    owner = await call("POST", "/api/register", { email: `replays-${Date.now()}@example.com`, password });
    const website = await call("POST", "/api/websites", { name: "Recorded Shop", domain: "https://shop.example", trackingLevel: "enhanced" }, owner.accessToken);
    websiteId = website.id;
    const server = createServer((req, res) => {
      if (req.url !== "/shop") return res.writeHead(404).end();
      res.writeHead(200, { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" });
      res.end(testPage(website.trackingKey, daemon.url));
    });
    await new Promise((r) => server.listen(0, "127.0.0.1", r));
    site = { url: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((r) => server.close(r)) };

    // One visit recorded by the real tracking script: typing, two clicks, a custom event, then leaving.
    const visitor = await newContext(browser);
    const tab = await visitor.context.newPage();
    await tab.goto(`${site.url}/shop`);
    recordedSid = await tab.evaluate(() => window.tracker._.s);
    await tab.waitForFunction(() => window.tracker._.r);
    assert.equal(await tab.evaluate(() => window.__recordedScriptRan), 1, "the page's own script runs on the page");
    await tab.type("#secret", SECRET);
    await tab.click("#buy");
    await tab.click("#buy");
    await tab.evaluate(() => window.tracker.track("signup_started"));
    await tab.goto("about:blank");
    await until("the visit's complete recording", async () => {
      const list = await call("GET", `/api/websites/${websiteId}/session-replays?limit=100`, null, owner.accessToken);
      const r = list.find((r) => r.sessionId === recordedSid);
      return r?.isComplete && r.clickCount === 2 ? r : list;
    });
    await visitor.context.close();

    // A hostile "visitor" uploads crafted events straight to the replay endpoint (still recording).
    hostileSid = `hostile-${Date.now()}`;
    const body = gzipSync(JSON.stringify(hostileEvents(Date.now() - 10_000, daemon.url)));
    const upload = await fetch(`${daemon.url}/api/replay?tracking_key=${website.trackingKey}&session_id=${hostileSid}&seq=0`, {
      method: "POST",
      body,
      // A browser's user agent: the daemon drops uploads from bots (with a 202, as for any visitor).
      headers: { "User-Agent": USER_AGENT },
    });
    assert.equal(upload.status, 202, await upload.text());
    await until("the hostile recording stored", async () => {
      const list = await call("GET", `/api/websites/${websiteId}/session-replays?limit=100`, null, owner.accessToken);
      return list.some((r) => r.sessionId === hostileSid) || [list.length];
    });

    dashboard = await browser.newContext({ viewport: { width: 1400, height: 900 }, baseURL: daemon.url });
    dashboard.on("request", (r) => dashboardRequests.push(r.url()));
    page = await dashboard.newPage();
    page.on("pageerror", (e) => console.error("page error:", e));
    page.on("console", (m) => {
      if (m.type() === "error" && /Content Security Policy/i.test(m.text())) cspViolations.push(m.text());
    });
    await signIn(owner);
  });

  after(async () => {
    await browser?.close();
    await site?.close();
    await daemon?.stop();
  });

  it("lists the recordings with the cards, the list call sending filter and range", async () => {
    await page.goto("/session-replays");
    await until("two rows", async () => (await rows().count()) === 2 || [await rows().count()]);
    const listCall = dashboardRequests.find((u) => u.includes(`/api/websites/${websiteId}/session-replays`));
    const query = new URL(listCall).searchParams;
    assert.deepEqual([query.get("limit"), query.get("filter"), query.get("range")], ["100", "all", "7d"]);
    await waitForText(page.getByTestId("metric-Total Replays").getByTestId("metric-value"), "2");
    await waitForText(page.getByTestId("metric-Complete Recordings").getByTestId("metric-value"), "1");
    await waitForText(page.getByTestId("metric-Enterprise Visitors").getByTestId("metric-value"), "0");
    const recorded = rows().and(page.locator(`[data-session="${recordedSid}"]`));
    // The label is the random end of the id (ids begin with their time), the resolution under it.
    await waitForText(recorded, recordedSid.slice(0, 8));
    await waitForText(recorded, "1280x720");
    await waitForText(recorded, "Complete");
    await waitForText(recorded, /\w{3} \d{1,2}, \d{2}:\d{2}/);
    await waitForText(recorded, /127\.0\.0\.|-/);
    await waitForText(rows().and(page.locator(`[data-session="${hostileSid}"]`)), "Recording");
    await screenshot(page, "replays-01-list-1400");
  });

  it("the filter and the range change the list", async () => {
    await page.getByRole("combobox", { name: "Filter" }).selectOption("complete");
    await until("only the complete recording", async () => (await rows().count()) === 1 || [await rows().count()]);
    await waitForText(rows().first(), recordedSid.slice(0, 8));
    assert.equal(new URL(page.url()).searchParams.get("filter"), "complete");
    await page.getByRole("combobox", { name: "Filter" }).selectOption("incomplete");
    await until("only the one still recording", async () => (await rows().count()) === 1 && (await rows().first().getAttribute("data-session")) === hostileSid);
    await page.getByRole("combobox", { name: "Filter" }).selectOption("enterprise");
    await page.getByText("No Session Replays").waitFor();
    await screenshot(page, "replays-02-no-session-replays");
    await page.getByRole("combobox", { name: "Filter" }).selectOption("all");
    await until("both again", async () => (await rows().count()) === 2 || [await rows().count()]);

    // The recorded visit moves three days back: out of the last 24 hours, still in the last 7 days.
    const old = Date.now() - 3 * 86_400_000;
    sql(`UPDATE replays SET started_at = ${old}, ended_at = ${old + 5000}, last_chunk_at = ${old + 5000}
         WHERE session_id = (SELECT id FROM sessions WHERE session_key = '${recordedSid}')`);
    await page.getByRole("combobox", { name: "Time range" }).selectOption("24h");
    await until("only today's recording", async () => (await rows().count()) === 1 && (await rows().first().getAttribute("data-session")) === hostileSid);
    assert.ok(dashboardRequests.some((u) => u.includes("range=24h")), "the range is sent");
    await page.getByRole("combobox", { name: "Time range" }).selectOption("30d");
    await until("both within 30 days", async () => (await rows().count()) === 2 || [await rows().count()]);
  });

  it("Watch replays the recorded page, text visible and the typed field masked, in a script-less sandbox", async () => {
    await rows().and(page.locator(`[data-session="${recordedSid}"]`)).getByRole("button", { name: "Watch" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByTestId("replay-player").locator(".replayer-wrapper iframe").waitFor({ state: "attached" });
    const iframe = dialog.locator(".replayer-wrapper iframe");
    assert.equal(await iframe.getAttribute("sandbox"), "allow-same-origin", "no allow-scripts on the replay iframe");
    // Not auto-playing; the speeds and skip-inactive are the spec's.
    const speeds = await dialog.locator(".rr-controller__btns button").allTextContents();
    for (const s of ["1x", "2x", "4x", "8x"]) assert.ok(speeds.some((t) => t.trim() === s), `${s} in ${speeds}`);
    assert.equal(await dialog.locator(".rr-controller .switch input").isChecked(), true, "skip inactive on");
    // The side panel: real clicks and pages.
    await waitForText(dialog.getByTestId("replay-clicks"), "2");
    await waitForText(dialog.getByTestId("replay-side-panel"), "1280x720");
    // The timeline marks the page, both clicks and the custom event; jump to the last click.
    const timeline = dialog.getByTestId("replay-timeline");
    assert.equal(await timeline.locator('[data-mark="click"]').count(), 2);
    await timeline.locator('[data-mark="custom"]').getByText("signup_started").waitFor();
    assert.ok((await timeline.locator('[data-mark="page"]').count()) >= 1);
    await timeline.locator('[data-mark="custom"]').click();
    const replayed = await until("the replayed page's text", async () => {
      const state = await iframe.evaluate((f) => ({ text: f.contentDocument?.body?.innerText ?? "", input: f.contentDocument?.querySelector("input")?.value ?? null, html: f.contentDocument?.documentElement?.outerHTML ?? "" }));
      return state.text.includes("MARKER-VISIBLE-TEXT") && state.input ? state : [state.text.slice(0, 80)];
    });
    assert.match(replayed.input, /^\*+$/, "the typed field replays masked");
    assert.ok(!replayed.html.includes(SECRET), "the typed text is nowhere in the replayed page");
    // The page's script and its image's onerror never ran in the dashboard.
    await until("the replayed image to have failed", () => iframe.evaluate((f) => f.contentDocument.querySelector("img")?.complete));
    assert.equal(await iframe.evaluate((f) => f.contentWindow.__imgRan ?? f.contentWindow.__recordedScriptRan ?? null), null);
    assert.equal(await page.evaluate(() => window.__replayXss ?? window.__recordedScriptRan ?? null), null);
    await screenshot(page, "replays-03-player-1400");
    // Replaying the visitor's focus (the masked field) must not move the keyboard into the replay frame:
    // Escape still closes the player.
    assert.notEqual(await page.evaluate(() => document.activeElement?.tagName), "IFRAME", "focus stays in the dialog");
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
  });

  it("a hostile recording's script, handlers and srcdoc frame do not run", async () => {
    await rows().and(page.locator(`[data-session="${hostileSid}"]`)).getByRole("button", { name: "Watch" }).click();
    const dialog = page.getByRole("dialog");
    const iframe = dialog.locator(".replayer-wrapper iframe");
    await iframe.waitFor({ state: "attached" });
    await dialog.getByTestId("replay-timeline").locator('[data-mark="page"]').first().click();
    await until("the hostile page rebuilt", async () => (await iframe.evaluate((f) => f.contentDocument?.body?.innerText ?? "")).includes("HOSTILE-RECORDING") || ["not yet"]);
    assert.equal(await iframe.getAttribute("sandbox"), "allow-same-origin");
    await until("the hostile image to have failed", () => iframe.evaluate((f) => f.contentDocument.querySelector("img")?.complete));
    // The nested srcdoc frame has loaded too (its sandbox is inherited).
    await until("the srcdoc frame", () => iframe.evaluate((f) => f.contentDocument.querySelector("iframe")?.contentDocument?.readyState === "complete"));
    assert.equal(await page.evaluate(() => window.__replayXss ?? null), null, "nothing set a global in the dashboard");
    assert.ok(!dashboardRequests.some((u) => u.includes("replay-xss-marker")), "nothing fetched from the dashboard");
    assert.deepEqual(cspViolations.filter((v) => /script-src|style-src/.test(v) && !/inline (event handler|script)/.test(v)), [], "the player needs no more than the policy allows");
    await dialog.getByRole("button", { name: "Close dialog" }).click();
    await dialog.waitFor({ state: "detached" });
  });

  it("a recording with no data shows the load error", async () => {
    sql(`DELETE FROM replay_chunks WHERE replay_id = (SELECT r.id FROM replays r JOIN sessions s ON s.id = r.session_id WHERE s.session_key = '${hostileSid}')`);
    await rows().and(page.locator(`[data-session="${hostileSid}"]`)).getByRole("button", { name: "Watch" }).click();
    const alert = page.getByRole("dialog").getByRole("alert");
    await waitForText(alert, "Failed to load replay");
    await waitForText(alert, "No replay data available");
    await screenshot(page, "replays-04-load-error");
    await page.keyboard.press("Escape");
    await page.getByRole("dialog").waitFor({ state: "detached" });
  });

  it("shows a loading indicator while the list loads", async () => {
    let release;
    const held = new Promise((r) => (release = r));
    await page.route("**/api/websites/*/session-replays?*", async (route) => {
      await held;
      await route.continue();
    });
    await page.goto("/session-replays?filter=complete");
    await page.getByTestId("replays-loading").waitFor();
    release();
    await rows().first().waitFor();
    await page.unroute("**/api/websites/*/session-replays?*");
  });

  it("works at 390 px: no page overflow, the player fits", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/session-replays?range=30d");
    await until("rows", async () => (await rows().count()) === 2 || [await rows().count()]);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    const wide = await page.evaluate(() =>
      [...document.querySelectorAll("body *")]
        .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 0.5)
        .slice(0, 6)
        .map((e) => `${e.tagName}.${e.className}`.slice(0, 120)),
    );
    assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow} px: ${wide.join(" | ")}`);
    await screenshot(page, "replays-05-list-390");
    await rows().and(page.locator(`[data-session="${recordedSid}"]`)).getByRole("button", { name: "Watch" }).click();
    const player = page.getByRole("dialog").locator(".rr-player");
    await player.waitFor();
    const box = await player.boundingBox();
    assert.ok(box.width <= 390, `player ${box.width} px wide`);
    await screenshot(page, "replays-06-player-390");
    await page.getByRole("dialog").getByRole("button", { name: "Close dialog" }).click();
    await page.setViewportSize({ width: 1400, height: 900 });
  });

  it("a link opens its recording's player (?replay=ID) at 1400 and 390 px; an unknown or another user's id is not found", async () => {
    const list = await call("GET", `/api/websites/${websiteId}/session-replays?limit=100&range=30d`, null, owner.accessToken);
    const recorded = list.find((r) => r.sessionId === recordedSid);
    // Another account's recording: the same 404 as a missing one.
    const intruder = await call("POST", "/api/register", { email: `replays-other-${Date.now()}@example.com`, password });
    const theirs = await call("POST", "/api/websites", { name: "Theirs", domain: "https://theirs.example", trackingLevel: "enhanced" }, intruder.accessToken);
    const upload = await fetch(`${daemon.url}/api/replay?tracking_key=${theirs.trackingKey}&session_id=theirs-${Date.now()}&seq=0`, {
      method: "POST",
      body: gzipSync(JSON.stringify(hostileEvents(Date.now() - 5_000, daemon.url))),
      headers: { "User-Agent": USER_AGENT },
    });
    assert.equal(upload.status, 202);
    const foreign = await until("their recording", async () => {
      const l = await call("GET", `/api/websites/${theirs.id}/session-replays?limit=100`, null, intruder.accessToken);
      return l.length === 1 ? l[0] : [l.length];
    });
    const foreignCall = await fetch(`${daemon.url}/api/replays/${foreign.id}`, { headers: { Authorization: `Bearer ${owner.accessToken}` } });
    assert.equal(foreignCall.status, 404);

    for (const [width, height] of [[1400, 900], [390, 844]]) {
      await page.setViewportSize({ width, height });
      // Only the replay in the URL (no website, the 24 h range it is not in): its own read opens it.
      await page.goto(`/session-replays?replay=${recorded.id}`);
      const dialog = page.getByRole("dialog");
      await dialog.locator(".rr-player").waitFor();
      await waitForText(dialog, `Session ${recordedSid}`);
      await waitForText(dialog.getByTestId("replay-clicks"), "2");
      const box = await dialog.locator(".rr-player").boundingBox();
      assert.ok(box.width <= width, `player ${box.width} px wide at ${width}`);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `sideways scroll ${overflow} px at ${width}`);
      await screenshot(page, `replays-08-link-${width}`);
      // Closing drops the id from the URL; the list stays.
      await dialog.getByRole("button", { name: "Close dialog" }).click();
      await dialog.waitFor({ state: "detached" });
      assert.equal(new URL(page.url()).searchParams.get("replay"), null);
      for (const id of [foreign.id, 987654321]) {
        await page.goto(`/session-replays?replay=${id}`);
        await waitForText(page.getByRole("dialog").getByTestId("replay-not-found"), "Replay not found");
      }
      await screenshot(page, `replays-09-not-found-${width}`);
    }
    await page.setViewportSize({ width: 1400, height: 900 });

    // The funnel drop-off list links a recorded visit to its replay: the visit saw /shop and never /never.
    await call("POST", "/api/funnels", { name: "Shop to nowhere", websiteId, steps: [{ name: "Shop", url: "/shop" }, { name: "Never", url: "/never" }] }, owner.accessToken);
    await page.goto("/funnels?range=30d");
    const funnel = page.getByTestId("funnel").filter({ hasText: "Shop to nowhere" });
    await funnel.getByTestId("step-dropoffs").click();
    const dropOffs = page.getByRole("dialog");
    const watch = dropOffs.getByTestId("dropoff-replay-link");
    await watch.first().waitFor();
    assert.equal(await watch.count(), 1, "only the recorded visit links to a replay");
    await watch.click();
    await page.getByRole("dialog").locator(".rr-player").waitFor();
    const url = new URL(page.url());
    assert.equal(url.pathname, "/session-replays");
    assert.equal(url.searchParams.get("replay"), String(recorded.id));
    await waitForText(page.getByRole("dialog"), `Session ${recordedSid}`);
    await page.keyboard.press("Escape");
  });

  it("'Select a Website' for an account without websites", async () => {
    const fresh = await call("POST", "/api/register", { email: `replays-empty-${Date.now()}@example.com`, password });
    await signIn(fresh);
    await page.goto("/session-replays");
    await page.getByText("Select a Website").waitFor();
    await screenshot(page, "replays-07-select-a-website");
  });
});
