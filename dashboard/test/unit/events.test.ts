import { test } from "node:test";
import assert from "node:assert/strict";
import { EMPTY_EVENT_FORM, eventInput, triggersById } from "../../src/lib/events.ts";

test("event form: blank event name or display name sends nothing", () => {
  assert.equal(eventInput({ ...EMPTY_EVENT_FORM, name: "  ", displayName: "Buy" }), null);
  assert.equal(eventInput({ ...EMPTY_EVENT_FORM, name: "buy", displayName: "" }), null);
});

test("event form: trims, and drops the conversion value unless it is a conversion", () => {
  const body = eventInput({ ...EMPTY_EVENT_FORM, name: " buy ", displayName: " Buy ", conversionValue: "5" });
  assert.deepEqual(body, { name: "buy", displayName: "Buy", description: "", eventType: "click", selector: "", isConversion: false, conversionValue: "" });
  assert.equal(eventInput({ ...EMPTY_EVENT_FORM, name: "b", displayName: "B", isConversion: true, conversionValue: " 9.5 " })?.conversionValue, "9.5");
});

test("trigger counts by id", () => {
  assert.equal(triggersById([{ id: 3, count: 7 }]).get(3), 7);
  assert.equal(triggersById(undefined).get(3), undefined);
});
