// Every API path the dashboard calls is an operation of the daemon's OpenAPI document (src/api/generated.ts,
// regenerated from the Rust routes by `npm run contract`): a call to a path the daemon does not document fails
// here, not in a browser.
import assert from "node:assert/strict";
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";

const src = join(process.cwd(), "src");

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) && name !== "generated.ts" ? [path] : [];
  });
}

/** Path segments, with every interpolated or templated segment as "*". */
function segments(path: string): string[] {
  return path
    .split("?")[0]
    .split("/")
    .map((s) => (s.includes("${") || s.startsWith("{") ? "*" : s));
}

test("every /api path the dashboard calls is in the contract", () => {
  const generated = readFileSync(join(src, "api", "generated.ts"), "utf8");
  const documented = [...generated.matchAll(/^ {4}"(\/api\/[^"]+)": \{/gm)].map((m) => segments(m[1]));
  assert.ok(documented.length > 60, `the document's paths were read (${documented.length})`);
  const called = new Set<string>();
  for (const file of sources(src)) {
    for (const m of readFileSync(file, "utf8").matchAll(/[`"](\/api\/[^`"\s]*)[`"]/g)) called.add(m[1]);
  }
  assert.ok(called.size > 40, `the dashboard's calls were found (${called.size})`);
  const matches = (a: string[], b: string[]) => a.length === b.length && a.every((s, i) => s === b[i] || s === "*" || b[i] === "*");
  const missing = [...called].filter((path) => !documented.some((doc) => matches(segments(path), doc)));
  assert.deepEqual(missing, [], "paths the dashboard calls that GET /api/openapi.json does not list");
});
