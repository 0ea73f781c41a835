//! Session replay types and calls (daemon/API.md "Session replays"): the site's list with its filter and
//! range, and one recording's rrweb events for the player.
import { api } from ".";
import { filtersQuery } from "../lib/filters";
import type { components } from "./generated";

/** The four cards over every recording of the range that passes the filter (not only the listed 100). */
export type ReplayStats = components["schemas"]["ReplayStats"];

export const REPLAY_FILTERS = ["all", "complete", "incomplete", "enterprise"] as const;
export type ReplayFilter = (typeof REPLAY_FILTERS)[number];
export type ReplayRange = "24h" | "7d" | "30d";

/** Most replays one list call asks for (spec part 2 §9). */
export const REPLAY_LIST_LIMIT = 100;

/** One recording in the list (spec part 2 §3, plus the recording's real `clickCount`). */
export type ReplaySummary = components["schemas"]["ReplaySummary"];

/** An rrweb event as stored: only what the dashboard reads is typed. */
export interface RecordedEvent {
  type: number;
  timestamp: number;
  // biome-ignore lint/suspicious/noExplicitAny: rrweb event payloads vary by type; the player reads them
  data: any;
}

/**
 * The list: null on 401 (spec part 2 §6), and anything but an array counts as empty.
 */
export async function fetchReplays(
  websiteId: number,
  filter: ReplayFilter,
  range: ReplayRange,
  filters: string | null = null,
): Promise<ReplaySummary[] | null> {
  const query = new URLSearchParams({ limit: String(REPLAY_LIST_LIMIT), filter, range });
  const path = `/api/websites/${websiteId}/session-replays?${query}${filtersQuery(filters)}`;
  const list = await api.get<unknown>(path, { nullOn401: true });
  if (list === null) return null;
  return Array.isArray(list) ? (list as ReplaySummary[]) : [];
}

export function fetchReplayStats(
  websiteId: number,
  filter: ReplayFilter,
  range: ReplayRange,
  filters: string | null = null,
): Promise<ReplayStats> {
  const query = new URLSearchParams({ filter, range });
  return api.get<ReplayStats>(`/api/websites/${websiteId}/session-replays/stats?${query}${filtersQuery(filters)}`);
}

/** GET /api/replays/{id}: one recording as the list shows it, and its site. */
export type ReplayDetail = components["schemas"]["ReplayDetail"];

export function fetchReplay(replayId: number): Promise<ReplayDetail> {
  return api.get<ReplayDetail>(`/api/replays/${replayId}`);
}

/** The spec's two load errors, shown under 'Failed to load replay'. */
export const REPLAY_LOAD_FAILED = "Failed to load replay data";
export const REPLAY_EMPTY = "No replay data available";

/** A recording's events; a failed call or an empty recording is an error with the spec's message. */
export async function fetchReplayEvents(replayId: number): Promise<RecordedEvent[]> {
  let body: { events?: unknown };
  try {
    body = await api.get<{ events?: unknown }>(`/api/replays/${replayId}/events`);
  } catch {
    // A non-ok answer, a network failure, or a body cut short mid-stream (not JSON): all the same to the owner.
    throw new Error(REPLAY_LOAD_FAILED);
  }
  const events = body?.events;
  if (!Array.isArray(events) || events.length === 0) throw new Error(REPLAY_EMPTY);
  return events as RecordedEvent[];
}
