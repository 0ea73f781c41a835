// The app's screens are listed twice: the router (src/App.tsx) and the daemon, which answers 200 with the app
// for those paths and 404 for others (daemon/src/routes/assets.rs APP_ROUTES). A screen added to one and not
// the other would load under a 404 status or not at all; this keeps the two lists the same.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";

/** The router's paths, from src/App.tsx (the catch-all "*" excepted). */
function appRoutes(): string[] {
  const app = readFileSync(join(process.cwd(), "src", "App.tsx"), "utf8");
  return [...app.matchAll(/<Route path="(\/[^"]*)"/g)].map((m) => m[1]);
}

test("the daemon serves the app on exactly the router's paths", () => {
  const assets = readFileSync(join(process.cwd(), "..", "daemon", "src", "routes", "assets.rs"), "utf8");
  const block = assets.match(/const APP_ROUTES: &\[&str\] = &\[([\s\S]*?)\];/);
  assert.ok(block, "APP_ROUTES is in assets.rs");
  const daemon = [...block[1].matchAll(/"([^"]+)"/g)].map((m) => m[1]);
  const router = appRoutes();
  assert.ok(router.length >= 15, `the router's paths were read (${router.length})`);
  assert.deepEqual([...daemon].sort(), [...router].sort());
});
