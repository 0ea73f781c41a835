// A share page's reads are the dashboard's own with their paths rewritten to the link's share routes: every read
// the Analytics Dashboard makes maps onto /api/share/{slug}/..., and nothing else is rewritten into one.
import assert from "node:assert/strict";
import { test } from "node:test";
import { sharePath } from "../../src/api/share.ts";

test("the dashboard's site reads map onto the link's share reads", () => {
  const cases: [string, string][] = [
    ["/api/dashboard/overview?website_id=0&range=30d&filters=x", "/api/share/s1/overview?range=30d&filters=x"],
    ["/api/dashboard/overview?website_id=0", "/api/share/s1/overview"],
    ["/api/dashboard/timeseries?website_id=0&from=2026-01-01&to=2026-01-31", "/api/share/s1/timeseries?from=2026-01-01&to=2026-01-31"],
    ["/api/websites/0/breakdown/prop%3Aplan?range=7d&limit=10", "/api/share/s1/breakdown/prop%3Aplan?range=7d&limit=10"],
    ["/api/websites/0/traffic-sources?range=7d", "/api/share/s1/traffic-sources?range=7d"],
    ["/api/websites/0/referrers?range=7d", "/api/share/s1/referrers?range=7d"],
    ["/api/websites/0/countries?range=7d", "/api/share/s1/countries?range=7d"],
  ];
  for (const [owner, shared] of cases) assert.equal(sharePath(owner, "s1"), shared, owner);
});

test("paths that are no site read stay as they are", () => {
  for (const path of ["/api/user", "/api/websites", "/api/dashboard/sites?metric=pageviews", "/api/replays/3"]) {
    assert.equal(sharePath(path, "s1"), path);
  }
  assert.equal(sharePath("/api/websites/0/referrers", "a/b"), "/api/share/a%2Fb/referrers", "the slug is one segment");
});
