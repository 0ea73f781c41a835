import { test } from "node:test";
import assert from "node:assert/strict";
import { countOf } from "../../src/lib/format.ts";
import { modelNote } from "../../src/lib/intent.ts";
import { documentTitle } from "../../src/screens.ts";

test("each screen has its own title, naming the site where the screen shows one", () => {
  assert.equal(documentTitle("/live", "Blog"), "Live Visitors · Blog · tracker");
  assert.equal(documentTitle("/", "Blog"), "Dashboard · Blog · tracker");
  assert.equal(documentTitle("/settings", "Blog"), "Settings · tracker");
  assert.equal(documentTitle("/funnels"), "Funnels · tracker");
  assert.equal(documentTitle("/nowhere", "Blog"), "Page Not Found · tracker");
});

test("counts read as English: one touchpoint, two touchpoints", () => {
  assert.equal(countOf(1, "touchpoint"), "1 touchpoint");
  assert.equal(countOf(0, "trigger"), "0 triggers");
  assert.equal(countOf(1204, "trigger"), "1,204 triggers");
  assert.equal(countOf(2, "company", "companies"), "2 companies");
});

test("the model card does not say Prior weights twice", () => {
  const note = "Prior weights: 2 conversions and 40 finished visits in the last 30 days; fitting needs at least 10.";
  assert.equal(modelNote("prior", note), "2 conversions and 40 finished visits in the last 30 days; fitting needs at least 10.");
  assert.equal(modelNote("fitted", "Fitted on 800 visits."), "Fitted on 800 visits.");
});
