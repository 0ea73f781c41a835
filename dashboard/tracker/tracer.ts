// The professional API (/tracer.js): `new Tracer({websiteId, async, debug})` with track, identify,
// pageview and consent. It shares the core with tracking.js, so creating a tracer also tracks page views,
// SPA navigation and outbound/download clicks, and sets `window.tracker`. One tracker per page: a second
// Tracer (or a tracking.js on the same page) shares the first one's state.
import { baseOf, boot, fetchConfig } from "./core";
import type { Api, ConsentInfo, Props } from "./types";

export interface TracerOptions {
  /** the site's tracking key */
  websiteId: string;
  /** kept for snippet compatibility: calls never block, hits queue until the config has loaded */
  async?: boolean;
  /** log every hit and error to the console */
  debug?: boolean;
  /** the daemon's base URL; defaults to the origin (and path prefix) tracer.js was loaded from */
  endpoint?: string;
}

const src = (document.currentScript as HTMLScriptElement | null)?.src || "";

class Tracer implements Api {
  track: (name: string, props?: Props) => void;
  identify: (traits: Props) => void;
  pageview: () => void;
  consent: (c: { analytics?: boolean; marketing?: boolean }) => void;
  consentInfo: () => Promise<ConsentInfo>;
  constructor(o: TracerOptions) {
    o = o || ({} as TracerOptions);
    const base = (o.endpoint || baseOf(src)).replace(/\/$/, "");
    const a = boot(o.websiteId, base, fetchConfig(base, o.websiteId), o.debug);
    this.track = a.track;
    this.identify = a.identify;
    this.pageview = a.pageview;
    this.consent = a.consent;
    this.consentInfo = a.consentInfo;
  }
}

(window as any).Tracer = Tracer;
