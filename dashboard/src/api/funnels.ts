//! Types of the funnel and journey calls: the answers are aliases onto the generated contract (spec part 2 §3
//! "Funnel", "Customer journey"; daemon/API.md); the form bodies and parameter values are written here.

import { filtersQuery } from "../lib/filters";
import type { components } from "./generated";

type Schemas = components["schemas"];

export type FunnelStatus = "active" | "paused";

export type FunnelStep = Schemas["FunnelStep"];
export type Funnel = Schemas["Funnel"];
/** GET /api/funnels/{id}/drop-offs: per step but the last, the visits that reached it and not the next. */
export type FunnelDropOffs = Schemas["FunnelDropOffs"];
export type DropOffVisit = Schemas["DropOffVisit"];

export const dropOffsPath = (id: number, range: string, filters: string | null = null, limit = 20) =>
  `/api/funnels/${id}/drop-offs?range=${encodeURIComponent(range)}&limit=${limit}${filtersQuery(filters)}`;

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

export type JourneyStep = Schemas["JourneyStep"];
export type CustomerJourney = Schemas["CustomerJourney"];
export type CustomerJourneys = Schemas["CustomerJourneys"];
export type JourneyPath = Schemas["JourneyPath"];
export type JourneyPaths = Schemas["JourneyPaths"];
