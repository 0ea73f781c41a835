import { test } from "node:test";
import assert from "node:assert/strict";
import type { Organization } from "../../src/api/organizations.ts";
import { sentenceEndingWith } from "../../src/lib/format.ts";
import { confidenceTone, normaliseDomain, organizationStats, sortOrganizations, visitUrl } from "../../src/lib/organizations.ts";

const org = (o: Partial<Organization>): Organization => ({
  id: 1, organizationName: "A", domain: null, industry: null, size: null, location: "US", sessionCount: 1, confidence: 70,
  lastSeen: "2026-11-01T00:00:00.000Z", ...o,
});

test("sorts by sessions, recency, name and confidence", () => {
  const list = [
    org({ id: 1, organizationName: "beta", sessionCount: 5, confidence: 70, lastSeen: "2026-11-02T00:00:00Z" }),
    org({ id: 2, organizationName: "Alpha", sessionCount: 9, confidence: 90, lastSeen: "2026-11-01T00:00:00Z" }),
    org({ id: 3, organizationName: "gamma", sessionCount: 1, confidence: 85, lastSeen: "2026-11-03T00:00:00Z" }),
  ];
  assert.deepEqual(sortOrganizations(list, "sessions").map((o) => o.id), [2, 1, 3]);
  assert.deepEqual(sortOrganizations(list, "recent").map((o) => o.id), [3, 1, 2]);
  assert.deepEqual(sortOrganizations(list, "name").map((o) => o.id), [2, 1, 3]);
  assert.deepEqual(sortOrganizations(list, "confidence").map((o) => o.id), [2, 3, 1]);
});

test("cards and insights count what the owner supplied", () => {
  const s = organizationStats([
    org({ sessionCount: 4, size: "enterprise", confidence: 90, industry: "Retail" }),
    org({ sessionCount: 6, size: null, confidence: 70, industry: "retail" }),
    org({ sessionCount: 2, size: "small", confidence: 85 }),
  ]);
  assert.deepEqual(s, { total: 3, enterpriseVisitors: 4, b2bSessions: 12, averageConfidence: 82, enterpriseShare: 33.3, highConfidence: 2, industries: 1 });
  assert.equal(organizationStats([]).averageConfidence, 0);
});

test("confidence colours at 90 and 75", () => {
  assert.deepEqual([95, 90, 89, 75, 74].map(confidenceTone), ["green", "green", "yellow", "yellow", "red"]);
});

test("Visit opens only https host names", () => {
  assert.equal(visitUrl("Example.com"), "https://example.com/");
  assert.equal(visitUrl(null), null);
  for (const bad of ["javascript:alert(1)", "example", "ex ample.com", "a.com/x", "data:text/html,x"]) assert.equal(visitUrl(bad), null, bad);
  assert.equal(normaliseDomain("https://acme.io/"), "acme.io");
  assert.equal(normaliseDomain(""), "");
});

test("a name ending in a period ends the sentence once", () => {
  assert.equal(sentenceEndingWith("What you know of ", "Apple Inc."), "What you know of Apple Inc.");
  assert.equal(sentenceEndingWith("What you know of ", "Acme"), "What you know of Acme.");
});
