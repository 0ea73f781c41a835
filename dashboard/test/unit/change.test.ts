import { test } from "node:test";
import assert from "node:assert/strict";
import { changeCaption, conversionCaption, percentChange } from "../../src/lib/change.ts";

test("change caption: sign, one decimal, vs last month for 30d", () => {
  assert.deepEqual(changeCaption(1125, 1000, { range: "30d" }), { text: "+12.5% vs last month", trend: "up" });
  assert.deepEqual(changeCaption(979, 1000, { range: "30d" }), { text: "-2.1% vs last month", trend: "down" });
  assert.deepEqual(changeCaption(1082, 1000, { range: "30d" }), { text: "+8.2% vs last month", trend: "up" });
});

test("change caption: other ranges compare with the previous period", () => {
  assert.equal(changeCaption(150, 100, { range: "7d" }).text, "+50.0% vs previous period");
  assert.equal(changeCaption(50, 100, { range: "90d" }).text, "-50.0% vs previous period");
});

test("change caption: no change and nothing to compare with", () => {
  assert.deepEqual(changeCaption(0, 0, { range: "30d" }), { text: "+0.0% vs last month", trend: "flat" });
  assert.deepEqual(changeCaption(100, 100, { range: "30d" }), { text: "+0.0% vs last month", trend: "flat" });
  assert.deepEqual(changeCaption(5, 0, { range: "30d" }), { text: "New vs last month", trend: "new" });
  assert.equal(percentChange(5, 0), null);
});

test("rounding to one decimal keeps the sign of tiny drops honest", () => {
  assert.equal(changeCaption(9999, 10000, { range: "30d" }).text, "+0.0% vs last month");
  assert.equal(changeCaption(1, 3, { range: "30d" }).text, "-66.7% vs last month");
});

test("conversion caption", () => {
  assert.equal(conversionCaption(0, 0), "No conversions");
  assert.equal(conversionCaption(3, 2.5), "2.5% rate");
});
