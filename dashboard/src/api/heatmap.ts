//! Types of the heatmap panel's calls (daemon/API.md "Heatmaps"): GET /api/analytics/urls,
//! GET /api/analytics/heatmap (spec part 2 §3, plus clicks by element and the reference size) and
//! GET /api/analytics/heatmap/page (the page's latest recorded snapshot, drawn under the heat).
import type { components } from "./generated";

export type HeatmapData = components["schemas"]["Heatmap"];
export type ElementClick = components["schemas"]["ElementClick"];
export type PageRendering = components["schemas"]["PageRendering"];
export type PageSnapshot = components["schemas"]["PageSnapshot"];
