// The scripts' side of the wire protocol (daemon/API.md), against a fake endpoint that captures every
// request: fast, and independent of the server. The end-to-end tests with the real daemon are in
// daemon.test.mjs.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { launchBrowser, newContext, replayText, startFakeEndpoint, startSite, until } from "./harness.mjs";

const LIGHT = { level: "light", respectDoNotTrack: true, requireConsent: false, heatmaps: false, recordings: false, definitions: [] };
const ENHANCED = {
  level: "enhanced",
  respectDoNotTrack: true,
  requireConsent: false,
  heatmaps: true,
  recordings: true,
  definitions: [
    { id: 1, name: "cta_click", eventType: "click", selector: ".cta", isConversion: false, conversionValue: null },
    { id: 2, name: "signup_submit", eventType: "submit", selector: "#signup-form", isConversion: true, conversionValue: "25" },
    { id: 3, name: "about_view", eventType: "pageview", selector: "/about*", isConversion: false, conversionValue: null },
  ],
};
const sites = {
  light_key_1: LIGHT,
  enhanced_key_1: { ...ENHANCED, debug: true },
  consent_key_1: { ...ENHANCED, requireConsent: true },
  nodnt_key_1: { ...LIGHT, respectDoNotTrack: false },
};

let browser, endpoint;
const servers = [];
const site = async (trackingKey, variant = "personal") => {
  const s = await startSite({ trackerUrl: endpoint.url, trackingKey, variant });
  servers.push(s);
  return s.url;
};
const tracked = (key, pred = () => true) => endpoint.track().filter((h) => h && h.tracking_key == key && pred(h));

before(async () => {
  browser = await launchBrowser();
  endpoint = await startFakeEndpoint(sites);
});
after(async () => {
  await browser?.close();
  await Promise.all(servers.map((s) => s.close()));
  await endpoint?.close();
});

describe("each snippet variant", () => {
  for (const variant of ["personal", "basic", "tracer"]) {
    test(`${variant}: page views with SPA navigation, no duplicates, no cookies, light chunks only`, async () => {
      const key = "light_key_1";
      const origin = await site(key, variant);
      const { context, requests, errors } = await newContext(browser);
      const page = await context.newPage();
      const before = tracked(key).length;
      const views = () => tracked(key, (h) => h.event == "pageview").slice(0);
      const mine = () => views().filter((h) => h.url.startsWith(origin));
      await page.goto(`${origin}/spa.html`);
      await until("the first page view", () => mine().length == 1);
      await page.click("#to-products");
      await until("the pushState page view", () => mine().length == 2);
      await page.click("#same-route"); // replaceState to the same URL: no new view
      await page.click("#to-checkout");
      await until("the second pushState page view", () => mine().length == 3);
      await page.goBack();
      await until("the popstate page view", () => mine().length == 4);
      const [first, products, checkout, back] = mine();
      assert.equal(first.url, `${origin}/spa.html`);
      assert.equal(products.url, `${origin}/spa/products`);
      assert.equal(checkout.url, `${origin}/spa/checkout?utm_source=newsletter&utm_medium=email`);
      assert.equal(back.url, `${origin}/spa/products`);
      assert.match(first.session_id, /^[A-Za-z0-9_-]{8,64}$/);
      // Time first (base 36 milliseconds), so the server's index of visits grows at its end.
      const started = parseInt(first.session_id.slice(0, 8), 36);
      assert.ok(Math.abs(started - Date.parse(first.timestamp)) < 60_000, `${first.session_id} starts with the time`);
      assert.ok(mine().every((h) => h.session_id == first.session_id), "one session id per tab");
      assert.match(first.screen, /^\d+x\d+$/);
      assert.ok(!Number.isNaN(Date.parse(first.timestamp)));
      assert.equal(typeof window, "undefined");
      assert.equal(tracked(key).length - before, 4, "nothing but the four page views");
      // A real second page: a new page view in the same session, the first page as referrer.
      await page.goto(`${origin}/index.html`);
      await page.click("#about-link");
      await until("the about page view", () => mine().some((h) => h.url == `${origin}/about.html`));
      const about = mine().find((h) => h.url == `${origin}/about.html`);
      assert.equal(about.referrer, `${origin}/index.html`);
      assert.equal(about.session_id, first.session_id);
      // No cookies anywhere, and hits are CORS-simple (text/plain: no preflight).
      assert.deepEqual(await context.cookies(), []);
      const raw = endpoint.hits.filter((h) => h.path == "/api/track" && h.json?.session_id == first.session_id);
      assert.ok(raw.every((h) => !h.headers.cookie && h.headers["content-type"].startsWith("text/plain")));
      assert.ok(!requests.some((u) => /enhanced\.js|recorder\.js/.test(u)), "no enhanced or recorder chunk on a light site");
      assert.deepEqual(errors, []);
      assert.equal(await page.evaluate(() => ["track", "identify", "pageview", "consent"].every((m) => typeof window.tracker[m] == "function")), true);
      await context.close();
    });

    test(`${variant}: custom events, conversions, outbound links and downloads`, async () => {
      const key = "light_key_1";
      const origin = await site(key, variant);
      const { context } = await newContext(browser);
      const page = await context.newPage();
      await page.goto(`${origin}/index.html`);
      const sid = (await until("a page view", () => tracked(key, (h) => h.event == "pageview" && h.url.startsWith(origin)).at(-1))).session_id;
      const ofSession = (pred) => tracked(key, (h) => h.session_id == sid && pred(h));
      await page.click("#signup-cta");
      await page.click("#buy");
      await page.evaluate(() => window.tracker.identify({ plan: "pro", company: "Acme" }));
      const custom = await until("the custom event", () => ofSession((h) => h.event == "custom")[0]);
      assert.equal(custom.event_name, "newsletter_signup");
      assert.deepEqual(custom.event_properties, { plan: "pro", source: "hero" });
      const conv = await until("the conversion", () => ofSession((h) => h.event == "conversion")[0]);
      assert.equal(conv.event_name, "purchase");
      assert.deepEqual(conv.event_properties, { value: 49.9, currency: "EUR" });
      const ident = await until("identify", () => ofSession((h) => h.event == "identify")[0]);
      assert.deepEqual(ident.event_properties, { plan: "pro", company: "Acme" });
      // Only the hit matters here: the download itself could still be starting when the next page.goto runs
      // and interrupt it. The script listens in the capture phase, before this handler cancels the download.
      await page.evaluate(() => document.querySelector("#download").addEventListener("click", (e) => e.preventDefault()));
      await page.click("#download");
      const dl = await until("the download", () => ofSession((h) => h.event == "download")[0]);
      assert.equal(dl.event_properties.href, `${origin}/files/brochure.pdf`);
      // A link to another page of the same site is neither.
      await page.goto(`${origin}/index.html`);
      await page.click("#about-link");
      await until("the about page view", () => ofSession((h) => h.url.endsWith("/about.html"))[0]);
      // The outbound link leaves for a host this closed network cannot reach: the hit still goes out.
      await page.goto(`${origin}/index.html`);
      await page.click("#outbound", { noWaitAfter: true });
      const out = await until("the outbound click", () => ofSession((h) => h.event == "outbound")[0]);
      assert.equal(out.event_properties.href, "https://example.org/partners");
      assert.equal(ofSession((h) => h.event == "outbound" || h.event == "download").length, 2);
      await context.close();
    });
  }
});

