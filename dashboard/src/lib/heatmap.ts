//! Drawing a heatmap on a canvas (pure of React): click heat (radius 50 px, a count of 10 is full
//! intensity, spec §9), scroll reach bands and mouse positions, at the canvas's scale of the reference width.
import type { HeatmapData } from "../api/heatmap";

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

/**
 * Draws the first `upTo` points (all by default) of one kind on a canvas whose width is the reference width
 * scaled by `scale`; `opacity` is 0.1..1.
 */
export function drawHeatmap(ctx: CanvasRenderingContext2D, data: HeatmapData, kind: HeatmapKind, opacity: number, scale: number, upTo = Number.POSITIVE_INFINITY) {
  const { width, height } = ctx.canvas;
  ctx.clearRect(0, 0, width, height);
  if (kind === "click") {
    data.clicks.slice(0, upTo).forEach((c) => {
      const x = c.x * scale;
      const y = c.y * scale;
      const r = CLICK_RADIUS * scale;
      const intensity = Math.min(1, c.count / FULL_INTENSITY_COUNT);
      const g = ctx.createRadialGradient(x, y, 0, x, y, r);
      g.addColorStop(0, heatColor(intensity, opacity));
      g.addColorStop(1, heatColor(intensity, 0));
      ctx.fillStyle = g;
      ctx.fillRect(x - r, y - r, 2 * r, 2 * r);
    });
  } else if (kind === "movement") {
    ctx.fillStyle = heatColor(0.6, opacity * 0.6);
    data.mouseMovements.slice(0, upTo).forEach((m) => {
      ctx.beginPath();
      ctx.arc(m.x * scale, m.y * scale, 8 * scale, 0, Math.PI * 2);
      ctx.fill();
    });
  } else {
    // Each 10% band of the page, coloured by the share of views that reached it.
    const bands = data.scrollDepth.slice(0, Math.min(upTo, 10));
    bands.forEach((b) => {
      ctx.fillStyle = heatColor(b.percentage / 100, opacity * 0.8);
      ctx.fillRect(0, (b.depth / 100) * height, width, height / 10);
    });
  }
}

/** A URL cut to 50 characters for the select (spec §9). */
export function urlLabel(url: string): string {
  return url.length > 50 ? `${url.slice(0, 50)}…` : url;
}
