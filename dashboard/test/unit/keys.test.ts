import { test } from "node:test";
import assert from "node:assert/strict";
import { matchQuery, QueryClient } from "@tanstack/react-query";
import { keys } from "../../src/api/keys.ts";

test("every per-site key falls under site(id).all and no other site's", () => {
  const reads = [
    keys.site(7).overview("30d"),
    keys.site(7).timeseries("7d"),
    keys.site(7).recentActivity(10),
    keys.site(7).read("referrers"),
    keys.site(7).read("events/summary", { timeRange: "24h" }),
  ];
  for (const key of reads) {
    assert.deepEqual(key.slice(0, 2), keys.site(7).all);
    assert.notDeepEqual(key.slice(0, 2), keys.site(70).all);
  }
});

test("invalidating a site's keys marks its reads stale and leaves other sites and lists alone", async () => {
  const client = new QueryClient();
  client.setQueryData(keys.site(1).overview("30d"), { n: 1 });
  client.setQueryData(keys.site(1).read("countries"), []);
  client.setQueryData(keys.site(2).overview("30d"), { n: 2 });
  client.setQueryData(keys.websites, []);
  client.setQueryData(keys.sitesPeriods.metric("visitors"), []);
  await client.invalidateQueries({ queryKey: keys.site(1).all });
  const stale = client
    .getQueryCache()
    .getAll()
    .filter((q) => q.state.isInvalidated)
    .map((q) => q.queryKey);
  assert.deepEqual(
    stale.sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
    [keys.site(1).overview("30d"), keys.site(1).read("countries")].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
  );
  assert.ok(matchQuery({ queryKey: keys.sitesPeriods.all }, client.getQueryCache().find({ queryKey: keys.sitesPeriods.metric("visitors") })!));
});
