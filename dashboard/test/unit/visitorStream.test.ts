import assert from "node:assert/strict";
import { test } from "node:test";
import { activityText, avatarText, browserText, deviceText, locationText, minutesSeconds, sourceText } from "../../src/lib/visitorStream";

test("avatar: first two letters of the country code, or UN", () => {
  assert.equal(avatarText("gb"), "GB");
  assert.equal(avatarText(""), "UN");
});

test("location: city, region, country joined, else Unknown Location", () => {
  assert.equal(locationText({ city: "London", region: "England", country: "GB" }), "London, England, GB");
  assert.equal(locationText({ city: "", region: "", country: "GB" }), "GB");
  assert.equal(locationText({ city: "", region: "", country: "" }), "Unknown Location");
});

test("device and browser defaults", () => {
  assert.equal(deviceText(""), "Desktop");
  assert.equal(deviceText("mobile"), "Mobile");
  assert.equal(browserText(""), "Unknown");
  assert.equal(browserText("Firefox"), "Firefox");
});

test("duration as m:ss", () => {
  assert.equal(minutesSeconds(0), "0:00");
  assert.equal(minutesSeconds(65), "1:05");
  assert.equal(minutesSeconds(3600), "60:00");
});

test("source: utm source, else referrer host without www., else Direct", () => {
  assert.equal(sourceText({ utmSource: "newsletter", referrer: "https://www.x.example/" }), "newsletter");
  assert.equal(sourceText({ utmSource: "", referrer: "https://www.news.example/a" }), "news.example");
  assert.equal(sourceText({ utmSource: "", referrer: "" }), "Direct");
});

test("activity, or Viewing: page", () => {
  const base = { exitPage: "/x", currentActivity: { isActive: true, activity: "", currentPage: "/pricing" } };
  assert.equal(activityText(base), "Viewing: /pricing");
  assert.equal(activityText({ ...base, currentActivity: { ...base.currentActivity, activity: "Converted: purchase" } }), "Converted: purchase");
});
