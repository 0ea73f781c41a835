import { test } from "node:test";
import assert from "node:assert/strict";
import type { RecordedEvent, ReplaySummary } from "../../src/api/replays.ts";
import { PLAYER, addressPrefix, fitPlayer, formatBytes, formatClock, formatStarted, sessionLabel, timelineMarks } from "../../src/lib/replays.ts";

test("session label: the first 8 characters, the visit's start, which tell visits a second apart apart", () => {
  const a = `${(1_763_800_000_000).toString(36)}k3j9x8q2ab`;
  const b = `${(1_763_800_001_000).toString(36)}p0zz71mmcd`;
  assert.notEqual(sessionLabel(a), sessionLabel(b));
  assert.equal(sessionLabel(a), (1_763_800_000_000).toString(36).slice(0, 8));
  assert.equal(sessionLabel("short-1"), "short-1");
});

test("m:ss, bytes and 'MMM d, HH:mm'", () => {
  assert.equal(formatClock(0), "0:00");
  assert.equal(formatClock(65), "1:05");
  assert.equal(formatClock(3599.6), "60:00");
  assert.equal(formatClock(Number.NaN), "0:00");
  assert.equal(formatBytes(812), "812 B");
  assert.equal(formatBytes(14_540), "14.2 KB");
  assert.equal(formatBytes(3.1 * 1024 * 1024), "3.1 MB");
  assert.equal(formatStarted(new Date(2026, 10, 5, 9, 7)), "Nov 5, 09:07");
  assert.equal(formatStarted("not a date"), "");
  assert.equal(addressPrefix("198.51.100.0"), "198.51.1");
  assert.equal(addressPrefix(null), "-");
});

const replay = (over: Partial<ReplaySummary>): ReplaySummary => ({
  id: 1,
  sessionId: "abcdefgh1234",
  startTime: "2026-11-22T10:00:00Z",
  duration: 60,
  fileSize: 1000,
  screenResolution: "1280x720",
  isComplete: true,
  clickCount: 0,
  session: { deviceType: "Desktop", browser: "Chrome", os: "Linux", country: "DE", ipAddress: null, pageViewCount: 1 },
  organization: null,
  ...over,
});

test("timeline marks: page changes, clicks and custom events, from the first event", () => {
  const events: RecordedEvent[] = [
    { type: 4, timestamp: 1000, data: { href: "https://shop.example.com/", width: 1280, height: 720 } },
    { type: 2, timestamp: 1001, data: {} },
    { type: 3, timestamp: 3000, data: { source: 2, type: 2, id: 5, x: 1, y: 1 } },
    { type: 3, timestamp: 3500, data: { source: 2, type: 1, id: 5 } }, // mouse down: not a click
    { type: 3, timestamp: 3600, data: { source: 1, positions: [] } },
    { type: 5, timestamp: 4000, data: { tag: "signup", payload: {} } },
    { type: 4, timestamp: 9000, data: { href: "https://shop.example.com/pricing?plan=pro" } },
  ];
  assert.deepEqual(timelineMarks(events), [
    { kind: "page", offset: 0, label: "/" },
    { kind: "click", offset: 2000, label: "Click" },
    { kind: "custom", offset: 3000, label: "signup" },
    { kind: "page", offset: 8000, label: "/pricing?plan=pro" },
  ]);
  assert.deepEqual(timelineMarks([]), []);
});

test("the player fits its container: at most 1024x576, 16:9, never under 240 px wide", () => {
  assert.deepEqual(fitPlayer(1400), { width: PLAYER.width, height: PLAYER.height });
  assert.deepEqual(fitPlayer(390.7), { width: 390, height: 219 });
  assert.deepEqual(fitPlayer(100), { width: 240, height: 135 });
});
