//! Event definitions, the events summary (spec part 2 §3, §7) and the events' property keys: types and fetchers. Answers are aliases onto
//! the generated contract; the event types and the create/update body the form sends are written here.
import { api } from ".";
import { filtersQuery } from "../lib/filters";
import type { components } from "./generated";

type Schemas = components["schemas"];

export type EventType = "click" | "submit" | "pageview" | "custom";
export const EVENT_TYPES: readonly EventType[] = ["click", "submit", "pageview", "custom"];

export type EventDefinition = Schemas["EventDefinition"];

/** The body of a create (every field) or an update (the fields that change). */
export interface EventDefinitionInput {
  name: string;
  displayName: string;
  description: string;
  eventType: EventType;
  selector: string;
  isConversion: boolean;
  conversionValue: string;
  isActive?: boolean;
}

export type EventSummary = Schemas["EventSummary"];

export type EventRange = "24h" | "7d" | "30d";

/** GET /api/websites/{id}/events/property-keys: the keys the events carry, most carried first. */
export type PropertyKeys = Schemas["PropertyKeys"];

export const eventsApi = {
  definitions: (site: number) => api.get<EventDefinition[]>(`/api/websites/${site}/event-definitions`),
  summary: (site: number, range: EventRange, filters: string | null) =>
    api.get<EventSummary>(`/api/websites/${site}/events/summary?timeRange=${encodeURIComponent(range)}${filtersQuery(filters)}`),
  /** `period` is the screen's period as query text (`range=7d`, `from=…&to=…`). */
  propertyKeys: (site: number, period: string, filters: string | null) =>
    api.get<PropertyKeys>(`/api/websites/${site}/events/property-keys?${period}${filtersQuery(filters)}`),
  create: (site: number, input: EventDefinitionInput) =>
    api.post<EventDefinition>(`/api/websites/${site}/event-definitions`, input),
  update: (site: number, id: number, changes: Partial<EventDefinitionInput>) =>
    api.put<EventDefinition>(`/api/websites/${site}/event-definitions/${id}`, changes),
  remove: (site: number, id: number) => api.del(`/api/websites/${site}/event-definitions/${id}`),
};
