//! The daemon's API shapes as the dashboard names them: aliases onto src/api/generated.ts, which
//! `npm run contract` generates from the Rust routes and types (GET /api/openapi.json). Change a shape in Rust,
//! then regenerate; only unions the document does not spell (parameter values) are written here.

import type { components } from "./generated";

type Schemas = components["schemas"];

export type User = Schemas["User"];
export type AuthResponse = Schemas["AuthSession"];
/** GET /api/registration: the server's sign-up mode and whether a sign-up would be accepted now. */
export type Registration = Schemas["RegistrationState"];
export type Credentials = Schemas["Credentials"];
export type TrackingLevel = Schemas["TrackingLevel"];
/** What POST /api/websites/{id}/imports (and `tracker import --json`) reports. */
export type ImportReport = Schemas["ImportReport"];
/** The tools an export may come from (`from=`). */
export type ImportSource = "plausible" | "umami" | "goatcounter";
export type Website = Schemas["WebsiteResponse"];
export type WebsiteInput = Schemas["CreateWebsite"];
export type WebsiteUpdate = Schemas["UpdateWebsite"];

export type OverviewMetrics = Schemas["OverviewMetrics"];
export type Overview = Schemas["Overview"];
export type TopPage = Schemas["PageViews"];

/** The `range` values the overview page offers. */
export type TimeseriesPoint = Schemas["TimePoint"];
export type Timeseries = Schemas["Timeseries"];
export type ActivityEvent = Schemas["ActivityEvent"];

/** The `metric` values of GET /api/dashboard/sites. */
export type SiteMetric = "pageviews" | "visitors";
export type SitePeriods = Schemas["SitePeriods"];
export type Conversion = Schemas["Conversion"];
export type ConversionsResponse = Schemas["Conversions"];
export type IdentifiedVisitor = Schemas["IdentifiedVisitor"];
export type TrafficSource = Schemas["TrafficSource"];

/** A dimension of GET /api/websites/{id}/breakdown/{dimension}: `page`, `event`, `goal`, `prop:<key>` or a
 * visit dimension (`referrer`, `country`, `utm_medium`, ...; lib/filters.ts lists them). */
export type BreakdownDimension = string;

/** GET /api/websites/{id}/breakdown/{dimension}: rows most first; value '' = unknown (Direct for referrers). */
export type Breakdown = Schemas["Breakdown"];

/** GET /api/websites/{id}/revenue/{dimension}: per value and currency, greatest sums first; currency '' when the
 * values came without one. */
export type Revenue = Schemas["Revenue"];
export type RevenueRow = Schemas["RevenueRow"];

export type ActiveSession = Schemas["ActiveSession"];

/** A message of the live stream (GET /api/dashboard/live). */
export interface LiveMessage {
  type: string;
  data: unknown;
}

/** GET /api/privacy/settings. */
export type PrivacySettings = Schemas["PrivacySettings"];
