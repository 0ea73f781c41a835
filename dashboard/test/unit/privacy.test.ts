// The privacy panel's pure helpers: compliance status from the six settings (90 / 70 / 50) and the input
// checks that keep partial values from being sent.
import assert from "node:assert/strict";
import { test } from "node:test";
import { COMPLIANCE_SETTINGS, complianceStatus, parseDays, parsePolicyUrl } from "../../src/lib/privacy";

const all = (on: boolean) => Object.fromEntries(COMPLIANCE_SETTINGS.map((k) => [k, on])) as Record<(typeof COMPLIANCE_SETTINGS)[number], boolean>;

test("compliance counts six settings with thresholds 90, 70, 50", () => {
  assert.equal(COMPLIANCE_SETTINGS.length, 6);
  assert.deepEqual(complianceStatus(all(true)), { score: 100, level: "excellent", enabled: 6 });
  assert.equal(complianceStatus({ ...all(true), dataDeletion: false }).level, "good"); // 83
  assert.equal(complianceStatus({ ...all(true), dataDeletion: false, dataPortability: false }).level, "fair"); // 67
  assert.equal(complianceStatus({ ...all(false), cookieConsent: true, anonymizeIPs: true, respectDoNotTrack: true }).level, "fair"); // 50
  assert.equal(complianceStatus({ ...all(false), cookieConsent: true, anonymizeIPs: true }).level, "poor"); // 33
});

test("days are whole numbers 1 to 365; partial or out-of-range values are not sent", () => {
  assert.equal(parseDays("30"), 30);
  assert.equal(parseDays("365"), 365);
  for (const bad of ["", "0", "366", "3.5", "-1", "1e2", "abc"]) assert.equal(parseDays(bad), null, bad);
});

test("policy URL is empty or http(s)", () => {
  assert.equal(parsePolicyUrl(""), "");
  assert.equal(parsePolicyUrl("https://e.com/privacy"), "https://e.com/privacy");
  assert.equal(parsePolicyUrl("https://"), null);
  assert.equal(parsePolicyUrl("javascript:alert(1)"), null);
  assert.equal(parsePolicyUrl("e.com"), null);
});
