// Builds the dashboard (React + tailwind) and the tracking scripts into dist/, which the daemon embeds.
import * as esbuild from "esbuild";
import { execFileSync } from "node:child_process";
import { appendFileSync, cpSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { gzipSync } from "node:zlib";
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
  entryNames: "[name]",
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
const mainOutput = Object.entries(metafile.outputs).find(([f]) => f.endsWith("assets/main.js"))[1];
if (mainOutput.cssBundle) appendFileSync(`${dist}assets/app.css`, `\n${readFileSync(mainOutput.cssBundle, "utf8")}`);
for (const f of Object.keys(metafile.outputs)) if (f.endsWith(".css")) rmSync(f);

// What a first visit downloads before anything renders: main.js and the chunks it imports statically
// (lazy pages excluded). Watched when adding dependencies.
const gz = (path) => gzipSync(readFileSync(path)).length;
const initial = new Set();
const visit = (file) => {
  if (initial.has(file)) return;
  initial.add(file);
  for (const i of metafile.outputs[file].imports) if (i.kind === "import-statement") visit(i.path);
};
visit(Object.keys(metafile.outputs).find((f) => f.endsWith("assets/main.js")));
const all = Object.keys(metafile.outputs).filter((f) => f.endsWith(".js"));
const sum = (files) => files.reduce((n, f) => n + gz(f), 0);
console.log(
  `dashboard (gzip bytes): main.js ${gz(`${dist}assets/main.js`)}, first load (main.js + its static chunks) ${sum([...initial])}, all JS ${sum(all)}`,
);

cpSync("public", dist, { recursive: true });
await buildTrackers(`${dist}tracker/`);
console.log("dashboard built into dist/");
