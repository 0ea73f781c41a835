import { test } from "node:test";
import assert from "node:assert/strict";
import {
  addFilter,
  asCondition,
  breakdownOfDimension,
  breakdownSegment,
  describeFilter,
  dimensionOfBreakdown,
  encodeFilters,
  filterValue,
  filtersQuery,
  filtersText,
  filtersWithout,
  narrowedText,
  parseFilters,
  removeFilter,
  suggestionLabel,
} from "../../src/lib/filters.ts";
import { pagePath } from "../../src/lib/format.ts";

test("no parameter, a blank one or an empty list is no filter", () => {
  for (const raw of [null, "", "  ", "[]"]) {
    const p = parseFilters(raw);
    assert.deepEqual(p.filters, []);
    assert.equal(filtersText(p), null, `for ${JSON.stringify(raw)}`);
  }
  assert.equal(filtersQuery(null), "");
});

test("a filter list reads, encodes back the same and goes to the API URL-encoded", () => {
  const raw = '[["is","visit:source",["Google"]],["contains","event:page",["/blog"]]]';
  const p = parseFilters(raw);
  assert.equal(p.unreadable, null);
  assert.equal(p.filters.length, 2);
  assert.equal(filtersText(p), raw);
  assert.equal(filtersQuery(filtersText(p)), `&filters=${encodeURIComponent(raw)}`);
  assert.ok(!filtersQuery(raw).includes("["), "brackets and quotes are encoded");
});

test("text that is not a JSON list is kept as typed, for the daemon to refuse with its reason", () => {
  for (const raw of ["[[", '{"is":1}', "Google"]) {
    const p = parseFilters(raw);
    assert.deepEqual(p.filters, []);
    assert.equal(p.unreadable, raw);
    assert.equal(filtersText(p), raw);
  }
});

test("groups and unknown entries are kept and sent, but are not conditions", () => {
  const group = ["or", [["is", "visit:country", ["DE"]], ["is", "visit:country", ["FR"]]]];
  const p = parseFilters(JSON.stringify([group]));
  assert.equal(asCondition(p.filters[0]), null);
  assert.equal(filtersText(p), JSON.stringify([group]));
  assert.equal(describeFilter(group), JSON.stringify(group));
  assert.equal(asCondition(["matches", "event:page", ["/a"]]), null);
  assert.equal(asCondition(["is", "event:page", "/a"]), null);
  assert.deepEqual(asCondition(["is", "event:page", ["/a"], { case_sensitive: false }]), { operator: "is", dimension: "event:page", values: ["/a"] });
});

test("adding appends, and replaces a condition of the same dimension and operator", () => {
  let f = addFilter([], { operator: "is", dimension: "visit:referrer", values: ["google.com"] });
  assert.equal(encodeFilters(f), '[["is","visit:referrer",["google.com"]]]');
  f = addFilter(f, { operator: "contains", dimension: "event:page", values: ["/blog"] });
  f = addFilter(f, { operator: "is", dimension: "visit:referrer", values: ["bing.com"] });
  assert.equal(encodeFilters(f), '[["contains","event:page",["/blog"]],["is","visit:referrer",["bing.com"]]]');
  f = addFilter(f, { operator: "is_not", dimension: "visit:referrer", values: ["x.com"] });
  assert.equal(f.length, 3, "another operator on the same dimension is a second condition");
});

test("removing drops one entry by position; the last one removed drops the parameter", () => {
  const f = parseFilters('[["is","visit:country",["DE"]],["or",[]],["is","visit:device",["mobile"]]]').filters;
  assert.equal(encodeFilters(removeFilter(f, 1)), '[["is","visit:country",["DE"]],["is","visit:device",["mobile"]]]');
  assert.equal(encodeFilters(removeFilter(removeFilter(removeFilter(f, 0), 0), 0)), null);
});

test("chips read as sentences", () => {
  assert.equal(describeFilter(["is", "visit:country", ["DE"]]), "Country is DE");
  assert.equal(describeFilter(["contains", "event:page", ["/blog"]]), "Page contains /blog");
  assert.equal(describeFilter(["is", "visit:source", ["Google", "Direct / None"]]), "Source is Google or Direct / None");
  assert.equal(describeFilter(["contains_not", "event:page", ["/a", "/b"]]), "Page does not contain /a, /b");
  assert.equal(describeFilter(["is_not", "event:props:plan", ["pro"]]), "Property plan is not pro");
});

test("breakdown rows map to filter dimensions and back; empty values read as the daemon spells them", () => {
  assert.equal(dimensionOfBreakdown("referrer"), "visit:referrer");
  assert.equal(dimensionOfBreakdown("page"), "event:page");
  assert.equal(dimensionOfBreakdown("event"), "event:name");
  assert.equal(dimensionOfBreakdown("utm_campaign"), "visit:utm_campaign");
  assert.equal(dimensionOfBreakdown("prop:plan"), "event:props:plan");
  assert.equal(breakdownOfDimension("visit:country"), "country");
  assert.equal(breakdownOfDimension("event:props:plan"), "prop:plan");
  assert.equal(filterValue("visit:source", ""), "Direct / None");
  assert.equal(filterValue("visit:referrer", ""), "(none)");
  assert.equal(filterValue("visit:country", ""), "(none)");
  assert.equal(filterValue("visit:country", "DE"), "DE");
});

test("suggestions for a dimension ignore that dimension's own conditions", () => {
  const f = parseFilters('[["is","visit:country",["DE"]],["is","visit:device",["mobile"]]]').filters;
  assert.equal(encodeFilters(filtersWithout(f, "visit:country")), '[["is","visit:device",["mobile"]]]');
});

test("a Top Pages row filters by the page's path, as event:page compares it", () => {
  assert.equal(pagePath("https://shop.example.com/pricing?plan=pro#top"), "/pricing");
  assert.equal(pagePath("https://shop.example.com"), "/");
  assert.equal(pagePath("/docs?x=1"), "/docs");
});

test("country suggestions read as names with their code, so typing a name finds them", () => {
  assert.equal(suggestionLabel("visit:country", "DE"), "Germany (DE)");
  assert.equal(suggestionLabel("visit:country", "(none)"), "(none)");
  assert.equal(suggestionLabel("event:page", "/de"), "/de");
});

test("a property breakdown's path keeps its colon (the daemon matches the segment undecoded)", () => {
  assert.equal(breakdownSegment("prop:plan"), "prop:plan");
  assert.equal(breakdownSegment("utm_source"), "utm_source");
  assert.equal(breakdownSegment("prop:a/b"), "prop:a%2Fb");
});

test("a panel narrows the screen's filters by its own condition, and passes unreadable text on as typed", () => {
  const screen = parseFilters('[["is","visit:country",["DE"]]]');
  const outbound = { operator: "is" as const, dimension: "event:name", values: ["Outbound"] };
  assert.equal(
    narrowedText(screen.filters, filtersText(screen), outbound),
    '[["is","visit:country",["DE"]],["is","event:name",["Outbound"]]]',
  );
  assert.equal(narrowedText([], null, outbound), '[["is","event:name",["Outbound"]]]');
  assert.equal(narrowedText([], "oops", outbound), "oops");
});
