//! Types (aliases onto the generated contract) and paths of the Visitor Stream's reads (daemon/API.md
//! "Visitor Stream").

import { filtersQuery } from "../lib/filters";
import type { components } from "./generated";

type Schemas = components["schemas"];

/** What a visitor is doing now; `activity` is "" after a page view (the row then says "Viewing: page"). */
export type CurrentActivity = Schemas["CurrentActivity"];
/** A session of the stream (spec part 2 §3). */
export type StreamSession = Schemas["StreamSession"];
/** GET /api/analytics/live-visitors. */
export type LiveVisitors = Schemas["LiveVisitors"];
export type JourneyEvent = Schemas["JourneyEvent"];
export type JourneyStep = Schemas["SessionJourneyStep"];
/** GET /api/analytics/sessions/{id}/journey. */
export type SessionJourney = Schemas["SessionJourney"];

export const liveVisitorsPath = (websiteId: number, filters: string | null = null) =>
  `/api/analytics/live-visitors?website_id=${websiteId}${filtersQuery(filters)}`;
/** GET /api/analytics/sessions/{id}: one session as the stream lists it (a funnel drop-off's detail). */
export const sessionPath = (websiteId: number, sessionId: number) =>
  `/api/analytics/sessions/${sessionId}?website_id=${websiteId}`;
export const journeyPath = (websiteId: number, sessionId: number) =>
  `/api/analytics/sessions/${sessionId}/journey?website_id=${websiteId}`;
