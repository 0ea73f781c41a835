import { test } from "node:test";
import assert from "node:assert/strict";
import { importedNote } from "../../src/lib/imported.ts";

test("imported note: none without imported days", () => {
  assert.equal(importedNote(null), null);
  assert.equal(importedNote(undefined), null);
  assert.equal(importedNote({ sources: [], from: "2025-03-01", to: "2025-03-02" }), null);
});

test("imported note: the tool's name and the days, one day once", () => {
  assert.equal(importedNote({ sources: ["plausible"], from: "2025-03-01", to: "2025-06-30" }), "Includes history imported from Plausible, Mar 1, 2025 – Jun 30, 2025");
  assert.equal(importedNote({ sources: ["goatcounter"], from: "2026-01-09", to: "2026-01-09" }), "Includes history imported from GoatCounter, Jan 9, 2026");
});

test("imported note: several tools", () => {
  assert.equal(
    importedNote({ sources: ["goatcounter", "plausible", "umami"], from: "2024-12-30", to: "2025-01-02" }),
    "Includes history imported from GoatCounter, Plausible and Umami, Dec 30, 2024 – Jan 2, 2025",
  );
});
