//! Types of the funnel and journey calls (spec part 2 §3 "Funnel", "Funnel step", "Customer journey"; the
//! journey list and paths shapes are ours, documented in daemon/API.md).

export type FunnelStatus = "active" | "paused";

export interface FunnelStep {
  name: string;
  url: string;
  eventName: string | null;
  visitors: number;
  conversions: number;
  conversionRate: number;
  dropOffRate: number;
}

export interface Funnel {
  id: number;
  name: string;
  websiteId: number;
  website: { name: string };
  status: FunnelStatus | string;
  createdAt: string;
  steps: FunnelStep[];
  totalVisitors: number;
  totalConversions: number;
  overallConversionRate: number;
  conversionRate: number;
}

export interface FunnelStepInput {
  name: string;
  url: string;
  eventName?: string;
}

export interface FunnelInput {
  name: string;
  websiteId: number | "";
  steps: FunnelStepInput[];
  status?: FunnelStatus;
}

export type JourneyPeriod = "1d" | "7d" | "30d" | "90d";
export type JourneyFilter = "all" | "converted" | "abandoned" | "active";

export interface JourneyStep {
  page: string;
  duration: number;
  eventType: string;
  name: string;
}

export interface CustomerJourney {
  sessionId: string;
  websiteId: number;
  startedAt: string;
  touchpoints: number;
  conversionEvents: number;
  totalDuration: number;
  journeyScore: number;
  isCompleted: boolean;
  visitorInfo: { location: string; device: string; browser: string; source: string };
  steps: JourneyStep[];
}

export interface CustomerJourneys {
  summary: { totalJourneys: number; averageDuration: number; averageTouchpoints: number; conversionRate: number };
  journeys: CustomerJourney[];
}

export interface JourneyPath {
  pages: string[];
  sessions: number;
  conversions: number;
  conversionRate: number;
}

export interface JourneyPaths {
  totalSessions: number;
  paths: JourneyPath[];
}
