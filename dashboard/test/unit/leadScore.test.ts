import { test } from "node:test";
import assert from "node:assert/strict";
import { leadScoreClass, leadScoreTone } from "../../src/lib/leadScore.ts";

test("lead score: above 70 green, above 40 yellow, otherwise grey", () => {
  assert.equal(leadScoreTone(100), "green");
  assert.equal(leadScoreTone(71), "green");
  assert.equal(leadScoreTone(70), "yellow");
  assert.equal(leadScoreTone(41), "yellow");
  assert.equal(leadScoreTone(40), "grey");
  assert.equal(leadScoreTone(0), "grey");
  assert.match(leadScoreClass(80), /emerald/);
  assert.match(leadScoreClass(50), /amber/);
  assert.match(leadScoreClass(10), /gray/);
});
