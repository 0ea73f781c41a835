// Runs the unit tests: Node 20 cannot strip TypeScript types, so esbuild bundles each test/unit/*.test.ts
// (with the src/ modules it imports) into a temp folder, then node's test runner runs the bundles.
import * as esbuild from "esbuild";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";

const here = new URL(".", import.meta.url).pathname;
const unitDir = join(here, "unit");
const files = readdirSync(unitDir).filter((f) => f.endsWith(".test.ts")).map((f) => join(unitDir, f));
// Inside node_modules so that the packages left external (react-query, ...) resolve from the bundles.
const out = mkdtempSync(join(here, "..", "node_modules", ".tracker-unit-"));
try {
  await esbuild.build({
    entryPoints: files,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    outdir: out,
    outExtension: { ".js": ".mjs" },
    packages: "external",
    logLevel: "warning",
  });
  const built = readdirSync(out).filter((f) => f.endsWith(".test.mjs")).map((f) => join(out, f));
  const res = spawnSync(process.execPath, ["--test", ...built], { stdio: "inherit" });
  process.exitCode = res.status ?? 1;
} finally {
  rmSync(out, { recursive: true, force: true });
}
