// Issue 34, item 1: "heatmaps and replays lose what happens just before a visitor leaves a page". A visitor
// clicks through three pages of an ordinary site (full navigations, a few seconds on each, pages the size of
// a real site's, with a real stylesheet) in headless Chromium with the professional snippet, against the real
// daemon. Each page's clicks, the one on the link that leaves it included, must be on that page's heatmap, and
// the visit's one recording must hold all three pages up to their last click; what a leaving page cannot send
// within the browser's keepalive budget must reach that recording through the visit's next page, counted
// once toward its size cap; and a form's fields touched last before leaving by a link must be in the form
// analytics of the page left.
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { after, before, test } from "node:test";
import { apiClient, launchBrowser, newContext, startDaemon, until } from "./harness.mjs";

let daemon, api, browser, site;

/** A stylesheet of the size sites ship (~60 KB): rrweb inlines it into each page's full snapshot. */
const stylesheet = Array.from(
  { length: 600 },
  (_, i) =>
    `.c-${i} { margin: ${i % 17}px ${i % 5}px; padding: ${i % 11}px; color: #${(i * 2654435761).toString(16).slice(-6).padStart(6, "0")}; border-radius: ${i % 7}px; }\n` +
    `.c-${i}:hover { background: rgba(${i % 255}, ${(i * 7) % 255}, ${(i * 13) % 255}, 0.${i % 10}); }`,
).join("\n");

const PAGES = {
  "/": { title: "Acme home", next: "/pricing" },
  "/pricing": { title: "Acme pricing", next: "/contact" },
  "/contact": { title: "Contact Acme", next: "/bye" },
};

/** One page: navigation, a hero with a button, forty sections of text, a table, and the link onwards; with
 * `form`, a sign-up form under the button. */
