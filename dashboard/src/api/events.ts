//! Event definitions and the events summary (spec part 2 §3, §7): types and fetchers.
import { api } from ".";

export type EventType = "click" | "submit" | "pageview" | "custom";
export const EVENT_TYPES: readonly EventType[] = ["click", "submit", "pageview", "custom"];

export interface EventDefinition {
  id: number;
  name: string;
  displayName: string;
  description: string;
  eventType: EventType;
  selector: string;
  isConversion: boolean;
  /** Numeric text such as "49.99", or null. */
  conversionValue: string | null;
  isActive: boolean;
  createdAt: string;
}

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

export interface EventSummary {
  totalEvents: number;
  uniqueEvents: number;
  conversionEvents: number;
  topEvents: { name: string; count: number }[];
  /** How often each definition's event fired over the range. */
  definitionTriggers: { id: number; count: number }[];
}

export type EventRange = "24h" | "7d" | "30d";

export const eventsApi = {
  definitions: (site: number) => api.get<EventDefinition[]>(`/api/websites/${site}/event-definitions`),
  summary: (site: number, range: EventRange) =>
    api.get<EventSummary>(`/api/websites/${site}/events/summary?timeRange=${encodeURIComponent(range)}`),
  create: (site: number, input: EventDefinitionInput) =>
    api.post<EventDefinition>(`/api/websites/${site}/event-definitions`, input),
  update: (site: number, id: number, changes: Partial<EventDefinitionInput>) =>
    api.put<EventDefinition>(`/api/websites/${site}/event-definitions/${id}`, changes),
  remove: (site: number, id: number) => api.del(`/api/websites/${site}/event-definitions/${id}`),
};
