//! Types of the heatmap panel's calls: GET /api/analytics/urls and GET /api/analytics/heatmap (spec part 2
//! §3, plus the reference size the coordinates are measured against, API.md).

export interface HeatmapData {
  /** 10 px cells: x scaled to `referenceWidth`, y in page pixels at that width. */
  clicks: { x: number; y: number; count: number }[];
  scrollDepth: { depth: number; percentage: number; visitors: number }[];
  mouseMovements: { x: number; y: number }[];
  pageMetrics: { totalVisitors: number; averageTimeOnPage: number; bounceRate: number; conversionRate: number };
  formInteractions: { element: string; interactions: number; completions: number; dropOffRate: number }[];
  referenceWidth: number;
  referenceHeight: number;
}
