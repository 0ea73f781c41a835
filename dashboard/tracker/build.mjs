// Builds the tracking scripts served by the daemon (light.js behind the personalised /tracking/{key}.js,
// tracking.js, tracer.js and the chunks they load: more.<hash>.js, enhanced.js and recorder.js), prints a size report
// (raw and gzip bytes), writes it to sizes.json, and fails when the light script grows past its budget.
import * as esbuild from "esbuild";
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";

/**
 * The personalised light script ships on every page of every site: gzip bytes at most, as served, with a
 * typical inlined config (the daemon's compact form: fields at their defaults left out).
 */
export const TRACKING_GZIP_BUDGET = 1200;
export const TYPICAL_CONFIG =
  'window.__TRACKER__={"trackingKey":"b2LF6V5DyeD29kSFAYh0iQ","endpoint":"https://stats.example.com","respectDoNotTrack":true};\n';

const entries = ["light", "tracking", "tracer", "legacy", "more", "enhanced", "recorder"];

export async function buildTrackers(outdir) {
  mkdirSync(outdir, { recursive: true });
  const here = new URL(".", import.meta.url).pathname;
  const build = (names, moreName) =>
    esbuild.build({
      entryPoints: Object.fromEntries(names.map((e) => [e, `${here}${e}.ts`])),
      bundle: true,
      minify: true,
      format: "iife",
      target: ["es2020"],
      outdir,
      legalComments: "none",
      // Sloppy mode: no "use strict" prologue (13 bytes on every page); the scripts rely on nothing it changes.
      tsconfigRaw: { compilerOptions: { alwaysStrict: false } },
      define: { __MORE_JS__: JSON.stringify(moreName) },
      logLevel: "warning",
    });
  // more.js, which every page loads after its page view, is named by its content: the daemon serves such a
  // name as immutable, so a visitor's browser fetches it once rather than every hour.
  for (const f of readdirSync(outdir)) if (/^more\.[0-9a-f]+\.js/.test(f)) rmSync(`${outdir}/${f}`);
  await build(["more"], "");
  const hash = createHash("sha256").update(readFileSync(`${outdir}/more.js`)).digest("hex").slice(0, 10);
  const moreName = `more.${hash}.js`;
  renameSync(`${outdir}/more.js`, `${outdir}/${moreName}`);
  await build(
    entries.filter((e) => e !== "more"),
    moreName,
  );
  const sizes = {};
  for (const e of entries) {
    const raw = readFileSync(`${outdir}/${e === "more" ? moreName : `${e}.js`}`);
    sizes[`${e}.js`] = { raw: raw.length, gzip: gzipSync(raw).length };
  }
  console.log("tracker scripts (bytes):");
  for (const [name, s] of Object.entries(sizes))
    console.log(`  ${name.padEnd(12)} ${String(s.raw).padStart(7)} raw ${String(s.gzip).padStart(6)} gzip`);
  const light = gzipSync(TYPICAL_CONFIG + readFileSync(`${outdir}/light.js`), { level: 9 }).length;
  sizes["/tracking/{key}.js"] = { gzip: light };
  writeFileSync(`${outdir}/sizes.json`, JSON.stringify(sizes, null, 2) + "\n");
  console.log(`  personalised light script with a typical inlined config: ${light} gzip`);
  if (light > TRACKING_GZIP_BUDGET)
    throw new Error(`the personalised light script is ${light} bytes gzip, over the ${TRACKING_GZIP_BUDGET}-byte budget`);
  return sizes;
}
