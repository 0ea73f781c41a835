//! Pure shaping of session replays for the list and the player's timeline (unit-tested).
import type { RecordedEvent } from "../api/replays";

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** Player constants (spec part 2 §9). rrweb's own defaults match; they are passed so that they stay so. */
export const PLAYER = {
  width: 1024,
  height: 576,
  speeds: [1, 2, 4, 8],
  maxSpeed: 360,
  inactivePeriodThreshold: 10_000,
} as const;

/** rrweb-player's controller's own height under the replayed page. */
export const CONTROLLER_HEIGHT = 80;

/** The player's size for a container `width` px wide (at most PLAYER's, at least 240 px wide). */
export function fitPlayer(width: number): { width: number; height: number } {
  const w = Math.max(240, Math.min(PLAYER.width, Math.floor(width)));
  return { width: w, height: Math.round((w * PLAYER.height) / PLAYER.width) };
}

/**
 * The part of a session id shown in the list: its first 8 characters, as the spec has it. The tracking scripts'
 * ids begin with the visit's start in base-36 milliseconds, 8 characters that differ unless two visits start in
 * the same millisecond.
 */
export function sessionLabel(sessionId: string): string {
  return sessionId.slice(0, 8);
}

/** Seconds as "m:ss" (the average-duration card). */
export function formatClock(totalSeconds: number): string {
  const s = Math.max(0, Math.round(Number.isFinite(totalSeconds) ? totalSeconds : 0));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** Bytes as "812 B", "14.2 KB", "3.1 MB". */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 1024) return `${Math.max(0, Math.round(bytes || 0))} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** "Nov 22, 14:05" in the viewer's time zone. */
export function formatStarted(value: string | number | Date): string {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return "";
  const hh = String(date.getHours()).padStart(2, "0");
  const mm = String(date.getMinutes()).padStart(2, "0");
  return `${MONTHS[date.getMonth()]} ${date.getDate()}, ${hh}:${mm}`;
}

/** The first 8 characters of the stored (already anonymised) address, or a dash. */
export function addressPrefix(ip: string | null | undefined): string {
  return ip ? ip.slice(0, 8) : "-";
}

export type MarkKind = "page" | "click" | "custom";

export interface TimelineMark {
  kind: MarkKind;
  /** Milliseconds from the recording's first event (the player's time offset). */
  offset: number;
  label: string;
}

// rrweb event and source numbers (@rrweb/types).
const META = 4;
const INCREMENTAL = 3;
const CUSTOM = 5;
const MOUSE_INTERACTION = 2;
const CLICK = 2;

function pathOf(href: unknown): string {
  if (typeof href !== "string") return "";
  try {
    const u = new URL(href);
    return `${u.pathname}${u.search}` || "/";
  } catch {
    return href.slice(0, 100);
  }
}

/**
 * Page changes (meta events), clicks and custom events of a recording, in time order, as offsets the
 * player can jump to. The recording's first event is time 0, as in the player.
 */
export function timelineMarks(events: RecordedEvent[]): TimelineMark[] {
  if (events.length === 0) return [];
  const start = events.reduce((t, e) => Math.min(t, e.timestamp), events[0].timestamp);
  const marks: TimelineMark[] = [];
  for (const e of events) {
    const offset = e.timestamp - start;
    if (e.type === META) {
      marks.push({ kind: "page", offset, label: pathOf(e.data?.href) || "Page" });
    } else if (e.type === INCREMENTAL && e.data?.source === MOUSE_INTERACTION && e.data?.type === CLICK) {
      marks.push({ kind: "click", offset, label: "Click" });
    } else if (e.type === CUSTOM) {
      const tag = typeof e.data?.tag === "string" ? e.data.tag : "";
      marks.push({ kind: "custom", offset, label: tag.slice(0, 60) || "Custom event" });
    }
  }
  return marks.sort((a, b) => a.offset - b.offset);
}