function pageHtml(path, snippet, form) {
  const { title, next } = PAGES[path];
  const sections = Array.from(
    { length: 40 },
    (_, i) =>
      `<section class="c-${i * 13}"><h2>${title}: part ${i + 1}</h2><p class="c-${i}">` +
      "Our product helps teams understand how visitors use their sites, without cookies and without sending data to anyone else. ".repeat(4) +
      `</p><ul>${Array.from({ length: 5 }, (_, j) => `<li class="c-${j + i}"><a href="#s${i}-${j}">Detail ${j + 1} of part ${i + 1}</a></li>`).join("")}</ul></section>`,
  ).join("\n");
  const rows = Array.from({ length: 30 }, (_, i) => `<tr><td>Plan ${i}</td><td>${i * 9} EUR</td><td>${i * 1000} page views</td></tr>`).join("");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${title}</title><link rel="stylesheet" href="/site.css">${snippet}</head>
<body>
  <header><nav>${Object.keys(PAGES).map((p) => `<a href="${p}">${PAGES[p].title}</a>`).join(" ")}</nav></header>
  <main>
    <h1>${title}</h1>
    <button id="cta" style="display:block;width:240px;height:60px">Start a free trial</button>
    ${form ? '<form id="signup" action="/thanks"><input id="email" name="email" type="email"> <input id="company" name="company"></form>' : ""}
    <a id="next" href="${next}" style="display:block;width:240px;height:40px">Continue to ${next}</a>
    ${sections}
    <table>${rows}</table>
  </main>
  <script>
    // With ?big=1, leaving by the link first adds 120 KB that do not compress (a widget's data, say): more
    // than a leaving page may send with keepalive.
    document.getElementById("next").addEventListener("click", () => {
      if (!location.search.includes("big=1")) return;
      let text = "";
      for (let i = 0; i < 2; i++) for (const b of crypto.getRandomValues(new Uint8Array(45000))) text += String.fromCharCode(b);
      const div = document.createElement("div");
      div.setAttribute("data-blob", "BLOB-MARKER-" + btoa(text));
      document.body.appendChild(div);
    });
  </script>
</body></html>`;
}

before(async () => {
  daemon = await startDaemon();
  api = await apiClient(daemon.url);
  browser = await launchBrowser();
  // The site: the three pages with the snippet of the site whose key is in the query, /bye without any.
  const server = createServer((req, res) => {
    const url = new URL(req.url, "http://x");
    const key = (url.searchParams.get("k") || "").replace(/[^A-Za-z0-9_-]/g, "");
    const send = (type, body) => {
      res.writeHead(200, { "Content-Type": type, "Cache-Control": "no-store" });
      res.end(body);
    };
    if (url.pathname == "/site.css") return send("text/css", stylesheet);
    if (PAGES[url.pathname]) {
      // Links keep the key, as a real site's pages all carry the same snippet.
      const snippet = `<script async src="${daemon.url}/tracking/${key}.js"></script>`;
      const html = pageHtml(url.pathname, snippet, url.searchParams.get("form") == "1");
      const big = url.searchParams.get("big") == "1" ? "&big=1" : "";
      return send("text/html; charset=utf-8", html.replace(/href="(\/[a-z]*)"/g, `href="$1?k=${key}${big}"`));
    }
    send("text/html; charset=utf-8", "<!doctype html><title>Bye</title><p>Off the tracked site.</p>");
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  site = { url: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((r) => server.close(r)) };
});
after(async () => {
  await browser?.close();
  await site?.close();
  await daemon?.stop();
});

const center = async (tab, selector) => {
  const box = await tab.locator(selector).boundingBox();
  const scroll = await tab.evaluate(() => ({ x: scrollX, y: scrollY }));
  return { x: Math.round(box.x + box.width / 2 + scroll.x), y: Math.round(box.y + box.height / 2 + scroll.y) };
};

test("a visit through three pages: every page's clicks on its heatmap, one recording of all three pages", async () => {
  const website = await api.post("/api/websites", { name: "Acme multi-page", domain: "https://multi.acme.example", trackingLevel: "professional" });
  const { context, log } = await newContext(browser);
  const tab = await context.newPage();
  const expected = {}; // path -> the page-relative places clicked
  let sid;
  await tab.goto(`${site.url}/?k=${website.trackingKey}`);
  for (const path of Object.keys(PAGES)) {
    await tab.waitForFunction(() => window.tracker?._?.r); // the recorder runs on this page
    sid ??= await tab.evaluate(() => window.tracker._.s);
    assert.equal(await tab.evaluate(() => window.tracker._.s), sid, "one visit across the pages");
    // A visitor reads for a while: 2-3 s on the page, as people do (the scripts flush every 5 s).
    await tab.waitForTimeout(1000);
    expected[path] = [await center(tab, "#cta")];
    await tab.click("#cta");
    await tab.mouse.wheel(0, 400);
    await tab.waitForTimeout(1200);
    await tab.mouse.wheel(0, -400);
    await until("back at the top", () => tab.evaluate(() => scrollY == 0));
    expected[path].push(await center(tab, "#next"));
    // The link leaves the page: a full navigation to the next one.
    await Promise.all([tab.waitForURL((u) => u.pathname == PAGES[path].next), tab.click("#next")]);
  }
  await tab.waitForSelector("text=Off the tracked site");

  // Heatmaps: each page's clicks, the last (on the link that left it) included.
  for (const [path, clicks] of Object.entries(expected)) {
    const q = `/api/analytics/heatmap?website_id=${website.id}&url=${encodeURIComponent(path)}&time_range=7d`;
    const heat = await until(`both clicks on the heatmap of ${path}`, async () => {
      const h = await api.get(q);
      const found = clicks.map((at) => h.clicks.find((c) => Math.abs(c.x - at.x) <= 10 && Math.abs(c.y - at.y) <= 10));
      return found.every(Boolean) ? h : [path, clicks, h.clicks, log.slice(-5)];
    });
    assert.equal(heat.clicks.reduce((n, c) => n + c.count, 0), 2, `${path}: ${JSON.stringify(heat.clicks)}`);
    assert.ok(heat.scrollDepth.some((d) => d.visitors >= 1), `${path}: the scroll depth, ${JSON.stringify(heat.scrollDepth)}`);
  }

  // The recording: one for the visit, holding the three pages, each with its snapshot and both its clicks.
  const { replay, events } = await until("the visit's recording of three pages with their clicks", async () => {
    const list = await api.get(`/api/websites/${website.id}/session-replays?limit=100`);
    const replay = list.find((r) => r.sessionId == sid);
    if (!replay) return list;
    const { events } = await api.get(`/api/replays/${replay.id}/events`);
    const pages = pagesOf(events);
    const seen = pages.map((p) => [p.path, p.snapshots, p.clicks]);
    return pages.length == 3 && pages.every((p) => p.snapshots >= 1 && p.clicks >= 2) ? { replay, events } : seen;
  });
  const list = await api.get(`/api/websites/${website.id}/session-replays?limit=100`);
  assert.equal(list.length, 1, "one recording for the visit");
  assert.deepEqual(
    pagesOf(events).map((p) => p.path),
    Object.keys(PAGES),
  );
  assert.equal(replay.clickCount, 6);
  await context.close();
});

test("what a leaving page cannot send with keepalive reaches the recording through the visit's next page", async () => {
  const website = await api.post("/api/websites", { name: "Acme big leave", domain: "https://leave.acme.example", trackingLevel: "enhanced" });
  const { context, log, requests } = await newContext(browser);
  const tab = await context.newPage();
  await tab.goto(`${site.url}/?k=${website.trackingKey}&big=1`);
  await tab.waitForFunction(() => window.tracker?._?.r);
  const sid = await tab.evaluate(() => window.tracker._.s);
  await tab.waitForTimeout(1000);
  await Promise.all([tab.waitForURL((u) => u.pathname == "/pricing"), tab.click("#next")]);
  await tab.waitForFunction(() => window.tracker?._?.r);
  const { events } = await until("the recording with the first page's last mutation", async () => {
    const list = await api.get(`/api/websites/${website.id}/session-replays?limit=100`);
    const replay = list.find((r) => r.sessionId == sid);
    if (!replay) return list;
    const { events } = await api.get(`/api/replays/${replay.id}/events`);
    return JSON.stringify(events).includes("BLOB-MARKER-") ? { events } : [pagesOf(events).map((p) => [p.path, p.snapshots]), log, requests.filter((u) => u.includes("replay")).map((u) => u.slice(-40))];
  });
  // In order: the added element belongs to the first page, before the second page's snapshot.
  const at = events.findIndex((e) => JSON.stringify(e).includes("BLOB-MARKER-"));
  const second = events.findIndex((e) => e.type == 4 && new URL(e.data.href).pathname == "/pricing");
  assert.ok(at >= 0 && second > at, `the mutation at ${at}, the second page from ${second}`);
  await context.close();
});

test("a form's last field events before a full navigation reach the form analytics of the page left", async () => {
  const website = await api.post("/api/websites", { name: "Acme sign-up", domain: "https://form.acme.example", trackingLevel: "enhanced" });
  const { context, log } = await newContext(browser);
  const tab = await context.newPage();
  await tab.goto(`${site.url}/?k=${website.trackingKey}&form=1`);
  await tab.waitForFunction(() => window.tracker?._?.r); // the enhanced script (and its recorder) runs
  await tab.waitForTimeout(1000);
  // The visitor fills the e-mail, then the company, and leaves by the link at once without sending the form:
  // the company field's blur and change (filled) are the page's last events.
  await tab.click("#email");
  await tab.keyboard.type("ada@example.com");
  await tab.click("#company");
  await tab.keyboard.type("Acme");
  await Promise.all([tab.waitForURL((u) => u.pathname == "/pricing"), tab.click("#next")]);

  // Each field touched once, both left filled, and the company (the last touched of a form never sent) the
  // drop-off: only the company's last events say it was filled.
  const q = `/api/analytics/heatmap?website_id=${website.id}&url=${encodeURIComponent("/")}&time_range=7d`;
  const { fields } = await until("both fields' last events in the form analytics of /", async () => {
    const got = (await api.get(q)).formInteractions.map((f) => [f.form, f.element, f.interactions, f.completions, f.dropOffs]);
    const done = got.length == 2 && got.every(([, , n, completed]) => n == 1 && completed == 1);
    return done ? { fields: got } : [got, log.slice(-5)];
  });
  fields.sort((a, b) => a[1].localeCompare(b[1]));
  assert.deepEqual(fields, [
    ["#signup", "#company", 1, 1, 1],
    ["#signup", "#email", 1, 1, 0],
  ]);
  await context.close();
});

test("a chunk the next page resends counts once toward the recording's size cap", async () => {
  // Issue 34: the recorder counts its uploads toward the visit's 20 MiB, as the server counts one copy of each
  // seq. A chunk whose upload the leaving page could not see answered is resent by the visit's next page, and
  // it counted twice, stopping a recording short of its cap.
  const website = await api.post("/api/websites", { name: "Acme resend", domain: "https://resend.acme.example", trackingLevel: "enhanced" });
  const { context, log } = await newContext(browser);
  // Each page notes its recording uploads (seq, bytes, page) in the tab's sessionStorage, pagehide's too. The
  // first page's uploads reach the daemon but their answers never reach the page, as when a connection drops
  // after the request: the page cannot tell whether they arrived.
  await context.addInitScript(() => {
    const send = window.fetch;
    window.fetch = function (input, init) {
      const url = new URL(String(input), location.href);
      if (url.pathname != "/api/replay") return send.call(this, input, init);
      const noted = JSON.parse(sessionStorage.getItem("test_uploads") || "[]");
      noted.push([Number(url.searchParams.get("seq")), init.body.length, location.pathname]);
      sessionStorage.setItem("test_uploads", JSON.stringify(noted));
      const sent = send.call(this, input, init);
      return location.pathname == "/" ? new Promise(() => {}) : sent;
    };
  });
  const tab = await context.newPage();
  await tab.goto(`${site.url}/?k=${website.trackingKey}&big=1`);
  await tab.waitForFunction(() => window.tracker?._?.r);
  const sid = await tab.evaluate(() => window.tracker._.s);
  await tab.waitForTimeout(1000);
  await Promise.all([tab.waitForURL((u) => u.pathname == "/pricing"), tab.click("#next")]);
  await tab.waitForFunction(() => window.tracker?._?.r);
  const uploads = () => tab.evaluate(() => JSON.parse(sessionStorage.getItem("test_uploads") || "[]"));
  const firsts = (noted) => noted.filter(([seq], i) => noted.findIndex(([s]) => s == seq) == i);
  await until("a chunk of the first page resent by the second", async () => {
    const noted = await uploads();
    return noted.some(([seq, , page]) => page == "/pricing" && noted.some(([s, , p]) => s == seq && p == "/")) || noted;
  });
  await until("the recording with the first page's last mutation", async () => {
    const list = await api.get(`/api/websites/${website.id}/session-replays?limit=100`);
    const replay = list.find((r) => r.sessionId == sid);
    if (!replay) return list;
    const { events } = await api.get(`/api/replays/${replay.id}/events`);
    return JSON.stringify(events).includes("BLOB-MARKER-") || [log.slice(-5)];
  });
  // What the recorder counted is each seq's first upload, however often it was sent (read until the page's
  // compressions in progress are done: the count and the notes move together).
  await until("the recorder's count of each chunk once", async () => {
    const [counted, noted] = await tab.evaluate(() => [Number(sessionStorage.getItem("tracker_rb")), JSON.parse(sessionStorage.getItem("test_uploads"))]);
    const once = firsts(noted).reduce((n, [, bytes]) => n + bytes, 0);
    return counted == once || [counted, once, noted];
  });
  await context.close();
});

/** The recording cut at its meta events (one per page load): each page's path, full snapshots and clicks. */
function pagesOf(events) {
  const pages = [];
  for (const e of events) {
    if (e.type == 4) pages.push({ path: new URL(e.data.href).pathname, snapshots: 0, clicks: 0 });
    const page = pages[pages.length - 1];
    if (!page) continue;
    if (e.type == 2) page.snapshots++;
    if (e.type == 3 && e.data.source == 2 && e.data.type == 2) page.clicks++;
  }
  return pages;
}
