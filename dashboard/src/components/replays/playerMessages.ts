//! What the dashboard and the replay player page (/replay-player) say to each other with postMessage. Both are
//! served by the daemon from one origin; each side takes a message only from the other's window and that origin.

import type { RecordedEvent } from "../../api/replays";

/** The player page's address: its own policy lets the recorded page's remote assets load, never scripts. */
export const PLAYER_PAGE = "/replay-player";

/** From the dashboard: the recording to play (once), or where to jump. */
export type ToPlayer = { type: "load"; events: RecordedEvent[]; tags: Record<string, string> } | { type: "goto"; offset: number };

/** From the player page: it is ready for the recording; Escape was pressed inside it. */
export type FromPlayer = { type: "ready" } | { type: "escape" };

/** A message from `expected` (a window of this origin), or null for anything else. */
export function messageFrom<T extends { type: string }>(event: MessageEvent, expected: Window | null | undefined): T | null {
  if (!expected || event.source !== expected || event.origin !== window.location.origin) return null;
  const data = event.data as { type?: unknown } | null;
  return data && typeof data === "object" && typeof data.type === "string" ? (data as T) : null;
}
