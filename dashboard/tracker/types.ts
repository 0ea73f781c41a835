// Shapes shared by the tracking scripts: the site config (prelude or GET /api/track/config) and the
// context the core script hands to its lazily loaded chunks (enhanced.js, recorder.js).

/** A CSS-selector event definition of the site (GET /api/track/config `definitions`). */
export interface Definition {
  id: number;
  name: string;
  eventType: string;
  selector: string;
  isConversion: boolean;
  conversionValue?: string | number | null;
}

/** The site config: `window.__TRACKER__` inlined by the daemon, or the answer of GET /api/track/config. */
export interface Config {
  trackingKey: string;
  /** The daemon's base URL; derived from the script's own src when absent. */
  endpoint?: string;
  level?: string;
  respectDoNotTrack?: boolean;
  requireConsent?: boolean;
  heatmaps?: boolean;
  recordings?: boolean;
  /** recordings mask every text node, not only inputs and editable text */
  maskAllText?: boolean;
  /** what the site's consent banner should say, and where its privacy policy is (privacy panel, Consent) */
  consentMessage?: string;
  privacyPolicyUrl?: string;
  definitions?: Definition[];
  debug?: boolean;
}

export type Props = Record<string, string | number | boolean | null | undefined>;

/** What the core puts at `window.tracker._` for its chunks. Short names keep the core small. */
export interface Ctx {
  /** tracking key */
  k: string;
  /** endpoint base URL, no trailing slash */
  e: string;
  /** session id */
  s: string;
  /** site config */
  c: Config;
  /** the current page URL as tracked (no fragment) */
  u: () => string;
  /** send a /api/track hit (consent-gated like the public API); page views go through here too, so a
   * chunk wraps it to see SPA navigation */
  t: (event: string, name?: string, props?: Props) => void;
  /** POST a JSON string with keepalive, beacon fallback */
  p: (url: string, body: string) => Promise<unknown> | void;
  /** whether consent allows more than anonymous page views */
  o: () => boolean;
  /** debug log */
  l: (...a: unknown[]) => void;
  /** set once tracking is on (the config is in, and Do-Not-Track does not stop it) */
  n?: number;
  /** the session storage (with its in-memory fallback) the core reads consent from */
  m: (k: string, v?: string) => string | null;
  /** what waits for more.js: [method name or function, arguments, resolve of the caller's promise] */
  q: Array<[string | ((...a: any[]) => unknown), unknown[], ((v: unknown) => void)?]>;
  /** guards against a chunk being started twice */
  h?: number;
  r?: number;
  y?: number;
}

/** The public API at `window.tracker`. */
export interface Api {
  track(name: string, props?: Props): void;
  identify(traits: Props): void;
  pageview(): void;
  consent(c: { analytics?: boolean; marketing?: boolean }): void;
  /** For the site's banner: whether consent is required, its message and policy URL (once the config is in). */
  consentInfo(): Promise<ConsentInfo>;
  _?: Ctx;
}

/** `window.tracker.consentInfo()`: what a site's consent banner shows, from the privacy panel's Consent tab. */
export interface ConsentInfo {
  required: boolean;
  message: string;
  policyUrl: string;
}
