import { test } from "node:test";
import assert from "node:assert/strict";
import { csvCell, csvText } from "../../src/lib/csv.ts";

test("csv: a cell a spreadsheet would run as a formula is written as text", () => {
  for (const bad of ["=HYPERLINK(\"http://x\")", "+1", "-2+3", "@SUM(A1)", "\tx", "\rx"]) {
    assert.ok(csvCell(bad).replace(/^"/, "").startsWith("'"), bad);
  }
  assert.equal(csvCell("/pricing"), "/pricing");
});

test("csv: commas, quotes and line breaks are quoted", () => {
  assert.equal(csvCell('a,"b"'), '"a,""b"""');
  assert.equal(csvText([["Page", "pageviews"], ["/a\nb", "3"]]), 'Page,pageviews\r\n"/a\nb",3\r\n');
});
