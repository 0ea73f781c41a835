// Issue 12, finding 8: "Replays keep text typed into contenteditable (rich-text editors, chat widgets) and
// text that scripts insert later". A page with a marker in each kind of element, in headless Chromium with the
// site's personalised script, against the real daemon; the stored recording is read back through the API.
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { after, before, describe, test } from "node:test";
import { apiClient, launchBrowser, newContext, startDaemon, until } from "./harness.mjs";

let daemon, api, browser, site;

/** The page: an input, a textarea, a contenteditable "chat box", a paragraph, and room for later text. */
const page = (snippet) => `<!doctype html>
<html><head><meta charset="utf-8"><title>Support chat</title>${snippet}</head>
<body>
  <h1>Support</h1>
  <p id="para">MARKER-PARAGRAPH</p>
  <input id="name" autocomplete="off">
  <textarea id="note"></textarea>
  <div id="chat" contenteditable="true"><p>MARKER-EDITABLE-INITIAL</p></div>
  <div id="feed"></div>
</body></html>`;

before(async () => {
  daemon = await startDaemon();
  api = await apiClient(daemon.url);
  browser = await launchBrowser();
  // Serves the page of the site whose tracking key is in the path: /KEY.
  const server = createServer((req, res) => {
    const key = req.url.slice(1).replace(/[^A-Za-z0-9_-]/g, "");
    res.writeHead(200, { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" });
    res.end(page(`<script async src="${daemon.url}/tracking/${key}.js"></script>`));
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  site = { url: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((r) => server.close(r)) };
});
after(async () => {
  await browser?.close();
  await site?.close();
  await daemon?.stop();
});

/** Sites made so far: each gets a domain of its own, as one account tracks a domain once. */
let sitesMade = 0;

/** Records one visit of the page on a new site of `level`, typing and inserting markers; its rrweb events. */
async function recordVisit(level, privacy) {
  sitesMade += 1;
  const domain = `https://site${sitesMade}.acme.example`;
  const website = await api.post("/api/websites", { name: `Masking ${level}`, domain, trackingLevel: level });
  if (privacy) await api.put("/api/privacy/settings", { websiteId: website.id, ...privacy });
  const { context } = await newContext(browser);
  const tab = await context.newPage();
  await tab.goto(`${site.url}/${website.trackingKey}`);
  const sid = await tab.evaluate(() => window.tracker._.s);
  await tab.waitForFunction(() => window.tracker._.r); // the recorder runs
  await tab.type("#name", "MARKER-INPUT");
  await tab.type("#note", "MARKER-TEXTAREA");
  await tab.click("#chat p");
  await tab.keyboard.press("End");
  await tab.keyboard.type(" MARKER-EDITABLE-TYPED");
  // Text a script puts in later: a chat widget's new message, into the editable box and into the page.
  await tab.evaluate(() => {
    const p = document.createElement("p");
    p.textContent = "MARKER-SCRIPT-EDITABLE";
    document.getElementById("chat").appendChild(p);
    const msg = document.createElement("div");
    msg.textContent = "MARKER-SCRIPT-TEXT";
    document.getElementById("feed").appendChild(msg);
    document.getElementById("para").firstChild.data = "MARKER-PARAGRAPH-CHANGED";
  });
  // Leaving the page sends the rest as its final chunk.
  await tab.goto("about:blank");
  const replay = await until("the visit's complete recording", async () => {
    const list = await api.get(`/api/websites/${website.id}/session-replays?limit=100`);
    const r = list.find((r) => r.sessionId == sid);
    return r && r.isComplete ? r : list;
  });
  const { events } = await api.get(`/api/replays/${replay.id}/events`);
  await context.close();
  return { website, events, text: JSON.stringify(events) };
}

/** Asserts the recording holds a full snapshot and the visitor's input (masked), so absence means masking. */
function assertRecorded(events) {
  assert.ok(events.some((e) => e.type == 2), "a full snapshot");
  assert.ok(events.some((e) => e.type == 3 && e.data.source == 5 && /^\*+$/.test(e.data.text)), "the typed input, masked");
}

const ALWAYS_MASKED = ["MARKER-INPUT", "MARKER-TEXTAREA", "MARKER-EDITABLE-INITIAL", "MARKER-EDITABLE-TYPED", "MARKER-SCRIPT-EDITABLE"];
const TEXT = ["MARKER-PARAGRAPH", "MARKER-SCRIPT-TEXT", "MARKER-PARAGRAPH-CHANGED"];

describe("Replays keep text typed into contenteditable and text that scripts insert later", () => {
  test("inputs, textareas and contenteditable are masked; other text stays unless mask-all-text is on", async () => {
    const plain = await recordVisit("enhanced");
    assertRecorded(plain.events);
    assert.ok(plain.text.includes("Support"), "the heading");
    for (const m of ALWAYS_MASKED) assert.ok(!plain.text.includes(m), `${m} in the recording`);
    for (const m of TEXT) assert.ok(plain.text.includes(m), `${m} missing: mask-all-text is off`);
    const settings = await api.get(`/api/privacy/settings?website_id=${plain.website.id}`);
    assert.equal(settings.maskAllText, false, "off by default below professional");
  });

  test("with mask-all-text on, no marker is recorded", async () => {
    const masked = await recordVisit("enhanced", { maskAllText: true });
    const script = await (await fetch(`${daemon.url}/tracking/${masked.website.trackingKey}.js`)).text();
    assert.match(script, /"maskAllText":true/, "the script's config carries the setting");
    assertRecorded(masked.events);
    for (const m of [...ALWAYS_MASKED, ...TEXT]) assert.ok(!masked.text.includes(m), `${m} in the recording`);
    assert.ok(!masked.text.includes("Support"), "the heading is masked too");
  });

  test("professional sites mask all text by default, and follow the level until the owner chooses", async () => {
    const pro = await recordVisit("professional");
    const settings = await api.get(`/api/privacy/settings?website_id=${pro.website.id}`);
    assert.equal(settings.maskAllText, true);
    assertRecorded(pro.events);
    for (const m of [...ALWAYS_MASKED, ...TEXT]) assert.ok(!pro.text.includes(m), `${m} in the recording`);
    // Down to enhanced: the default follows; an explicit choice then stays through level changes.
    const id = pro.website.id;
    await api.put(`/api/websites/${id}`, { name: "Masking", domain: "https://acme.example", trackingLevel: "enhanced" });
    assert.equal((await api.get(`/api/privacy/settings?website_id=${id}`)).maskAllText, false);
    await api.put("/api/privacy/settings", { websiteId: id, maskAllText: true });
    await api.put(`/api/websites/${id}`, { name: "Masking", domain: "https://acme.example", trackingLevel: "light" });
    assert.equal((await api.get(`/api/privacy/settings?website_id=${id}`)).maskAllText, true);
  });
});
