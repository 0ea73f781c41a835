//! Response and request shapes of the daemon's HTTP API (daemon/API.md), as the dashboard reads them.

export interface User {
  id: number;
  email: string;
  createdAt?: string;
}

export interface AuthResponse {
  accessToken: string;
  refreshToken: string;
  user: User;
}

/** GET /api/registration: the server's sign-up mode and whether a sign-up would be accepted now. */
export interface Registration {
  mode: "open" | "first-user" | "closed";
  open: boolean;
}

export interface Credentials {
  email: string;
  password: string;
}

export type TrackingLevel = "light" | "enhanced" | "professional";

export interface Website {
  id: number;
  name: string;
  domain: string;
  trackingKey: string;
  trackingLevel: TrackingLevel;
  createdAt: string;
  scriptUrl?: string;
}

export interface WebsiteInput {
  name: string;
  domain: string;
  trackingLevel?: TrackingLevel;
}

export interface OverviewMetrics {
  totalVisitors: number;
  activeSessions: number;
  pageViews: number;
  conversions: number;
  bounceRate: number;
  avgSessionDuration: number;
}

export interface Overview {
  metrics: OverviewMetrics;
  previous: { totalVisitors: number; pageViews: number; conversions: number };
  topPages: TopPage[];
  range?: string;
}

export interface TopPage {
  url: string;
  views: number;
}

export type TimeseriesRange = "7d" | "30d" | "90d";

export interface TimeseriesPoint {
  date: string;
  visitors: number;
  pageViews: number;
}

export interface Timeseries {
  points: TimeseriesPoint[];
}

export interface ActivityEvent {
  id: number | string;
  type: string;
  name: string;
  url: string;
  sessionId: string;
  country: string;
  value: number | null;
  timestamp: string;
}

export type SiteMetric = "pageviews" | "visitors";

export interface SitePeriods {
  websiteId: number;
  today: number;
  yesterday: number;
  last7Days: number;
  last30Days: number;
}

export interface Conversion {
  id: number | string;
  goalName: string;
  value: number | null;
  timestamp: string;
}

export interface ConversionsResponse {
  conversions: Conversion[];
  conversionRate: number;
}

export interface IdentifiedVisitor {
  id: number | string;
  companyName: string;
  leadScore: number;
  industry: string;
  country: string;
  city: string;
  identifiedAt: string;
}

export interface TrafficSource {
  source: string;
  visits: number;
  percentage: number;
}

/** A rollup dimension of GET /api/websites/{id}/breakdown/{dimension}. */
export type BreakdownDimension = "page" | "referrer" | "country" | "device" | "browser" | "os" | "utm_source";

/** GET /api/websites/{id}/breakdown/{dimension}: rows most first; value '' = unknown (Direct for referrers). */
export interface Breakdown {
  dimension: BreakdownDimension;
  measure: "pageviews" | "visits";
  rows: { value: string; count: number }[];
}

export interface ActiveSession {
  id: number | string;
  sessionId: string;
  ipAddress?: string | null;
  lastSeen: string;
  currentPage?: string | null;
  country?: string | null;
  device?: string | null;
  browser?: string | null;
}

export interface LiveMessage {
  type: string;
  data: unknown;
}

/** GET /api/privacy/settings (the fields the dashboard edits). */
export interface PrivacySettings {
  cookieConsent: boolean;
  respectDoNotTrack: boolean;
  /** Recordings mask every text node, not only inputs and editable text. */
  maskAllText: boolean;
}
