import { test } from "node:test";
import assert from "node:assert/strict";
import { atLeast, invitationFromHash } from "../../src/lib/roles.ts";

test("roles: each may what the roles below it may, and nothing without a role", () => {
  assert.equal(atLeast("owner", "admin"), true);
  assert.equal(atLeast("admin", "admin"), true);
  assert.equal(atLeast("editor", "admin"), false);
  assert.equal(atLeast("viewer", "editor"), false);
  assert.equal(atLeast("viewer", "viewer"), true);
  assert.equal(atLeast(undefined, "viewer"), false);
});

test("roles: an invitation link's id and token, or nothing", () => {
  assert.deepEqual(invitationFromHash("#id=12&token=abc-_1"), { id: 12, token: "abc-_1" });
  assert.equal(invitationFromHash("#id=12"), null);
  assert.equal(invitationFromHash("#id=x&token=abc"), null);
  assert.equal(invitationFromHash(""), null);
});