describe("privacy", () => {
  test("Do-Not-Track and Global Privacy Control: nothing sent when the site respects them", async () => {
    for (const opts of [{ dnt: true }, { gpc: true }]) {
      const origin = await site("light_key_1");
      const { context, errors } = await newContext(browser, opts);
      const page = await context.newPage();
      await page.goto(`${origin}/index.html`);
      // The script has run (window.tracker exists) and its public API is a harmless no-op.
      await page.waitForFunction(() => window.tracker);
      await page.click("#buy");
      await page.evaluate(() => window.tracker.pageview());
      // The nodnt site on the same browser context is tracked: proves the script did run to the end.
      const other = await site("nodnt_key_1");
      await page.goto(`${other}/index.html`);
      await until("the page view of the site that ignores DNT", () => tracked("nodnt_key_1", (h) => h.url.startsWith(other)).length == 1);
      assert.equal(tracked("light_key_1", (h) => h.url.startsWith(origin)).length, 0, JSON.stringify(opts));
      assert.deepEqual(errors, []);
      await context.close();
    }
  });

  test("consent required: anonymous page views only until consent, then the consent event first", async () => {
    const key = "consent_key_1";
    const origin = await site(key);
    const { context, requests } = await newContext(browser);
    const page = await context.newPage();
    await page.goto(`${origin}/index.html`);
    const sid = (await until("a page view", () => tracked(key, (h) => h.url.startsWith(origin))[0])).session_id;
    const ofSession = () => tracked(key, (h) => h.session_id == sid);
    await page.click("#buy");
    await page.click("#signup-cta");
    await page.evaluate(() => window.tracker.identify({ name: "x" }));
    // Nothing but the page view, and no enhanced chunk, however long we look (a marker hit proves the
    // requests above would have been sent by now).
    await page.evaluate(() => window.tracker.pageview());
    assert.ok(!requests.some((u) => /enhanced\.js|recorder\.js/.test(u)));
    assert.deepEqual(ofSession().map((h) => h.event), ["pageview"]);
    await page.click("#consent-accept");
    await page.click("#buy");
    await until("consent then the conversion", () => ofSession().length >= 3);
    assert.deepEqual(ofSession().map((h) => h.event).slice(0, 3), ["pageview", "consent", "conversion"]);
    assert.deepEqual(ofSession()[1].event_properties, { analytics: true, marketing: true });
    await until("the enhanced chunk after consent", () => requests.some((u) => u.endsWith("/tracking/enhanced.js")));
    // The same decision again is not logged again; a change is.
    await page.click("#consent-accept");
    await page.click("#consent-decline");
    await until("the decline", () => ofSession().filter((h) => h.event == "consent").length == 2);
    assert.deepEqual(ofSession().filter((h) => h.event == "consent")[1].event_properties, { analytics: false, marketing: false });
    await page.click("#buy");
    await page.click("#consent-decline");
    await page.evaluate(() => window.tracker.pageview());
    assert.equal(ofSession().filter((h) => h.event == "conversion").length, 1, "nothing after the decline");
    await context.close();
  });
});

