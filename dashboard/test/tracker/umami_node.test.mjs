// Issue 38: Umami's Node client (`@umami/node`, a devDependency) against the real daemon, initialised with
// `hostUrl` at it and `websiteId` the site's tracking key, then the site's Umami website id: page views, a
// custom event with data and an `identify`, read back through our own API on the right site. The client sends
// `POST {hostUrl}/api/send` with its own user agent unless given the visitor's (`userAgent`), and reads
// nothing of the answer (no `x-umami-cache` round trip).
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, test } from "node:test";
import { Umami } from "@umami/node";
import { USER_AGENT, apiClient, startDaemon, until } from "./harness.mjs";

const DOMAIN = "docs.acme.example";

let daemon, api;

before(async () => {
  daemon = await startDaemon();
  api = await apiClient(daemon.url);
});
after(async () => {
  await daemon?.stop();
});

const query = (body) => api.post("/api/v2/query", { date_range: "day", ...body });
const rows = (answer) => answer.results.map((r) => [r.dimensions, r.metrics]);

test("@umami/node: page views, an event with data and identify are stored on the site its websiteId names", async () => {
  // Professional: identify's traits are kept from that level up. Another site must stay empty.
  const website = await api.post("/api/websites", { name: "Acme docs", domain: `https://${DOMAIN}`, trackingLevel: "professional" });
  const other = await api.post("/api/websites", { name: "Acme blog", domain: "https://blog.acme.example" });
  const umamiId = randomUUID();
  await api.put(`/api/websites/${website.id}`, { umamiWebsiteId: umamiId });

  // A server rendering pages for a visitor passes the visitor's user agent, as Umami's docs say.
  const byKey = new Umami();
  byKey.init({ websiteId: website.trackingKey, hostUrl: daemon.url, userAgent: USER_AGENT });
  const answers = [];
  const page = { hostname: DOMAIN, screen: "1920x1080", language: "en-US", referrer: "https://news.example.org/story" };
  answers.push(await byKey.track({ ...page, url: "/guide?utm_source=newsletter#install", title: "Guide" }));
  answers.push(await byKey.track({ ...page, url: "/api-reference", title: "API", referrer: "" }));
  answers.push(await byKey.track("download-sdk", { language: "rust", version: "2" }));
  answers.push(await byKey.identify({ company: "Acme Corp", industry: "Retail" }));
  // The same site by the Umami website id it had before the switch.
  const byUmamiId = new Umami();
  byUmamiId.init({ websiteId: umamiId, hostUrl: daemon.url, userAgent: USER_AGENT });
  answers.push(await byUmamiId.track({ ...page, url: "/changelog", title: "Changelog", referrer: "" }));
  for (const answer of answers) {
    const body = await answer.json();
    assert.equal(answer.status, 200, JSON.stringify(body));
    assert.match(body.sessionId, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, JSON.stringify(body));
  }

  const { r: totals } = await until("three page views stored", async () => {
    const r = rows(await query({ site_id: DOMAIN, metrics: ["visitors", "pageviews"] }));
    return r[0]?.[1][1] == 3 ? { r } : r;
  });
  assert.deepEqual(totals, [[[], [1, 3]]], "one visitor (the server's address, the visitor's user agent)");
  // The event and the identify, sent without a url, are on "/" with no page view.
  const pages = rows(await query({ site_id: DOMAIN, metrics: ["pageviews"], dimensions: ["event:page"] }))
    .filter(([, [views]]) => views > 0)
    .sort();
  assert.deepEqual(pages, [[["/api-reference"], [1]], [["/changelog"], [1]], [["/guide"], [1]]], "the fragment and query dropped");
  const sources = rows(await query({ site_id: DOMAIN, metrics: ["visitors"], dimensions: ["visit:utm_source"] }));
  assert.deepEqual(sources, [[["newsletter"], [1]]]);
  const names = rows(await query({ site_id: DOMAIN, metrics: ["events"], dimensions: ["event:name"] })).map(([d]) => d[0]);
  assert.ok(names.includes("download-sdk"), JSON.stringify(names));
  const data = rows(await query({ site_id: DOMAIN, metrics: ["events"], dimensions: ["event:props:language"], filters: [["is", "event:name", ["download-sdk"]]] }));
  assert.deepEqual(data, [[["rust"], [1]]]);
  const identified = await api.get(`/api/websites/${website.id}/identified-visitors`);
  assert.deepEqual(
    identified.map((v) => [v.companyName, v.industry]),
    [["Acme Corp", "Retail"]],
  );
  const elsewhere = rows(await query({ site_id: "blog.acme.example", metrics: ["pageviews", "events"] }));
  assert.deepEqual(elsewhere, [[[], [0, 0]]], `nothing on ${other.domain}`);
});

test("@umami/node without a visitor's user agent: its own one is not a bot's, the hit is stored", async () => {
  const website = await api.post("/api/websites", { name: "Acme status", domain: "https://status.acme.example" });
  const client = new Umami();
  client.init({ websiteId: website.trackingKey, hostUrl: daemon.url });
  const answer = await client.track({ hostname: "status.acme.example", url: "/incidents", title: "Incidents" });
  const body = await answer.json();
  assert.equal(answer.status, 200);
  assert.ok(body.sessionId, `stored, not answered as a bot's: ${JSON.stringify(body)}`);
  const { r: totals } = await until("the page view stored", async () => {
    const r = rows(await query({ site_id: "status.acme.example", metrics: ["pageviews"] }));
    return r[0]?.[1][0] == 1 ? { r } : r;
  });
  assert.deepEqual(totals, [[[], [1]]]);
});
