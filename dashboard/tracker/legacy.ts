// The Legacy variant (/tracking/legacy.js with data-tracking-key): the shared core, plus the two things old
// snippets relied on: a global `event(name, props)` function and a `visitor_session` id in localStorage,
// so one visitor keeps one session id across tabs and visits. That id is written only when the site does
// not require consent or once the visitor has consented (and removed when consent is withdrawn); until
// then the tab's session id lives in sessionStorage, as with the other variants.
import { baseOf, boot, fetchConfig, store } from "./core";
import type { Config, Props } from "./types";

const KEY = "visitor_session";

const local = (value?: string | null): string | null => {
  try {
    if (value === null) localStorage.removeItem(KEY);
    else if (value !== undefined) localStorage.setItem(KEY, value);
    return localStorage.getItem(KEY);
  } catch {
    return null;
  }
};

try {
  const s = document.currentScript as HTMLScriptElement | null;
  const key = s && s.dataset.trackingKey;
  if (key) {
    const base = baseOf(s.src).replace(/\/$/, "");
    // An id kept earlier (with consent) continues the visitor's session in this tab.
    const kept = local();
    if (kept) store("tracker_sid", kept);
    const config = fetchConfig(base, key);
    const api = boot(key, base, config, s.hasAttribute("data-debug"));
    const sid = api._ ? api._.s : "";
    // Once the config is in (boot has applied it first): kept unless the site requires consent.
    config.then((c: Config | null) => c && !c.requireConsent && local(sid), () => {});
    const consent = api.consent;
    api.consent = (c) => {
      consent(c);
      local(c && c.analytics ? sid : null);
    };
    (window as any).event = (name: string, props?: Props) => api.track(name, props);
  }
} catch {
  // never break the host page
}
