// The light script's second half (/tracking/more.js), requested by the core right after the first page
// view (or at a call of identify, consent or consentInfo when tracking is off), so that the first half, on
// the page's critical path, stays small. Tracks outbound and download clicks, holds those methods and the
// consent gate, and loads enhanced.js once consent allows. It runs what queued up in `ctx.q` while it
// loaded, in order, then takes clicks and calls as they come.
import type { Ctx, Props } from "./types";

const w = window as any;
const c: Ctx | undefined = w.tracker && w.tracker._;
if (c && !c.y) {
  c.y = 1;
  const cfg = c.c;
  // Heatmaps, recordings and event definitions: one chunk, which loads recorder.js itself.
  let enhanced: unknown;
  const extras = () => {
    if (!enhanced && c.o() && (cfg.heatmaps || cfg.recordings || cfg.definitions?.length))
      enhanced = document.head.appendChild(Object.assign(document.createElement("script"), { src: c.e + "/tracking/enhanced.js" }));
  };
  // Hits wait for a pending consent hit, so that the server sees the decision before what it allows.
  const post = c.p;
  let gate: unknown;
  let consenting: unknown;
  c.p = (to, body) => {
    const sent = Promise.resolve(gate).then(() => post(to, body));
    if (consenting) gate = sent;
    consenting = 0;
    return sent;
  };
  const methods: Record<string, (...a: any[]) => unknown> = {
    // A click (the core saw it in the capture phase): on a file download, or on a link off the site.
    l: (target: Element) => {
      const a = target.closest?.("a[href]") as HTMLAnchorElement | null;
      if (a)
        /\.(pdf|zip|rar|7z|gz|docx?|xlsx?|pptx?|csv|dmg|exe|msi|apk|mp[34]|mov)$/i.test(a.pathname) || a.hasAttribute("download")
          ? c.t("download", undefined, { href: a.href })
          : a.host != location.host && c.t("outbound", undefined, { href: a.href });
    },
    identify: (traits: Props) => c.n && c.t("identify", undefined, traits),
    consent: (x: { analytics?: boolean; marketing?: boolean }) => {
      if (!c.n) return;
      const v = (x.analytics ? "1" : "0") + (x.marketing ? "1" : "0");
      if (c.m("tracker_consent") != v) {
        c.m("tracker_consent", v);
        consenting = 1;
        c.t("consent", undefined, { analytics: !!x.analytics, marketing: !!x.marketing });
      }
      extras();
    },
    consentInfo: () => ({ required: !!cfg.requireConsent, message: cfg.consentMessage || "", policyUrl: cfg.privacyPolicyUrl || "" }),
  };
  const run = ([m, a, resolve]: Ctx["q"][number]) => {
    let v: unknown;
    try {
      // A core method queued behind these runs only when tracking is on, as it would have directly.
      v = typeof m == "string" ? methods[m](...a) : c.n && m(...a);
    } catch (e) {
      c.l(e);
    }
    resolve?.(v);
    return 0;
  };
  extras();
  c.q.splice(0).forEach(run);
  c.q.push = run;
}
