import assert from "node:assert/strict";
import { test } from "node:test";
import { deletionProblem, emailProblem, exportFileName, parseSessionTimeout, passwordProblem, sessionTimeoutInRange, timezones, tokenFromHash } from "../../src/lib/settings";

test("password dialog checks match before length, with the spec's texts", () => {
  assert.deepEqual(passwordProblem("abc", "abd"), { title: "Passwords don't match", description: "Please make sure your new passwords match." });
  assert.deepEqual(passwordProblem("abc", "abc"), { title: "Password too short", description: "Password must be at least 6 characters long." });
  assert.equal(passwordProblem("secret1", "secret1"), null);
});

test("a verification link's token is read from after the #", () => {
  assert.equal(tokenFromHash("#token=abc-DEF_123"), "abc-DEF_123");
  assert.equal(tokenFromHash("token=abc"), "abc");
  assert.equal(tokenFromHash(""), null);
  assert.equal(tokenFromHash("#token="), null);
  assert.equal(tokenFromHash("#other=1"), null);
});

test("email and deletion dialogs", () => {
  assert.equal(emailProblem("a@b.co"), null);
  assert.equal(emailProblem("nope")?.title, "Invalid email");
  assert.equal(deletionProblem("")?.description, "Please enter your password to confirm account deletion.");
  assert.equal(deletionProblem("x"), null);
});

test("session timeout falls back to 30 when not numeric and is bounded 5-480", () => {
  assert.equal(parseSessionTimeout("abc"), 30);
  assert.equal(parseSessionTimeout(""), 30);
  assert.equal(parseSessionTimeout("45"), 45);
  assert.ok(sessionTimeoutInRange(5) && sessionTimeoutInRange(480));
  assert.ok(!sessionTimeoutInRange(4) && !sessionTimeoutInRange(481));
});

test("timezones start with UTC and export files carry the date", () => {
  assert.equal(timezones()[0], "UTC");
  assert.equal(exportFileName(new Date("2026-03-04T10:00:00Z")), "account-export-2026-03-04.json");
});
