// The daemon answers 200 with the app for the screens' paths and 404 for others (daemon/src/routes/assets.rs
// APP_ROUTES), so it needs the list of screens that src/screens.ts keeps for the router, the sidebar and the
// titles. A screen added to one and not the other would load under a 404 status or not at all; this keeps the
// daemon's list the same as the table's.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { SCREENS } from "../../src/screens.ts";

test("the daemon serves the app on exactly the screens' paths", () => {
  const assets = readFileSync(join(process.cwd(), "..", "daemon", "src", "routes", "assets.rs"), "utf8");
  const block = assets.match(/const APP_ROUTES: &\[&str\] = &\[([\s\S]*?)\];/);
  assert.ok(block, "APP_ROUTES is in assets.rs");
  const daemon = [...block[1].matchAll(/"([^"]+)"/g)].map((m) => m[1]);
  const screens = SCREENS.map((s) => s.path as string);
  assert.ok(daemon.length >= 15, `the daemon's paths were read (${daemon.length})`);
  assert.deepEqual([...daemon].sort(), [...screens].sort());
});
