//! Types of the Advanced Analytics reads (daemon/API.md "Advanced analytics"): GET /api/analytics/advanced
//! and GET /api/analytics/ai-intent. The answers are aliases onto the generated contract; the parameter values and
//! the values of the answers' text fields are written here.

import type { components } from "./generated";

export type AdvancedRange = "1d" | "7d" | "30d" | "90d";

type Schemas = components["schemas"];

export type AdvancedAnalytics = Schemas["Advanced"];

export type IntentCategory = "high" | "medium" | "low";
export type IntentPatternName = "ready_to_convert" | "researching" | "exploring" | "window_shopping";

export type IntentReason = Schemas["Reason"];
export type IntentSession = Schemas["IntentSession"];
export type IntentModelInfo = Schemas["ModelInfo"];
export type AiIntent = Schemas["AiIntent"];
