// Serves the demo site (examples/site) with a tracking snippet filled in, on its own origin like a real
// customer site. Used by the browser tests (startSite) and by hand:
//   node examples/serve.mjs --tracker http://127.0.0.1:8080 --key TRACKING_KEY [--variant personal|basic|tracer|legacy] [--port 8000]
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { extname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("./site/", import.meta.url));

/** The snippet a site owner pastes, per variant (spec part 2 §7). */
export const SNIPPETS = {
  personal: `<script async src="{{TRACKER_URL}}/tracking/{{TRACKING_KEY}}.js"></script>`,
  basic: `<script async src="{{TRACKER_URL}}/tracking.js" data-tracking-key="{{TRACKING_KEY}}"></script>`,
  tracer:
    `<script src="{{TRACKER_URL}}/tracer.js"></script>\n` +
    `  <script>window.tracer = new Tracer({ websiteId: "{{TRACKING_KEY}}", async: true, debug: false });</script>`,
  legacy: `<script src="{{TRACKER_URL}}/tracking/legacy.js" data-tracking-key="{{TRACKING_KEY}}"></script>`,
};

const TYPES = { ".html": "text/html; charset=utf-8", ".css": "text/css", ".pdf": "application/pdf", ".js": "text/javascript" };

/** Fills a page's placeholders: {{TRACKER_SNIPPET}}, then {{TRACKER_URL}} and {{TRACKING_KEY}}. */
export function fill(html, { trackerUrl, trackingKey, variant = "personal" }) {
  return html
    .replaceAll("{{TRACKER_SNIPPET}}", SNIPPETS[variant])
    .replaceAll("{{TRACKER_URL}}", trackerUrl.replace(/\/$/, ""))
    .replaceAll("{{TRACKING_KEY}}", trackingKey);
}

/**
 * Starts the demo site on 127.0.0.1 (port 0 = any free port). Any path without an extension (the SPA's
 * routes such as /spa/products) answers spa.html, as a real SPA host would. Resolves to {url, close}.
 */
export function startSite({ trackerUrl, trackingKey, variant = "personal", port = 0 }) {
  const server = createServer(async (req, res) => {
    try {
      let path = normalize(decodeURIComponent(new URL(req.url, "http://x").pathname));
      if (path == "/") path = "/index.html";
      if (!extname(path)) path = "/spa.html";
      const file = join(root, path);
      if (!file.startsWith(root)) throw new Error("outside");
      let body = await readFile(file);
      const type = TYPES[extname(file)] || "application/octet-stream";
      if (type.startsWith("text/html")) body = fill(body.toString(), { trackerUrl, trackingKey, variant });
      res.writeHead(200, { "Content-Type": type, "Cache-Control": "no-store" });
      res.end(body);
    } catch {
      res.writeHead(404, { "Content-Type": "text/plain" });
      res.end("not found");
    }
  });
  return new Promise((resolve) =>
    server.listen(port, "127.0.0.1", () =>
      resolve({ url: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((r) => server.close(r)) }),
    ),
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const arg = (name, dflt) => {
    const i = process.argv.indexOf(`--${name}`);
    return i > 0 ? process.argv[i + 1] : dflt;
  };
  const trackerUrl = arg("tracker", "http://127.0.0.1:8080");
  const trackingKey = arg("key");
  if (!trackingKey) {
    console.error("usage: node examples/serve.mjs --tracker URL --key TRACKING_KEY [--variant personal|basic|tracer|legacy] [--port N]");
    process.exit(2);
  }
  const site = await startSite({ trackerUrl, trackingKey, variant: arg("variant", "personal"), port: Number(arg("port", 8000)) });
  console.log(`Demo site: ${site.url}/ (snippet ${arg("variant", "personal")}, tracker ${trackerUrl})`);
}