describe("the lazily loaded half (more.js)", () => {
  test("calls and clicks made before it arrives wait for it, in order, and none is lost", async () => {
    const key = "consent_key_1";
    const origin = await site(key);
    const { context, errors } = await newContext(browser);
    const page = await context.newPage();
    // more.js is held back until the calls below are made.
    let release;
    const held = new Promise((r) => (release = r));
    await page.route("**/tracking/more.*.js", async (route) => {
      await held;
      await route.continue();
    });
    // The held script keeps the load event back.
    await page.goto(`${origin}/index.html`, { waitUntil: "domcontentloaded" });
    const sid = (await until("a page view", () => tracked(key, (h) => h.url.startsWith(origin))[0])).session_id;
    const ofSession = () => tracked(key, (h) => h.session_id == sid);
    await page.evaluate(() => {
      window.info = window.tracker.consentInfo();
      window.tracker.consent({ analytics: true });
      window.tracker.track("purchase", { value: 5, currency: "EUR" });
      window.tracker.identify({ plan: "pro" });
    });
    await page.evaluate(() => document.querySelector("#download").addEventListener("click", (e) => e.preventDefault()));
    await page.click("#download");
    // (Not awaited: the methods' promises settle once more.js has run.)
    await page.evaluate(() => {
      window.tracker.pageview();
    });
    assert.equal(await page.evaluate(() => window.tracker._.y), undefined, "more.js has not run yet");
    assert.deepEqual(ofSession().map((h) => h.event), ["pageview"], "everything waits for more.js");
    release();
    await until("the queued hits", () => ofSession().length >= 5 || ofSession().map((h) => h.event));
    // The consent hit first (the rest wait for its answer), then the others, sent together.
    const events = ofSession().map((h) => h.event);
    assert.deepEqual(events.slice(0, 2), ["pageview", "consent"]);
    assert.deepEqual(events.slice(2).sort(), ["conversion", "download", "identify"]);
    assert.deepEqual(await page.evaluate(() => window.info), { required: true, message: "", policyUrl: "" });
    assert.deepEqual(errors, []);
    await context.close();
  });
});

