import { test } from "node:test";
import assert from "node:assert/strict";
import {
  PRESETS,
  customRangeError,
  isOneDay,
  parsePeriod,
  periodLabel,
  periodQuery,
  previousPeriodName,
  writePeriod,
} from "../../src/lib/period.ts";
import { pointLabel } from "../../src/lib/time.ts";
import { changeCaption } from "../../src/lib/change.ts";

const params = (q: string) => new URLSearchParams(q);

test("no period in the URL, or a blank range, is the screen's default", () => {
  assert.equal(parsePeriod(params("")), null);
  assert.equal(parsePeriod(params("range=&website=3")), null);
});

test("a preset and a custom span read from the URL and go to the API as the daemon takes them", () => {
  assert.deepEqual(parsePeriod(params("website=1&range=28d")), { range: "28d" });
  assert.equal(periodQuery({ range: "28d" }), "range=28d");
  const custom = parsePeriod(params("range=7d&from=2026-11-01&to=2026-11-15"));
  assert.deepEqual(custom, { from: "2026-11-01", to: "2026-11-15" }, "from/to win over a stale range");
  assert.equal(periodQuery({ from: "2026-11-01", to: "2026-11-15" }), "from=2026-11-01&to=2026-11-15");
  // A lone bound is kept and sent, for the daemon's 400 to name, not read as another period.
  assert.deepEqual(parsePeriod(params("from=2026-11-01")), { from: "2026-11-01", to: "" });
  assert.equal(periodQuery({ range: "a&b" }), "range=a%26b");
});

test("writing a period replaces the previous one and keeps the other parameters", () => {
  const custom = writePeriod(params("website=4&filters=x&range=7d"), { from: "2026-11-01", to: "2026-11-02" });
  assert.equal(custom.toString(), "website=4&filters=x&from=2026-11-01&to=2026-11-02");
  const preset = writePeriod(custom, { range: "all" });
  assert.equal(preset.toString(), "website=4&filters=x&range=all");
  for (const p of PRESETS) assert.deepEqual(parsePeriod(writePeriod(params(""), { range: p.range })), { range: p.range });
});

test("the picker's label says the period", () => {
  assert.equal(periodLabel({ range: "28d" }), "Last 28 days");
  assert.equal(periodLabel({ range: "all" }), "All time");
  assert.equal(periodLabel({ range: "fortnight" }), "fortnight");
  assert.equal(periodLabel({ from: "2026-11-01", to: "2026-11-15" }), "1 Nov – 15 Nov 2026");
  assert.equal(periodLabel({ from: "2025-12-30", to: "2026-01-02" }), "30 Dec 2025 – 2 Jan 2026");
  assert.equal(periodLabel({ from: "2026-11-15", to: "2026-11-15" }), "15 Nov 2026");
  assert.equal(periodLabel({ from: "2026-11-01", to: "" }), "2026-11-01 – ?");
});

test("one day is read by the hour", () => {
  assert.ok(isOneDay({ range: "today" }));
  assert.ok(isOneDay({ range: "yesterday" }));
  assert.ok(isOneDay({ from: "2026-11-15", to: "2026-11-15" }));
  assert.ok(!isOneDay({ range: "7d" }));
  assert.ok(!isOneDay({ from: "2026-11-14", to: "2026-11-15" }));
  assert.equal(pointLabel("2026-11-15T13:00:00Z"), "13:00");
  assert.equal(pointLabel("2026-11-15"), "Nov 15");
});

test("the custom dialog refuses a start after the end, a missing day and an impossible one", () => {
  assert.equal(customRangeError("2026-11-01", "2026-11-15"), null);
  assert.equal(customRangeError("2026-11-15", "2026-11-15"), null);
  assert.match(customRangeError("2026-11-16", "2026-11-15") ?? "", /start must not be after the end/);
  assert.match(customRangeError("", "2026-11-15") ?? "", /both days/);
  assert.match(customRangeError("2026-02-30", "2026-03-01") ?? "", /dates/);
});

test("the cards' captions name the period they compare with", () => {
  assert.equal(previousPeriodName({ range: "today" }), "yesterday");
  assert.equal(previousPeriodName({ range: "30d" }), "last month");
  assert.equal(previousPeriodName({ range: "7d" }), "previous period");
  assert.equal(previousPeriodName({ from: "2026-11-01", to: "2026-11-15" }), "previous period");
  assert.equal(changeCaption(5, 0, { range: "today" }).text, "New vs yesterday");
  assert.deepEqual(changeCaption(5, 0, { range: "all" }), { text: "Since the first data", trend: "flat" });
});
