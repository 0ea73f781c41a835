import { test } from "node:test";
import assert from "node:assert/strict";
import { compareName, compareQuery, parseCompare, rowChange } from "../../src/lib/compare.ts";
import { changeCaption } from "../../src/lib/change.ts";

test("compare: read from the URL, only the comparisons the daemon offers", () => {
  assert.equal(parseCompare(new URLSearchParams("compare=year_over_year")), "year_over_year");
  assert.equal(parseCompare(new URLSearchParams("compare=previous_period")), "previous_period");
  assert.equal(parseCompare(new URLSearchParams("compare=decade")), null);
  assert.equal(parseCompare(new URLSearchParams("")), null);
  assert.equal(compareQuery(null), "");
  assert.equal(compareQuery("year_over_year"), "&compare=year_over_year");
});

test("compare: a row's change, new when the earlier period had none", () => {
  assert.deepEqual(rowChange(15, 10), { text: "+50%", trend: "up" });
  assert.deepEqual(rowChange(5, 10), { text: "-50%", trend: "down" });
  assert.deepEqual(rowChange(3, 0), { text: "new", trend: "up" });
  assert.deepEqual(rowChange(0, 0), { text: "0%", trend: "flat" });
  assert.equal(rowChange(3, undefined), null);
  assert.equal(rowChange(3, null), null);
});

test("compare: a year earlier names itself in the cards' captions", () => {
  assert.equal(changeCaption(150, 100, { range: "7d" }, compareName("year_over_year")).text, "+50.0% vs a year earlier");
  assert.equal(changeCaption(150, 100, { range: "7d" }, compareName("previous_period")).text, "+50.0% vs previous period");
});
