//! Types of the Advanced Analytics reads (daemon/API.md "Advanced analytics"): GET /api/analytics/advanced
//! and GET /api/analytics/ai-intent.

export type AdvancedRange = "1d" | "7d" | "30d" | "90d";

export interface AdvancedAnalytics {
  totalVisitors: number;
  highIntentVisitors: number;
  conversionRate: number;
  /** Seconds. */
  averageSessionDuration: number;
  bounceRate: number;
  realTimeMetrics: { activeVisitors: number; newVisitors: number; conversions: number };
  topPages: { url: string; views: number; conversionRate: number }[];
  visitorSegments: { segment: string; group: "visitor" | "source" | "device"; count: number; conversionRate: number }[];
  intentAnalyzed: number;
  intentModel: "fitted" | "prior";
}

export type IntentCategory = "high" | "medium" | "low";
export type IntentPatternName = "ready_to_convert" | "researching" | "exploring" | "window_shopping";

export interface IntentReason {
  feature: string;
  label: string;
  /** Log-odds against the reference visit; positive raises the score. */
  impact: number;
}

export interface IntentSession {
  sessionId: string;
  /** 0-100; a fitted model's score sets the visit's odds against the site's average (daemon/API.md). */
  intentScore: number;
  /** The model's conversion probability in percent, one decimal. */
  conversionProbability: number;
  category: IntentCategory;
  pattern: IntentPatternName;
  signals: {
    pageViews: number;
    duration: number;
    isConverted: boolean;
    scrollDepth: number;
    events: number;
    returning: boolean;
    source: "search" | "social" | "direct" | "referral" | "campaign";
    organization: boolean;
  };
  keyPage: string | null;
  raisedBy: IntentReason[];
  loweredBy: IntentReason[];
}

export interface IntentModelInfo {
  source: "fitted" | "prior";
  note: string;
  trainingSessions: number;
  trainingConversions: number;
  heldOutSessions: number;
  heldOutConversions: number;
  auc: number | null;
  fittedAt: string;
  fitMs: number;
  weights: { feature: string; weight: number }[];
  keyPages: { page: string; sessions: number; conversions: number; conversionRate: number; lift: number }[];
  baseConversionRate: number;
}

export interface AiIntent {
  summary: { totalAnalyzed: number; highIntent: number; mediumIntent: number; lowIntent: number; averageIntentScore: number };
  distribution: { high: number; medium: number; low: number };
  patterns: { pattern: IntentPatternName; count: number; percentage: number; averageScore: number; conversionRate: number }[];
  topIntentSessions: IntentSession[];
  recommendations: {
    id: string;
    priority: "high" | "medium" | "low";
    title: string;
    detail: string;
    evidence: { label: string; value: string }[];
  }[];
  model: IntentModelInfo;
}
