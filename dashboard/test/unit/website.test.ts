import { test } from "node:test";
import assert from "node:assert/strict";
import { embedSnippet, normalizeNewWebsite, scriptUrlFor, validateWebsiteForm } from "../../src/lib/website.ts";
import { serverMessage } from "../../src/lib/errors.ts";
import { parseLiveMessage, sessionLabel, sessionStatus } from "../../src/lib/live.ts";
import { filterWebsites } from "../../src/lib/sites.ts";
import { referrerLabel, relativeWidth } from "../../src/lib/format.ts";

test("add dialog: trims, requires both fields, prefixes https://", () => {
  assert.equal(normalizeNewWebsite({ name: "  ", domain: "x.com" }), null);
  assert.equal(normalizeNewWebsite({ name: "Blog", domain: "   " }), null);
  assert.deepEqual(normalizeNewWebsite({ name: " Blog ", domain: " example.com " }), { name: "Blog", domain: "https://example.com" });
  assert.deepEqual(normalizeNewWebsite({ name: "Blog", domain: "http://example.com" }), { name: "Blog", domain: "http://example.com" });
  assert.deepEqual(normalizeNewWebsite({ name: "Blog", domain: "HTTPS://example.com" }), { name: "Blog", domain: "HTTPS://example.com" });
});

test("all sites form: the spec's messages", () => {
  assert.deepEqual(validateWebsiteForm({ name: "", domain: "" }), { name: "Website name is required", domain: "Domain is required" });
  assert.deepEqual(validateWebsiteForm({ name: "A", domain: "example" }), { domain: "Please enter a valid URL" });
  assert.deepEqual(validateWebsiteForm({ name: "A", domain: "https://example.com" }), {});
});

test("snippet and script URL", () => {
  assert.equal(scriptUrlFor({ trackingKey: "abc" }, "http://h:1"), "http://h:1/tracking/abc.js");
  assert.equal(scriptUrlFor({ trackingKey: "abc", scriptUrl: "https://x/tracking/abc.js" }, "http://h:1"), "https://x/tracking/abc.js");
  assert.equal(embedSnippet("https://x/t.js"), '<script async src="https://x/t.js"></script>');
});

test("server message from the daemon's error body", () => {
  assert.equal(serverMessage(new Error('401: {"error":{"message":"invalid credentials"}}')), "invalid credentials");
  assert.equal(serverMessage(new Error("500: Internal Server Error")), "Internal Server Error");
  assert.equal(serverMessage(new Error("Failed to fetch")), "Failed to fetch");
});

test("live list shaping", () => {
  assert.equal(sessionLabel("abcdef0123456789"), "Session 23456789");
  const now = Date.parse("2026-11-21T12:00:00Z");
  assert.equal(sessionStatus("2026-11-21T11:55:01Z", now), "Active");
  assert.equal(sessionStatus("2026-11-21T11:55:00Z", now), "Idle");
  assert.deepEqual(parseLiveMessage('{"type":"active_sessions","data":[]}'), []);
  assert.equal(parseLiveMessage('{"type":"other","data":[]}'), null);
  const warn = console.warn;
  console.warn = () => {};
  assert.equal(parseLiveMessage("not json"), null);
  console.warn = warn;
});

test("search, referrers, bars", () => {
  const sites = [
    { id: 1, name: "Blog", domain: "https://blog.example.com", trackingKey: "a", trackingLevel: "light" as const, createdAt: "" },
    { id: 2, name: "Shop", domain: "https://shop.test", trackingKey: "b", trackingLevel: "light" as const, createdAt: "" },
  ];
  assert.deepEqual(filterWebsites(sites, "SHOP").map((s) => s.id), [2]);
  assert.deepEqual(filterWebsites(sites, "example").map((s) => s.id), [1]);
  assert.equal(filterWebsites(sites, " ").length, 2);
  assert.equal(referrerLabel(""), "Direct");
  assert.equal(relativeWidth(50, 100), 50);
  assert.equal(relativeWidth(0, 100), 0);
});

test("activity titles", async () => {
  const { activityTitle } = await import("../../src/lib/activity.ts");
  const base = { id: 1, name: "", url: "https://x/", sessionId: "s", country: "", value: null, timestamp: "" };
  assert.equal(activityTitle({ ...base, type: "pageview" }), "Page view");
  assert.equal(activityTitle({ ...base, type: "custom", name: "button_click" }), "Event: button_click");
  assert.equal(activityTitle({ ...base, type: "conversion", name: "purchase" }), "Conversion: purchase");
  assert.equal(activityTitle({ ...base, type: "download" }), "File download");
});
