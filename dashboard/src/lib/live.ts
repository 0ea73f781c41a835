//! Shaping of live-feed sessions (spec part 1, Live Visitors card).
import type { ActiveSession, LiveMessage } from "../api/types";

export const ACTIVE_THRESHOLD_MS = 5 * 60_000;

/** "Session" plus the last 8 characters of the session id. */
export function sessionLabel(sessionId: string): string {
  return `Session ${sessionId.slice(-8)}`;
}

/** Active when last seen under 5 minutes ago, otherwise Idle. */
export function sessionStatus(lastSeen: string, now: number = Date.now()): "Active" | "Idle" {
  const t = new Date(lastSeen).getTime();
  return now - t < ACTIVE_THRESHOLD_MS ? "Active" : "Idle";
}

/** The active sessions carried by a stream message, or null for any other or an unparseable message. */
export function parseLiveMessage(raw: string): ActiveSession[] | null {
  let msg: LiveMessage;
  try {
    msg = JSON.parse(raw) as LiveMessage;
  } catch {
    console.warn("live stream: unparseable message", raw);
    return null;
  }
  if (msg?.type !== "active_sessions" || !Array.isArray(msg.data)) return null;
  return msg.data as ActiveSession[];
}
