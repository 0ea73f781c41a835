//! Types and paths of the Visitor Stream's reads (daemon/API.md "Visitor Stream").

/** What a visitor is doing now; `activity` is "" after a page view (the row then says "Viewing: page"). */
export interface CurrentActivity {
  isActive: boolean;
  activity: string;
  currentPage: string;
}

/** A session of the stream (spec part 2 §3). */
export interface StreamSession {
  id: number;
  websiteId: number;
  country: string;
  region: string;
  city: string;
  deviceType: string;
  browser: string;
  os: string;
  firstSeen: string;
  lastSeen: string;
  isConverted: boolean;
  conversionValue: number;
  sessionDuration: number;
  pageViewCount: number;
  entryPage: string;
  exitPage: string;
  utmSource: string;
  referrer: string;
  currentActivity: CurrentActivity;
}

/** GET /api/analytics/live-visitors. */
export interface LiveVisitors {
  totalActiveVisitors: number;
  newVisitorsToday: number;
  conversionsToday: number;
  topPages: { page: string; visitors: number }[];
  recentSessions: StreamSession[];
}

export interface JourneyEvent {
  kind: string;
  name: string;
  label: string;
  at: string;
  value: number | null;
  currency: string | null;
}

export interface JourneyStep {
  page: string;
  enteredAt: string;
  duration: number;
  events: JourneyEvent[];
}

/** GET /api/analytics/sessions/{id}/journey. */
export interface SessionJourney {
  sessionId: number;
  websiteId: number;
  firstSeen: string;
  lastSeen: string;
  steps: JourneyStep[];
  truncated: boolean;
}

export const liveVisitorsPath = (websiteId: number) => `/api/analytics/live-visitors?website_id=${websiteId}`;
export const journeyPath = (websiteId: number, sessionId: number) =>
  `/api/analytics/sessions/${sessionId}/journey?website_id=${websiteId}`;
