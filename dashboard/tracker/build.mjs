// Builds the tracking scripts served by the daemon and reports their gzip sizes.
import * as esbuild from "esbuild";
import { mkdirSync, readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";

export async function buildTrackers(outdir) {
  mkdirSync(outdir, { recursive: true });
  await esbuild.build({
    entryPoints: { tracking: "tracker/tracking.ts" },
    bundle: true,
    minify: true,
    format: "iife",
    target: ["es2017"],
    outdir,
    logLevel: "warning",
  });
  const size = gzipSync(readFileSync(`${outdir}tracking.js`)).length;
  console.log(`tracking.js: ${size} bytes gzip`);
}
