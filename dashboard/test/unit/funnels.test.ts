import { test } from "node:test";
import assert from "node:assert/strict";
import { DEFAULT_STEPS, funnelBody, moveStep, statusTone, stepHealth, validateFunnelForm } from "../../src/lib/funnels.ts";
import { classifyJourney, flowData, formatJourneyDuration } from "../../src/lib/journeys.ts";

test("funnel form: the spec's messages", () => {
  const ok = { name: "Checkout", websiteId: 1 as const, steps: [...DEFAULT_STEPS] };
  assert.deepEqual(validateFunnelForm(ok), {});
  assert.equal(validateFunnelForm({ ...ok, name: " " }).name, "Funnel name is required");
  assert.equal(validateFunnelForm({ ...ok, websiteId: "" }).websiteId, "Website is required");
  assert.equal(validateFunnelForm({ ...ok, steps: [ok.steps[0]!] }).steps, "At least 2 steps are required");
  const bad = validateFunnelForm({ ...ok, steps: [{ name: "", url: "/" }, { name: "B", url: "" }] });
  assert.deepEqual(bad.step, { 0: { name: "Step name is required" }, 1: { url: "URL is required" } });
});

test("funnel defaults, body and reordering", () => {
  assert.deepEqual(DEFAULT_STEPS.map((s) => [s.name, s.url, s.eventName]), [
    ["Landing Page", "/", ""],
    ["Product Page", "/product", ""],
    ["Checkout", "/checkout", ""],
    ["Purchase", "/success", "purchase"],
  ]);
  const body = funnelBody({ name: " F ", websiteId: 2, steps: [{ name: " A ", url: " / ", eventName: " " }, { name: "B", url: "/b", eventName: "buy" }] });
  assert.deepEqual(body, { name: "F", websiteId: 2, steps: [{ name: "A", url: "/" }, { name: "B", url: "/b", eventName: "buy" }] });
  assert.deepEqual(moveStep([1, 2, 3], 2, -1), [1, 3, 2]);
  assert.deepEqual(moveStep([1, 2, 3], 0, -1), [1, 2, 3]);
});

test("step health 60/30 and status tones", () => {
  assert.equal(stepHealth(60), "good");
  assert.equal(stepHealth(59.9), "medium");
  assert.equal(stepHealth(30), "medium");
  assert.equal(stepHealth(29.9), "poor");
  assert.equal(statusTone("active"), "green");
  assert.equal(statusTone("paused"), "yellow");
  assert.equal(statusTone("archived"), "gray");
});

test("journey classification follows spec section 4", () => {
  assert.equal(classifyJourney({ isCompleted: true, conversionEvents: 1, journeyScore: 10 }), "Converted");
  assert.equal(classifyJourney({ isCompleted: false, conversionEvents: 1, journeyScore: 71 }), "High Intent");
  assert.equal(classifyJourney({ isCompleted: true, conversionEvents: 0, journeyScore: 70 }), "Abandoned");
  assert.equal(classifyJourney({ isCompleted: false, conversionEvents: 0, journeyScore: 70 }), "Active");
});

test("journey durations: seconds, minutes and seconds, hours and minutes", () => {
  assert.equal(formatJourneyDuration(59), "59s");
  assert.equal(formatJourneyDuration(323), "5m 23s");
  assert.equal(formatJourneyDuration(3599), "59m 59s");
  assert.equal(formatJourneyDuration(3660), "1h 1m");
  assert.equal(formatJourneyDuration(-4), "0s");
});

test("flow data: a node per page and depth, links summed", () => {
  const flow = flowData([
    { pages: ["/", "/pricing"], sessions: 3, conversions: 0, conversionRate: 0 },
    { pages: ["/", "/pricing", "/"], sessions: 2, conversions: 1, conversionRate: 50 },
  ]);
  assert.deepEqual(flow.nodes.map((n) => n.name), ["1. /", "2. /pricing", "3. /"]);
  assert.deepEqual(flow.links, [
    { source: 0, target: 1, value: 5 },
    { source: 1, target: 2, value: 2 },
  ]);
});
