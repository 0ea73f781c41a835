//! Session replay reads: the site's list and its cards (filter and range sent with both) and one recording's
//! events.
import { useQuery } from "@tanstack/react-query";
import { fetchReplay, fetchReplayEvents, fetchReplayStats, fetchReplays } from "../api/replays";
import type { ReplayFilter, ReplayRange } from "../api/replays";
import { keys } from "../api/keys";
import { useUser } from "./auth";

/** `filters`: the URL's filters as sent (null for none); the recordings of the visits they admit. */
export function useSessionReplays(websiteId: number | undefined, filter: ReplayFilter, range: ReplayRange, filters: string | null = null) {
  const signedIn = !!useUser().data;
  const id = websiteId ?? -1;
  return useQuery({
    queryKey: keys.site(id).read("session-replays", { filter, range, filters }),
    queryFn: () => fetchReplays(id, filter, range, filters),
    enabled: signedIn && websiteId !== undefined,
  });
}

/** The cards over every recording of the range and filter. */
export function useReplayStats(websiteId: number | undefined, filter: ReplayFilter, range: ReplayRange, filters: string | null = null) {
  const signedIn = !!useUser().data;
  const id = websiteId ?? -1;
  return useQuery({
    queryKey: keys.site(id).read("session-replay-stats", { filter, range, filters }),
    queryFn: () => fetchReplayStats(id, filter, range, filters),
    enabled: signedIn && websiteId !== undefined,
  });
}

/** One recording and its site, for a link that names it (?replay=ID); 404 (another user's too) is an error. */
export function useReplay(replayId: number | undefined) {
  const signedIn = !!useUser().data;
  return useQuery({
    queryKey: keys.replay(replayId ?? -1),
    queryFn: () => fetchReplay(replayId!),
    enabled: signedIn && replayId !== undefined,
    retry: false,
  });
}

/** A recording's events, read once per opening (they can be large: not kept once the player closes). */
export function useReplayEvents(replayId: number | undefined) {
  return useQuery({
    queryKey: keys.replayEvents(replayId ?? -1),
    queryFn: () => fetchReplayEvents(replayId!),
    enabled: replayId !== undefined,
    retry: false,
    gcTime: 0,
    staleTime: Number.POSITIVE_INFINITY,
  });
}
