// Builds the dashboard (React + tailwind) and the tracking scripts into dist/, which the daemon embeds.
import * as esbuild from "esbuild";
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { buildTrackers } from "./tracker/build.mjs";

const dist = new URL("./dist/", import.meta.url).pathname;
rmSync(dist, { recursive: true, force: true });
mkdirSync(`${dist}assets`, { recursive: true });

await esbuild.build({
  entryPoints: ["src/main.tsx"],
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

// The entry chunk every dashboard visit downloads first; watched when adding dependencies.
const gz = (path) => gzipSync(readFileSync(path)).length;
const chunkGzip = readdirSync(`${dist}assets/chunks`).reduce((sum, f) => sum + gz(`${dist}assets/chunks/${f}`), 0);
console.log(
  `dashboard (bytes): main.js ${readFileSync(`${dist}assets/main.js`).length} raw ${gz(`${dist}assets/main.js`)} gzip; lazy chunks ${chunkGzip} gzip`,
);

cpSync("public", dist, { recursive: true });
await buildTrackers(`${dist}tracker/`);
console.log("dashboard built into dist/");
