// The core shared by the light script, tracking.js and tracer.js: session id, hits to POST /api/track, page
// views with SPA navigation, consent gating and Do-Not-Track, and loading of the other chunks, which get
// their context from `window.tracker._`: more.js (outbound/download clicks, consent, identify, and loading
// enhanced.js and recorder.js when the site's level enables them) right after the first page view. Kept
// tiny: every byte here is on the critical path of every page of every site (budget in build.mjs).
import type { Api, Config, Ctx, Props } from "./types";

/** more.js by its content-hashed name (build.mjs). */
declare const __MORE_JS__: string;
const w = window as any;
const n = navigator as any;
const mem: Record<string, string> = {};

/** sessionStorage with an in-memory fallback (storage may be disabled). Writes v when given. */
export const store = (k: string, v?: string): string | null => {
  try {
    if (v) sessionStorage.setItem(k, v);
    return sessionStorage.getItem(k);
  } catch {
    if (v) mem[k] = v;
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
  if (w.tracker?._) return w.tracker;
  let cfg: Config;
  let last: string;
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
  const post = (to: string, body: string): Promise<unknown> => {
    log(to, body);
    return fetch(to, { method: "POST", body, keepalive: true }).catch(log);
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
    // Through ctx.p: more.js makes later hits wait for a pending consent hit.
    ctx.p(base + "/api/track", body);
  };
  // Through ctx.t so that the enhanced chunk sees page views (it wraps ctx.t).
  const pv = () => url() != last && ctx.t("pageview");
  const spv = safe(pv);
  // Until more.js has run, clicks and calls wait here in order (later calls too, so that e.g. a purchase
  // tracked right after consent() still follows the consent hit); more.js then replaces push.
  const q: Ctx["q"] = [];
  let loaded: unknown;
  const more = () => {
    if (!loaded) loaded = document.head.appendChild(Object.assign(document.createElement("script"), { src: base + "/tracking/" + __MORE_JS__ }));
  };
  const init = (c: Config | null) => {
    if (!c || (c.respectDoNotTrack && (n.doNotTrack == "1" || n.globalPrivacyControl))) return;
    ctx.c = cfg = c;
    debug = debug || c.debug;
    ctx.n = 1;
    for (const m of ["pushState", "replaceState"] as const) {
      const orig = history[m];
      history[m] = function (this: History, ...a: Parameters<History["pushState"]>) {
        orig.apply(this, a);
        spv();
      };
    }
    addEventListener("popstate", spv);
    // Capture phase: before a link's own handler can stop the event.
    addEventListener("click", (e) => q.push(["l", [e.target]]) && more(), true);
    pv();
    // Requested right after the page view, not at the first click: a followed link can leave the page
    // before a chunk requested at its click has arrived. Off the critical path, and cached for an hour.
    more();
  };
  const ready = Promise.resolve(config).then(safe(init), log);
  // Public methods never throw, and wait for the config (a no-op when tracking is off). Those named by a
  // string live in more.js; while anything waits for it, later calls queue behind, in order.
  const api =
    (f: string | ((...a: any[]) => unknown)) =>
    (...a: unknown[]): Promise<any> =>
      ready.then(
        () => new Promise((r) => (q.length || !(f as any).call ? q.push([f, a, r]) && more() : r(ctx.n && safe(f as any)(...a)))),
      );
  const ctx: Ctx = { k: key, e: base, s: sid, c: {} as Config, u: url, t: hit, p: post, l: log, o: consented, m: store, q };
  const t: Api = {
    track: api((name: string, props?: Props) => hit(props && "value" in props ? "conversion" : "custom", name, props)),
    identify: api("identify"),
    pageview: api(pv),
    consent: api("consent"),
    consentInfo: api("consentInfo"),
    _: ctx,
  };
  w.tracker = t;
  return t;
}