describe("enhanced site", () => {
  test("clicks with coordinates, scroll depth, event definitions, and a masked recording", async () => {
    const key = "enhanced_key_1";
    const origin = await site(key);
    const { context, requests, errors, log } = await newContext(browser);
    const page = await context.newPage();
    await page.goto(`${origin}/index.html`);
    const sid = (await until("a page view", () => tracked(key, (h) => h.url.startsWith(origin))[0])).session_id;
    await until("the enhanced and recorder chunks", () => requests.some((u) => u.endsWith("/tracking/recorder.js")));
    await page.waitForFunction(() => window.tracker._.r);
    const box = await page.locator("#signup-cta").boundingBox();
    await page.mouse.move(box.x + 5, box.y + 5, { steps: 5 });
    await page.click("#signup-cta");
    await page.mouse.wheel(0, 5000);
    await until("scrolled to the bottom", () => page.evaluate(() => scrollY + innerHeight >= document.documentElement.scrollHeight - 2));
    const ix = () => endpoint.hits.filter((h) => h.path == "/api/interactions" && h.json.session_id == sid).map((h) => h.json);
    await until("interactions with the click and full scroll", () => ix().some((b) => b.clicks.length) && ix().some((b) => b.scrollDepth == 100), { timeout: 20000 });
    const click = ix().flatMap((b) => b.clicks)[0];
    assert.ok(Math.abs(click.x - (box.x + box.width / 2)) <= 2 && Math.abs(click.y - (box.y + box.height / 2)) <= 2, JSON.stringify(click));
    assert.equal(click.selector, "#signup-cta");
    // Clicked at the element's centre: its place inside the element is about (0.5, 0.5).
    assert.ok(Math.abs(click.ox - 0.5) <= 0.05 && Math.abs(click.oy - 0.5) <= 0.05, JSON.stringify(click));
    const b = ix()[0];
    assert.equal(b.url, `${origin}/index.html`);
    assert.deepEqual(b.viewport, { w: 1280, h: 720 });
    assert.ok(b.page.h > 1800);
    assert.ok(ix().flatMap((b) => b.moves).length >= 1);
    // The click definition (.cta) fired as a custom event.
    const def = await until("the definition event", () => tracked(key, (h) => h.session_id == sid && h.event_name == "cta_click")[0]);
    assert.equal(def.event, "custom");
    // The form: typed secrets never reach the recording; the submit definition is a conversion.
    await page.goto(`${origin}/form.html`);
    await page.fill("#email", "jane.secret@example.com");
    await page.fill("#password", "hunter2-very-secret");
    await page.fill("#company", "Initech Hidden Corp");
    await page.click("#submit");
    await page.waitForURL(`${origin}/thanks.html`);
    const submit = await until("the form submit in interactions", () => ix().flatMap((b) => b.submits)[0]);
    assert.equal(submit.selector, "#signup-form");
    // Form fields: focus, change and blur of each field typed into, filled, in the form; never the values.
    const { fields } = await until("the form's field events", () => {
      const f = ix().flatMap((b) => b.fields || []);
      return ["#email", "#password", "#company"].every((id) => f.some((e) => e.field == id && e.event == "blur")) ? { fields: f } : f;
    });
    for (const id of ["#email", "#password", "#company"]) {
      const own = fields.filter((e) => e.field == id);
      assert.deepEqual([...new Set(own.map((e) => e.event))].sort(), ["blur", "change", "focus"], `${id}: ${JSON.stringify(own)}`);
      assert.ok(own.every((e) => e.form == "#signup-form"), JSON.stringify(own));
      assert.equal(own.find((e) => e.event == "blur").filled, true);
    }
    for (const e of fields) assert.deepEqual(Object.keys(e).sort(), ["event", "field", "filled", "form", "t"], "nothing but these");
    const sent = JSON.stringify(ix());
    for (const secret of ["jane.secret", "hunter2", "Initech"]) assert.ok(!sent.includes(secret), `${secret} never sent`);
    assert.ok(!/"(value|length|len)"/.test(sent), "no value or length field");
    const conv = await until("the submit definition", () => tracked(key, (h) => h.session_id == sid && h.event_name == "signup_submit")[0]);
    assert.equal(conv.event, "conversion");
    assert.equal(conv.event_properties.value, 25);
    await page.goto(`${origin}/about.html`);
    await until("the pageview definition", () => tracked(key, (h) => h.session_id == sid && h.event_name == "about_view")[0]);
    const replays = () => endpoint.hits.filter((h) => h.path == "/api/replay" && h.query.session_id == sid);
    const pagesRecorded = () => replays().flatMap((h) => h.json).filter((e) => e.type == 4).map((e) => new URL(e.data.href).pathname);
    await until("replay chunks of four page loads", () => pagesRecorded().length >= 4 || pagesRecorded(), { timeout: 20000 }).catch((e) => {
      throw new Error(e.message + "\n" + log.filter((l) => !l.includes("/api/interactions")).join("\n"));
    });
    for (const r of replays()) {
      assert.equal(r.query.tracking_key, key);
      assert.equal(r.headers["content-type"], undefined, "no Content-Type: CORS-simple, no preflight");
      assert.equal(r.body[0], 0x1f, "gzip");
    }
    assert.ok(replays().filter((h) => h.query.final == "1").length >= 3, "a final chunk at each pagehide");
    const seqs = replays().map((h) => Number(h.query.seq)).sort((a, b) => a - b);
    assert.deepEqual(seqs, [...seqs.keys()], "seq runs 0, 1, 2... across page loads");
    const all = replays().map((h) => JSON.stringify(h.json)).join("\n");
    assert.ok(all.includes("Create your Acme account"), "the form page was recorded");
    for (const secret of ["jane.secret", "hunter2", "Initech", "4711-0815"]) assert.ok(!all.includes(secret), `${secret} leaked into the recording`);
    // Replayed in the dashboard's player, the recording shows the pages.
    const events = replays()
      .sort((a, b) => a.query.seq - b.query.seq)
      .flatMap((h) => h.json);
    const formStart = events.findIndex((e) => e.type == 4 && e.data.href.endsWith("/form.html"));
    const text = await replayText(browser, events.slice(0, events.findIndex((e, i) => i > formStart && e.type == 4)), undefined);
    assert.match(text, /Create your Acme account/);
    assert.ok(!/jane\.secret|hunter2/.test(text));
    assert.match(await replayText(browser, events), /About Acme/);
    assert.deepEqual(errors, []);
    await context.close();
  });
});
