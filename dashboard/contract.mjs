// Generates src/api/generated.ts from the daemon's OpenAPI document (`tracker openapi`, the same document as
// GET /api/openapi.json). `node contract.mjs --check` regenerates in memory and fails when the committed file
// differs, so a Rust type change without `npm run contract` fails the test command.
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import openapiTS, { astToString } from "openapi-typescript";

const bin = process.env.TRACKER_BIN ?? new URL("../target/debug/tracker", import.meta.url).pathname;
const document = JSON.parse(execFileSync(bin, ["openapi"], { encoding: "utf8", maxBuffer: 16 << 20 }));
const header =
  "// Generated from the daemon's OpenAPI document by `npm run contract` (dashboard/contract.mjs): do not edit.\n" +
  "// The Rust routes and types are the source; src/api/types.ts names what the dashboard uses.\n\n";
const generated = header + astToString(await openapiTS(document));
const target = new URL("./src/api/generated.ts", import.meta.url).pathname;

if (process.argv.includes("--check")) {
  let committed = "";
  try {
    committed = readFileSync(target, "utf8");
  } catch {}
  if (committed !== generated) {
    console.error("src/api/generated.ts is stale: run `npm run contract` in dashboard/ and commit the result");
    process.exit(1);
  }
  console.log("src/api/generated.ts matches the daemon's OpenAPI document");
} else {
  writeFileSync(target, generated);
  console.log(`wrote ${target}`);
}
