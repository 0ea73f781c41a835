// The light script (/tracking/{key}.js with the config inlined as `window.__TRACKER__`, or /tracking.js
// with data-tracking-key, which fetches the config). Everything else lives in core.ts and the chunks.
import { baseOf, boot, fetchConfig } from "./core";
import type { Config } from "./types";

try {
  const s = document.currentScript as HTMLScriptElement | null;
  const pre = (window as any).__TRACKER__ as Config | undefined;
  const key = pre ? pre.trackingKey : s && s.dataset.trackingKey;
  const base = ((pre && pre.endpoint) || baseOf(s ? s.src : "")).replace(/\/$/, "");
  if (key) boot(key, base, pre || fetchConfig(base, key), s && s.hasAttribute("data-debug"));
} catch {
  // never break the host page
}
