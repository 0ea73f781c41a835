// The enhanced chunk (/tracking/enhanced.js), loaded by the core when the site's config enables heatmaps
// or recordings or has CSS-selector event definitions; it loads recorder.js when recordings are on. Collects clicks
// (page-relative coordinates, CSS selector, the place inside the clicked element as fractions of its box), the
// deepest scroll of each page view and sampled mouse movement, batched to POST /api/interactions every
// few seconds, at once on a click on a link or a form submit (either usually leaves the page), and on pagehide in
// bodies small enough for the browser's keepalive budget, with form submits and form-field focus/blur/change (whether the field is
// filled, never its value); fires the site's event definitions as custom or conversion events.
import type { Ctx, Definition } from "./types";

const MAX_CLICKS = 200; // per body (API.md)
const MAX_MOVES = 500; // per body (API.md)
const MAX_SUBMITS = 50; // per body (API.md)
const MAX_FIELDS = 200; // field events per body (API.md)
const MOVES_PER_VIEW = 1000;
const MOVE_EVERY_MS = 100;
const FLUSH_EVERY_MS = 5000;

interface Click {
  x: number;
  y: number;
  selector: string;
  ox: number;
  oy: number;
  t: number;
}

interface FieldEvent {
  form: string;
  field: string;
  event: string;
  filled: boolean;
  t: number;
}

/** Whether a form field holds something: checked for boxes and radios, else a non-empty value. Only this
 * boolean leaves the page; the value (and its length) never does. */
export function isFilled(el: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement): boolean {
  const type = (el as HTMLInputElement).type;
  return type == "checkbox" || type == "radio" ? (el as HTMLInputElement).checked : el.value != "";
}

/** A short CSS selector for `el`: up to the nearest id, tags with :nth-of-type where ambiguous. */
export function selectorOf(el: Element | null): string {
  const parts: string[] = [];
  for (; el && el.nodeType == 1 && parts.length < 8; el = el.parentElement) {
    if (el.id && /^[A-Za-z][\w-]*$/.test(el.id)) {
      parts.unshift("#" + el.id);
      break;
    }
    let s = el.tagName.toLowerCase();
    const p: Element | null = el.parentElement;
    if (p) {
      const same = Array.prototype.filter.call(p.children, (x: Element) => x.tagName == el!.tagName);
      if (same.length > 1) s += ":nth-of-type(" + (same.indexOf(el) + 1) + ")";
    }
    parts.unshift(s);
    if (s == "body") break;
  }
  return parts.join(">").slice(0, 500);
}

/** Whether a pageview definition's selector matches the page: a path glob (`*` = anything) or full URL. */
export function urlMatches(pattern: string, url: string): boolean {
  const u = new URL(url);
  const target = /^https?:/.test(pattern) ? u.origin + u.pathname : u.pathname;
  const re = new RegExp("^" + pattern.split("*").map((s) => s.replace(/[.+?^${}()|[\]\\]/g, "\\$&")).join(".*") + "$");
  return re.test(target) || re.test(target.replace(/\/$/, "") || "/");
}

