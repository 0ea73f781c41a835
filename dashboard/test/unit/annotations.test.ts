import assert from "node:assert/strict";
import { test } from "node:test";
import { markerText, markersOn, todayUtc } from "../../src/lib/annotations";

test("annotations stand on their day's point, several on one day share one marker", () => {
  const days = [{ date: "2026-11-19" }, { date: "2026-11-20" }, { date: "2026-11-21" }];
  const marks = [
    { id: 1, date: "2026-11-20", text: "Release 2.0" },
    { id: 2, date: "2026-11-20", text: "Newsletter" },
    { id: 3, date: "2026-11-21", text: "Spike" },
    { id: 4, date: "2026-10-01", text: "Off the chart" },
  ];
  const markers = markersOn(days, marks);
  assert.deepEqual(markers.map((m) => [m.point, m.marks.map((x) => x.id)]), [["2026-11-20", [1, 2]], ["2026-11-21", [3]]]);
  assert.equal(markerText(markers[0]), "Release 2.0 · Newsletter");
});

test("on a one-day chart an annotation stands on its day's first hour", () => {
  const hours = [{ date: "2026-11-19T23:00:00Z" }, { date: "2026-11-20T00:00:00Z" }, { date: "2026-11-20T01:00:00Z" }];
  const markers = markersOn(hours, [{ id: 1, date: "2026-11-20", text: "Deploy" }]);
  assert.deepEqual(markers.map((m) => m.point), ["2026-11-20T00:00:00Z"]);
  assert.equal(todayUtc(new Date("2026-11-20T23:30:00-05:00")), "2026-11-21");
});
