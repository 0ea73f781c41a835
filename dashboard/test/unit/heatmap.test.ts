import { test } from "node:test";
import assert from "node:assert/strict";
import type { ElementClick } from "../../src/api/heatmap.ts";
import { inertSnapshot, placeClicks } from "../../src/lib/heatmap.ts";

test("clicks go on their element at their offset when it is found, else at their page position", () => {
  const clicks: ElementClick[] = [
    { selector: "#buy", offsetX: 0.25, offsetY: 0.5, pageX: 0.9, pageY: 0.9, count: 4 },
    { selector: "#gone", offsetX: 0.5, offsetY: 0.5, pageX: 0.5, pageY: 0.25, count: 2 },
    { selector: "#buy", offsetX: null, offsetY: null, pageX: 0.1, pageY: 0.1, count: 1 },
  ];
  const find = (s: string) => (s === "#buy" ? { left: 100, top: 200, width: 40, height: 20 } : null);
  const { placed, bySelector } = placeClicks(clicks, 1000, 2000, find);
  assert.deepEqual(placed, [
    { x: 110, y: 210, count: 4 },
    { x: 500, y: 500, count: 2 },
    { x: 100, y: 200, count: 1 },
  ]);
  assert.equal(bySelector, 4);
});

test("a recorded snapshot is made inert: no scripts, frames, meta, foreign links, handlers or javascript: URLs", () => {
  const el = (tagName: string, attributes: Record<string, unknown>, childNodes: unknown[] = []) => ({ type: 2, tagName, attributes, childNodes, id: 1 });
  const doc = {
    type: 0,
    childNodes: [
      el("html", {}, [
        el("head", {}, [el("script", {}), el("meta", { "http-equiv": "refresh" }), el("link", { rel: "prefetch", href: "x" }), el("link", { rel: "stylesheet", _cssText: "b{}" })]),
        el("body", { onload: "x()", class: "page" }, [el("a", { href: " javascript:x()", id: "a" }), el("IFRAME", { srcdoc: "<script>" }), el("img", { src: "/i.png", OnError: "x()" })]),
      ]),
    ],
  };
  const out = inertSnapshot(doc);
  const [head, body] = out.childNodes[0].childNodes;
  assert.deepEqual(head.childNodes.map((n: { tagName: string }) => n.tagName), ["link"], "only the inlined stylesheet");
  assert.deepEqual(body.attributes, { class: "page" });
  assert.deepEqual(body.childNodes.map((n: { tagName: string; attributes: unknown }) => [n.tagName, n.attributes]), [["a", { id: "a" }], ["img", { src: "/i.png" }]]);
  assert.equal(doc.childNodes[0].childNodes[0].childNodes.length, 4, "the input is not changed");
});
