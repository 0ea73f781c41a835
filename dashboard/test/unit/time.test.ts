import { test } from "node:test";
import assert from "node:assert/strict";
import { dayLabel, formatDate, formatDuration, relativeTime } from "../../src/lib/time.ts";

const now = new Date(2026, 10, 21, 12, 0, 0).getTime();
const ago = (ms: number) => new Date(now - ms).toISOString();

test("relative time: Just now under a minute", () => {
  assert.equal(relativeTime(ago(0), now), "Just now");
  assert.equal(relativeTime(ago(59_999), now), "Just now");
});

test("relative time: minutes under an hour", () => {
  assert.equal(relativeTime(ago(60_000), now), "1m ago");
  assert.equal(relativeTime(ago(59 * 60_000 + 59_000), now), "59m ago");
});

test("relative time: hours under a day", () => {
  assert.equal(relativeTime(ago(60 * 60_000), now), "1h ago");
  assert.equal(relativeTime(ago(23 * 3_600_000 + 59 * 60_000), now), "23h ago");
});

test("relative time: MMM d from a day on", () => {
  assert.equal(relativeTime(new Date(2026, 10, 20, 11, 0).toISOString(), now), "Nov 20");
  assert.equal(relativeTime(new Date(2026, 0, 5, 9, 0).toISOString(), now), "Jan 5");
});

test("created date reads like Jan 5, 2025", () => {
  assert.equal(formatDate(new Date(2025, 0, 5, 10, 0)), "Jan 5, 2025");
});

test("day keys and durations", () => {
  assert.equal(dayLabel("2026-11-15"), "Nov 15");
  assert.equal(formatDuration(42), "42s");
  assert.equal(formatDuration(192), "3m 12s");
  assert.equal(formatDuration(3900), "1h 5m");
});
