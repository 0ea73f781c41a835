// Builds the dashboard (React + tailwind) and the tracking scripts into dist/, which the daemon embeds.
import * as esbuild from "esbuild";
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { appendFileSync, cpSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { brotliCompressSync, gzipSync, constants as zlib } from "node:zlib";
import { buildTrackers } from "./tracker/build.mjs";

const dist = new URL("./dist/", import.meta.url).pathname;
rmSync(dist, { recursive: true, force: true });
mkdirSync(`${dist}assets`, { recursive: true });

const { metafile } = await esbuild.build({
  entryPoints: ["src/main.tsx"],
  metafile: true,
  bundle: true,
  splitting: true,
  format: "esm",
  minify: true,
  sourcemap: false,
  target: ["es2020"],
  outdir: `${dist}assets`,
  // Content hashes in every name: the daemon serves assets/ with a year-long immutable cache, and only
  // index.html (no-cache) names the current ones.
  entryNames: "[name]-[hash]",
  chunkNames: "chunks/[name]-[hash]",
  define: { "process.env.NODE_ENV": '"production"' },
  logLevel: "warning",
});

execFileSync(
  "node",
  ["node_modules/@tailwindcss/cli/dist/index.mjs", "-i", "src/index.css", "-o", `${dist}assets/app.css`, "--minify"],
  { stdio: ["ignore", "ignore", "inherit"] },
);

// CSS imported from the code (rrweb-player's styles) goes into the one stylesheet index.html loads, so that
// the player is styled before its chunk loads; esbuild's per-chunk copies of it are not served.
const mainFile = Object.keys(metafile.outputs).find((f) => /assets\/main-[A-Z0-9]+\.js$/.test(f));
const mainOutput = metafile.outputs[mainFile];
if (mainOutput.cssBundle) appendFileSync(`${dist}assets/app.css`, `\n${readFileSync(mainOutput.cssBundle, "utf8")}`);
for (const f of Object.keys(metafile.outputs)) if (f.endsWith(".css")) rmSync(f);
const cssHash = createHash("sha256").update(readFileSync(`${dist}assets/app.css`)).digest("hex").slice(0, 10);
const cssName = `app-${cssHash}.css`;
renameSync(`${dist}assets/app.css`, `${dist}assets/${cssName}`);
const mainName = mainFile.slice(mainFile.lastIndexOf("/") + 1);

// What a first visit downloads before anything renders: main.js and the chunks it imports statically
// (lazy pages excluded). Watched when adding dependencies.
const gz = (path) => gzipSync(readFileSync(path)).length;
const initial = new Set();
const visit = (file) => {
  if (initial.has(file)) return;
  initial.add(file);
  for (const i of metafile.outputs[file].imports) if (i.kind === "import-statement") visit(i.path);
};
visit(mainFile);
const all = Object.keys(metafile.outputs).filter((f) => f.endsWith(".js"));
const sum = (files) => files.reduce((n, f) => n + gz(f), 0);
console.log(
  `dashboard (gzip bytes): main.js ${gz(mainFile)}, first load (main.js + its static chunks) ${sum([...initial])}, all JS ${sum(all)}`,
);

cpSync("public", dist, { recursive: true });
// The replay player page (/replay-player) for sites that load their recordings' remote assets: its own script
// and stylesheet, a classic script (nothing to import) named with a content hash like the rest.
const player = await esbuild.build({
  entryPoints: ["src/replayPlayer.ts"],
  metafile: true,
  bundle: true,
  format: "iife",
  minify: true,
  sourcemap: false,
  target: ["es2020"],
  outdir: `${dist}assets`,
  entryNames: "[name]-[hash]",
  define: { "process.env.NODE_ENV": '"production"' },
  logLevel: "warning",
});
const [playerScript, playerOutput] = Object.entries(player.metafile.outputs).find(([f, o]) => f.endsWith(".js") && o.entryPoint);
const assetName = (f) => f.slice(f.lastIndexOf("/") + 1);
writeFileSync(
  `${dist}replay-player.html`,
  readFileSync(`${dist}replay-player.html`, "utf8")
    .replace("/assets/replayPlayer.js", `/assets/${assetName(playerScript)}`)
    .replace("/assets/replayPlayer.css", `/assets/${assetName(playerOutput.cssBundle)}`),
);
// index.html names this build's hashed files, and preloads the chunks main.js imports statically so that
// they download in parallel with it rather than after it.
const preloads = [...initial]
  .filter((f) => f !== mainFile)
  .map((f) => `<link rel="modulepreload" href="/assets/${f.slice(f.indexOf("/assets/") + 8)}" />`)
  .join("\n    ");
writeFileSync(
  `${dist}index.html`,
  readFileSync(`${dist}index.html`, "utf8")
    .replace("/assets/app.css", `/assets/${cssName}`)
    .replace("/assets/main.js", `/assets/${mainName}`)
    .replace("<!-- preloads -->", preloads),
);
await buildTrackers(`${dist}tracker/`);
precompress(dist);
console.log("dashboard built into dist/");

/**
 * Writes `f.gz` and `f.br` beside every text file of dist/ (where smaller), which the daemon embeds and
 * serves by Accept-Encoding: compressed once here at the highest levels, never per request.
 */
function precompress(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = `${dir}${dir.endsWith("/") ? "" : "/"}${entry.name}`;
    if (entry.isDirectory()) {
      precompress(path);
      continue;
    }
    if (!/\.(js|css|html|svg|ico|json)$/.test(entry.name)) continue;
    const raw = readFileSync(path);
    const gzip = gzipSync(raw, { level: 9 });
    const br = brotliCompressSync(raw, {
      params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: raw.length },
    });
    if (gzip.length < raw.length) writeFileSync(`${path}.gz`, gzip);
    if (br.length < raw.length) writeFileSync(`${path}.br`, br);
  }
}
