// The core shared by tracking.js and tracer.js: session id, hits to POST /api/track, page views with SPA
// navigation, outbound/download clicks, consent and Do-Not-Track, and lazy loading of the heavier chunks
// (enhanced.js, recorder.js) which get their context from `window.tracker._`. Kept tiny: every byte here
// ships on every page of every site (budget in build.mjs).
import type { Api, Config, Ctx, Props } from "./types";

const w = window as any;
const n = navigator as any;
const mem: Record<string, string> = {};

/** sessionStorage with an in-memory fallback (storage may be disabled). Writes v when given. */
export const store = (k: string, v?: string): string | null => {
  if (v != null) mem[k] = v;
  try {
    if (v != null) sessionStorage.setItem(k, v);
    return sessionStorage.getItem(k);
  } catch {
    return mem[k];
  }
};

/** The daemon's base URL from a script src: what precedes /tracking.js, /tracking/…, /tracer.js. */
export const baseOf = (src: string) => src.replace(/\/(tracking|tracer)[/.][^/]*$/, "");

/** GET /api/track/config for the variants served without the inlined config. */
// Cross-origin fetches carry no cookies by default (credentials "same-origin"); none are set anyway.
export const fetchConfig = (base: string, key: string): Promise<Config | null> =>
  fetch(base + "/api/track/config?tracking_key=" + encodeURIComponent(key)).then((r) => (r.ok ? r.json() : null));

/** Starts tracking for `key` once `config` is known and returns the public API (also `window.tracker`). */
export function boot(key: string, base: string, config: Config | Promise<Config | null>, debug?: unknown): Api {
  if ((w.tracker || {})._) return w.tracker;
  let on: unknown;
  let loaded: unknown;
  let cfg: Config;
  let last: string;
  let gate: Promise<unknown> | void;
  const log = (...a: unknown[]) => debug && console.log("[tracker]", ...a);
  // Every entry point runs through this: a tracker error must never reach the host page.
  const safe =
    <A extends unknown[]>(f: (...a: A) => unknown) =>
    (...a: A) => {
      try {
        f(...a);
      } catch (e) {
        log(e);
      }
    };
  // Start time first: the server indexes visits by this id, and ids in time order append to that index
  // rather than landing on a random page of it.
  const sid = store("tracker_sid") || store("tracker_sid", Date.now().toString(36) + Math.random().toString(36).slice(2))!;
  const url = () => location.href.split("#")[0];
  // A string body goes as text/plain: a CORS "simple" request, so no preflight, and keepalive lets it
  // outlive the page.
  const post = (to: string, body: string): Promise<unknown> | void => {
    log(to, body);
    try {
      return fetch(to, { method: "POST", body, keepalive: true }).then((r) => r.ok || log(r.status), log);
    } catch {
      n.sendBeacon(to, body);
    }
  };
  const consented = () => !cfg.requireConsent || (store("tracker_consent") || "")[0] == "1";
  const hit = (event: string, name?: string, props?: Props) => {
    if (event != "pageview" && event != "consent" && !consented()) return;
    if (event == "pageview") last = url();
    const body = JSON.stringify({
      tracking_key: key,
      session_id: sid,
      url: url(),
      referrer: document.referrer,
      event,
      event_name: name,
      event_properties: props,
      timestamp: new Date().toISOString(),
      screen: screen.width + "x" + screen.height,
    });
    // Hits wait for a pending consent hit so that the server sees the decision first.
    const p = Promise.resolve(gate).then(() => post(base + "/api/track", body));
    if (event == "consent") gate = p;
  };
  // Through ctx.t so that the enhanced chunk sees page views (it wraps ctx.t).
  const pv = () => url() != last && ctx.t("pageview");
  // One chunk for everything beyond light; it loads recorder.js itself when recordings are on.
  const extras = () => {
    if (!loaded && consented() && (cfg.heatmaps || cfg.recordings || (cfg.definitions || []).length)) {
      loaded = document.head.appendChild(Object.assign(document.createElement("script"), { src: base + "/tracking/enhanced.js" }));
    }
  };
  const click = (e: MouseEvent) => {
    const a = (e.target as Element).closest("a[href]") as HTMLAnchorElement | null;
    if (a)
      /\.(pdf|zip|rar|7z|gz|docx?|xlsx?|pptx?|csv|dmg|exe|msi|apk|mp[34]|mov)$/i.test(a.pathname) ||
      a.hasAttribute("download")
        ? hit("download", undefined, { href: a.href })
        : a.host != location.host && hit("outbound", undefined, { href: a.href });
  };
  const init = (c: Config | null) => {
    if (!c || (c.respectDoNotTrack && (n.doNotTrack == "1" || n.globalPrivacyControl))) return;
    ctx.c = cfg = c;
    debug = debug || c.debug;
    on = 1;
    for (const m of ["pushState", "replaceState"] as const) {
      const orig = history[m];
      history[m] = function (this: History, ...a: Parameters<History["pushState"]>) {
        orig.apply(this, a);
        safe(pv)();
      };
    }
    addEventListener("popstate", safe(pv));
    addEventListener("click", safe(click), true);
    pv();
    extras();
  };
  const ready = Promise.resolve(config).then(safe(init), log);
  // Public methods never throw, and wait for the config (a no-op when tracking is off).
  const api =
    <A extends unknown[]>(f: (...a: A) => unknown) =>
    (...a: A) => {
      ready.then(() => on && safe(f)(...a));
    };
  const ctx: Ctx = { k: key, e: base, s: sid, c: {} as Config, u: url, t: hit, p: post, l: log, o: () => consented() };
  const t: Api = {
    track: api((name: string, props?: Props) => hit(props && "value" in props ? "conversion" : "custom", name, props)),
    identify: api((traits: Props) => hit("identify", undefined, traits)),
    pageview: api(pv),
    consent: api((c: { analytics?: boolean; marketing?: boolean }) => {
      const v = (c.analytics ? "1" : "0") + (c.marketing ? "1" : "0");
      if (store("tracker_consent") != v) {
        store("tracker_consent", v);
        hit("consent", undefined, { analytics: !!c.analytics, marketing: !!c.marketing });
      }
      extras();
    }),
    consentInfo: () =>
      ready.then(() => ({ required: !!cfg?.requireConsent, message: cfg?.consentMessage || "", policyUrl: cfg?.privacyPolicyUrl || "" })),
    _: ctx,
  };
  w.tracker = t;
  return t;
}
