import { test } from "node:test";
import assert from "node:assert/strict";
import type { IntentSession } from "../../src/api/advanced.ts";
import {
  highIntentVisitors,
  intentLabel,
  intentTone,
  sessionMinutes,
  shortVisitorId,
  visitorAdvice,
  visitorId,
} from "../../src/lib/intent.ts";

test("score labels and colour bands follow the spec's thresholds", () => {
  assert.deepEqual([80, 79, 60, 59, 40, 39, 20, 19].map(intentLabel), ["Very High", "High", "High", "Medium", "Medium", "Low", "Low", "Very Low"]);
  assert.deepEqual([80, 60, 40, 39].map(intentTone), ["green", "blue", "yellow", "red"]);
});

test("the high-intent list: 60 or more, descending, at most 10", () => {
  const session = (score: number): IntentSession => ({ sessionId: `s-${score}`, intentScore: score } as IntentSession);
  const list = highIntentVisitors([59, 61, 90, 60, 70, 99, 98, 97, 96, 95, 94, 93, 10].map(session));
  assert.deepEqual(list.map((s) => s.intentScore), [99, 98, 97, 96, 95, 94, 93, 90, 70, 61]);
});

test("visitor ids, advice and minutes", () => {
  assert.equal(visitorId("abcdefghijklmnopqrstuvwxyz"), "abcdefghijklmnop");
  assert.equal(shortVisitorId("abcdefghijklmnopqrstuvwxyz"), "abcdefgh");
  assert.ok(visitorAdvice(71).recommendation);
  assert.deepEqual(visitorAdvice(70), { flags: [] });
  assert.deepEqual(visitorAdvice(39).flags, ["Low engagement", "May leave soon"]);
  assert.equal(sessionMinutes(150), "3m");
  assert.equal(sessionMinutes(29), "0m");
});
