//! The Visitor Stream's reads: the live summary, polled every 3 s while Live (spec part 2 §9), and one
//! session's journey.
import { useQuery } from "@tanstack/react-query";
import { api } from "../api";
import { keys } from "../api/keys";
import {
  type LiveVisitors,
  type SessionJourney,
  type StreamSession,
  journeyPath,
  liveVisitorsPath,
  sessionPath,
} from "../api/visitorStream";
import { useUser } from "./auth";

/** Visitor stream polling while Live (spec part 2 §9). */
export const STREAM_POLL_MS = 3000;

/** `filters`: the URL's filters as sent (null for none); the active visits they admit. */
export function useLiveVisitors(websiteId: number, live: boolean, filters: string | null = null) {
  const signedIn = !!useUser().data;
  return useQuery({
    queryKey: keys.site(websiteId).read("live-visitors", { filters }),
    queryFn: () => api.get<LiveVisitors>(liveVisitorsPath(websiteId, filters)),
    enabled: signedIn,
    refetchInterval: live ? STREAM_POLL_MS : false,
    // Live data: a fresh mount or a return to Live shows now, not the cache.
    staleTime: 0,
  });
}

export function useSessionJourney(websiteId: number, sessionId: number | undefined, refresh: boolean) {
  const signedIn = !!useUser().data;
  return useQuery({
    queryKey: keys.site(websiteId).read("session-journey", { session: sessionId ?? -1 }),
    queryFn: () => api.get<SessionJourney>(journeyPath(websiteId, sessionId ?? -1)),
    enabled: signedIn && sessionId !== undefined,
    refetchInterval: refresh ? STREAM_POLL_MS : false,
  });
}

/** One session by id (opened from a link, e.g. a funnel's drop-offs), when the live list does not hold it. */
export function useStreamSession(websiteId: number, sessionId: number | undefined) {
  const signedIn = !!useUser().data;
  return useQuery({
    queryKey: keys.site(websiteId).read("stream-session", { session: sessionId ?? -1 }),
    queryFn: () => api.get<StreamSession>(sessionPath(websiteId, sessionId ?? -1)),
    enabled: signedIn && sessionId !== undefined,
  });
}