function run(c: Ctx) {
  const cfg = c.c;
  const defs: Definition[] = cfg.definitions || [];
  const doc = document.documentElement;
  let url = c.u();
  const clicks: Click[] = [];
  const moves: Array<{ x: number; y: number }> = [];
  const submits: Array<{ selector: string; t: number }> = [];
  const fields: FieldEvent[] = [];
  let depth = 0;
  let sentDepth = -1;
  let lastMove = 0;
  let viewMoves = 0;
  const on = <K extends keyof DocumentEventMap>(type: K, f: (e: DocumentEventMap[K]) => void) =>
    document.addEventListener(
      type,
      (e) => {
        try {
          f(e);
        } catch (err) {
          c.l(err);
        }
      },
      { capture: true, passive: true },
    );

  const measure = () => {
    const d = Math.min(100, Math.round(((scrollY + innerHeight) / Math.max(1, doc.scrollHeight)) * 100));
    if (d > depth) depth = d;
  };
  // small: the page is going away, and its last bodies must fit the browser's keepalive budget (64 KiB in flight,
  // shared with the recorder), so they go in several small bodies rather than one of up to 160 KiB.
  const flush = (small?: unknown) => {
    if (!cfg.heatmaps || !c.o() || (!clicks.length && !moves.length && !submits.length && !fields.length && depth == sentDepth)) return;
    sentDepth = depth;
    const share = small ? 8 : 1;
    const body = {
      tracking_key: c.k,
      session_id: c.s,
      url,
      viewport: { w: innerWidth, h: innerHeight },
      page: { w: doc.scrollWidth, h: doc.scrollHeight },
      clicks: clicks.splice(0, MAX_CLICKS / share),
      moves: moves.splice(0, MAX_MOVES / share),
      submits: submits.splice(0, MAX_SUBMITS / share),
      fields: fields.splice(0, MAX_FIELDS / share),
      scrollDepth: depth,
    };
    c.p(c.e + "/api/interactions", JSON.stringify(body));
    if (clicks.length || moves.length || submits.length || fields.length) flush(small);
  };

  const fire = (d: Definition) =>
    c.t(
      d.isConversion ? "conversion" : "custom",
      d.name,
      d.isConversion ? { value: Number(d.conversionValue) || 0, definitionId: d.id } : { definitionId: d.id },
    );
  const matching = (type: string, test: (d: Definition) => boolean) =>
    defs.forEach((d) => {
      try {
        if (d.eventType == type && test(d)) fire(d);
      } catch (e) {
        c.l("definition", d.selector, e);
      }
    });

  if (cfg.heatmaps) {
    on("click", (e) => {
      const el = e.target as Element;
      const r = el.getBoundingClientRect();
      // Where inside the element: the panel places the click on that element in a page of another width.
      const frac = (v: number, size: number) => (size > 0 ? Math.min(1, Math.max(0, Math.round((v / size) * 1000) / 1000)) : 0.5);
      clicks.push({ x: Math.round(e.pageX), y: Math.round(e.pageY), selector: selectorOf(el), ox: frac(e.clientX - r.left, r.width), oy: frac(e.clientY - r.top, r.height), t: Date.now() });
      // A click on a link usually leaves the page: its batch goes now, while the page still runs.
      if (clicks.length >= MAX_CLICKS || el.closest?.("a[href]")) flush();
    });
    on("mousemove", (e) => {
      const now = Date.now();
      if (now - lastMove < MOVE_EVERY_MS || viewMoves >= MOVES_PER_VIEW) return;
      lastMove = now;
      viewMoves++;
      moves.push({ x: Math.round(e.pageX), y: Math.round(e.pageY) });
    });
    // Form submits (with the clicks on fields) give the heatmap's form interactions and completions.
    on("submit", (e) => {
      submits.push({ selector: selectorOf(e.target as Element), t: Date.now() });
      flush(); // a submit usually leaves the page too
    });
    // Form fields: focus, blur and change, with whether the field is filled (never the value).
    const field = (e: Event) => {
      const el = e.target as HTMLInputElement;
      if (!/^(INPUT|SELECT|TEXTAREA)$/.test(el.tagName) || /^(hidden|submit|button|reset|image)$/.test(el.type)) return;
      const event = e.type == "focusin" ? "focus" : e.type == "focusout" ? "blur" : "change";
      fields.push({ form: el.form ? selectorOf(el.form) : "", field: selectorOf(el), event, filled: isFilled(el), t: Date.now() });
      if (fields.length >= MAX_FIELDS) flush();
    };
    on("focusin", field);
    on("focusout", field);
    on("change", field);
    on("scroll", measure);
    addEventListener("resize", measure, { passive: true });
    measure();
    setInterval(() => flush(), FLUSH_EVERY_MS);
    addEventListener("pagehide", () => flush(1));
    on("visibilitychange", () => document.visibilityState == "hidden" && flush(1));
  }
  on("click", (e) => matching("click", (d) => !!(e.target as Element).closest(d.selector)));
  on("submit", (e) => matching("submit", (d) => !!(e.target as Element).closest(d.selector)));
  const views = (u: string) => matching("pageview", (d) => urlMatches(d.selector, u));
  // SPA navigation: close the previous page view's batch, then start counting the new one.
  const send = c.t;
  c.t = (event, name, props) => {
    if (event == "pageview") {
      flush();
      url = c.u();
      depth = 0;
      sentDepth = -1;
      viewMoves = 0;
      measure();
    }
    send(event, name, props);
    if (event == "pageview") views(url);
  };
  views(url);
  if (cfg.recordings)
    document.head.appendChild(Object.assign(document.createElement("script"), { src: c.e + "/tracking/recorder.js" }));
}

const w = window as any;
const ctx: Ctx | undefined = w.tracker && w.tracker._;
if (ctx && !ctx.h) {
  ctx.h = 1;
  try {
    run(ctx);
  } catch (e) {
    ctx.l(e);
  }
}
