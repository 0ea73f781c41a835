// The personalised light script (/tracking/{key}.js): the daemon inlines the site's config before it as
// `window.__TRACKER__`, so unlike tracking.js it needs no config fetch and no base URL from its own src.
import { boot } from "./core";
import type { Config } from "./types";

try {
  const c = (window as any).__TRACKER__ as Config;
  boot(c.trackingKey, c.endpoint!, c, document.currentScript?.hasAttribute("data-debug"));
} catch {
  // never break the host page
}
