//! Drawing a heatmap on a canvas (pure of React): click heat (radius 50 px, a count of 10 is full
//! intensity, spec §9), scroll reach bands and mouse positions, either on a page-sized canvas at the
//! reference width or placed over the page rendered from a recording; and the recorded page made inert.
import type { ElementClick, HeatmapData } from "../api/heatmap";

export const CLICK_RADIUS = 50;
export const FULL_INTENSITY_COUNT = 10;
export type HeatmapKind = "click" | "scroll" | "movement";

/** Heat colour of an intensity 0..1: blue, green, yellow, red. */
export function heatColor(intensity: number, alpha: number): string {
  const t = Math.max(0, Math.min(1, intensity));
  const hue = Math.round(240 - 240 * t);
  return `hsla(${hue}, 100%, 50%, ${alpha})`;
}

/** The canvas height for a page: its reference height, else below the lowest point, at least 600. */
export function pageHeight(data: HeatmapData): number {
  const lowest = Math.max(0, ...data.clicks.map((c) => c.y), ...data.mouseMovements.map((m) => m.y));
  return Math.max(600, data.referenceHeight || 0, lowest + CLICK_RADIUS * 2);
}

/** What is drawn, in canvas pixels: click spots with counts, mouse positions, scroll bands by depth. */
export interface HeatLayer {
  clicks: { x: number; y: number; count: number }[];
  moves: { x: number; y: number }[];
  scroll: HeatmapData["scrollDepth"];
  /** Radius of a click spot and of a mouse position, canvas pixels. */
  radius: number;
  dot: number;
}

/** The page-sized canvas (no recording of the page): the reference-width coordinates scaled by `scale`. */
export function gridLayer(data: HeatmapData, scale: number): HeatLayer {
  return {
    clicks: data.clicks.map((c) => ({ x: c.x * scale, y: c.y * scale, count: c.count })),
    moves: data.mouseMovements.map((m) => ({ x: m.x * scale, y: m.y * scale })),
    scroll: data.scrollDepth,
    radius: CLICK_RADIUS * scale,
    dot: 8 * scale,
  };
}

/** Where an element is in the rendered document (document pixels), or null when the selector finds nothing. */
export type FindElement = (selector: string) => { left: number; top: number; width: number; height: number } | null;

/**
 * Clicks placed on the page rendered from a recording (document pixels, `docWidth` x `docHeight`): on their
 * element at their offset inside it when the selector resolves and the click has an offset, else at their
 * page position scaled to the document. `bySelector` counts the clicks placed on their element.
 */
export function placeClicks(clicks: ElementClick[], docWidth: number, docHeight: number, find: FindElement) {
  let bySelector = 0;
  const placed = clicks.map((c) => {
    const box = c.offsetX != null && c.offsetY != null && c.selector ? find(c.selector) : null;
    if (box && c.offsetX != null && c.offsetY != null) {
      bySelector += c.count;
      return { x: box.left + c.offsetX * box.width, y: box.top + c.offsetY * box.height, count: c.count };
    }
    return { x: c.pageX * docWidth, y: c.pageY * docHeight, count: c.count };
  });
  return { placed, bySelector };
}

/**
 * Over the rendered page: placed clicks (document pixels) and mouse positions (reference width, scaled to
 * the document's width), all scaled by `scale`, the rendering's size on screen.
 */
export function pageLayer(data: HeatmapData, placed: HeatLayer["clicks"], docWidth: number, scale: number): HeatLayer {
  const move = (docWidth / data.referenceWidth) * scale;
  return {
    clicks: placed.map((c) => ({ x: c.x * scale, y: c.y * scale, count: c.count })),
    moves: data.mouseMovements.map((m) => ({ x: m.x * move, y: m.y * move })),
    scroll: data.scrollDepth,
    radius: Math.max(12, CLICK_RADIUS * scale),
    dot: Math.max(3, 8 * scale),
  };
}

/** Draws the first `upTo` points (all by default) of one kind; `opacity` is 0.1..1. */
export function drawHeatmap(ctx: CanvasRenderingContext2D, layer: HeatLayer, kind: HeatmapKind, opacity: number, upTo = Number.POSITIVE_INFINITY) {
  const { width, height } = ctx.canvas;
  ctx.clearRect(0, 0, width, height);
  if (kind === "click") {
    const r = layer.radius;
    layer.clicks.slice(0, upTo).forEach(({ x, y, count }) => {
      const intensity = Math.min(1, count / FULL_INTENSITY_COUNT);
      const g = ctx.createRadialGradient(x, y, 0, x, y, r);
      g.addColorStop(0, heatColor(intensity, opacity));
      g.addColorStop(1, heatColor(intensity, 0));
      ctx.fillStyle = g;
      ctx.fillRect(x - r, y - r, 2 * r, 2 * r);
    });
  } else if (kind === "movement") {
    ctx.fillStyle = heatColor(0.6, opacity * 0.6);
    layer.moves.slice(0, upTo).forEach((m) => {
      ctx.beginPath();
      ctx.arc(m.x, m.y, layer.dot, 0, Math.PI * 2);
      ctx.fill();
    });
  } else {
    // Each 10% band of the page, coloured by the share of views that reached it.
    const bands = layer.scroll.slice(0, Math.min(upTo, 10));
    bands.forEach((b) => {
      ctx.fillStyle = heatColor(b.percentage / 100, opacity * 0.8);
      ctx.fillRect(0, (b.depth / 100) * height, width, height / 10);
    });
  }
}

/** Elements never rebuilt from a recording: they run or load things, and a still picture needs none. */
const DROPPED_TAGS = new Set(["script", "noscript", "iframe", "frame", "frameset", "object", "embed", "applet", "base", "meta", "portal"]);

/**
 * A recorded snapshot made inert before it is rebuilt (the frame's sandbox without scripts is the guard;
 * this is the second): no scripts, frames, plugins, base or meta refresh, no event-handler attributes, no
 * javascript: URLs, and no links but stylesheets already inlined by the recorder. A new tree is returned.
 */
// biome-ignore lint/suspicious/noExplicitAny: a serialized rrweb node is untyped JSON from a visitor
export function inertSnapshot(node: any): any {
  if (!node || typeof node !== "object") return node;
  const out = { ...node };
  if (out.type === 2) {
    const attributes: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(out.attributes ?? {})) {
      const lower = name.toLowerCase();
      if (lower.startsWith("on") || lower === "srcdoc" || lower === "formaction") continue;
      if (typeof value === "string" && /^\s*(javascript|vbscript):/i.test(value)) continue;
      attributes[name] = value;
    }
    out.attributes = attributes;
  }
  if (Array.isArray(out.childNodes)) {
    out.childNodes = out.childNodes
      .filter((c: { type?: number; tagName?: unknown; attributes?: Record<string, unknown> }) => {
        if (c?.type !== 2) return true;
        const tag = String(c.tagName).toLowerCase();
        if (DROPPED_TAGS.has(tag)) return false;
        return tag !== "link" || typeof c.attributes?._cssText === "string";
      })
      .map(inertSnapshot);
  }
  return out;
}

/** A URL cut to 50 characters for the select (spec §9). */
export function urlLabel(url: string): string {
  return url.length > 50 ? `${url.slice(0, 50)}…` : url;
}
