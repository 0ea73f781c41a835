//! Intent score presentation (spec part 2 §9): labels at 80 / 60 / 40 / 20, colour bands at 80 / 60 / 40,
//! the high-intent list (60 or more, descending, at most 10), visitor ids.
import type { IntentPatternName, IntentSession } from "../api/advanced";

export const HIGH_INTENT_MIN = 60;
export const HIGH_INTENT_LIST_MAX = 10;

export function intentLabel(score: number): string {
  if (score >= 80) return "Very High";
  if (score >= 60) return "High";
  if (score >= 40) return "Medium";
  if (score >= 20) return "Low";
  return "Very Low";
}

export type IntentTone = "green" | "blue" | "yellow" | "red";

/** Colour band of a score: 80+ green, 60+ blue, 40+ yellow, else red. */
export function intentTone(score: number): IntentTone {
  if (score >= 80) return "green";
  if (score >= 60) return "blue";
  if (score >= 40) return "yellow";
  return "red";
}

/** The sessions with a score of 60 or more, best first, at most 10. */
export function highIntentVisitors(sessions: IntentSession[]): IntentSession[] {
  return sessions
    .filter((s) => s.intentScore >= HIGH_INTENT_MIN)
    .sort((a, b) => b.intentScore - a.intentScore)
    .slice(0, HIGH_INTENT_LIST_MAX);
}

/** Visitor id: the first 16 characters of the session id. */
export function visitorId(sessionId: string): string {
  return sessionId.slice(0, 16);
}

/** What is shown of a visitor id: its first 8 characters. */
export function shortVisitorId(sessionId: string): string {
  return visitorId(sessionId).slice(0, 8);
}

/** The detail card's advice: a recommendation above 70, flags below 40. */
export function visitorAdvice(score: number): { recommendation?: string; flags: string[] } {
  if (score > 70) return { recommendation: "High conversion likelihood: reach out now with a clear next step.", flags: [] };
  if (score < 40) return { flags: ["Low engagement", "May leave soon"] };
  return { flags: [] };
}

export const PATTERN_LABELS: Record<IntentPatternName, string> = {
  ready_to_convert: "Ready to Convert",
  researching: "Researching",
  exploring: "Exploring",
  window_shopping: "Window Shopping",
};

/** Seconds as rounded minutes, "m" (spec §9: seconds / 60 rounded). */
export function sessionMinutes(seconds: number): string {
  return `${Math.round((Number.isFinite(seconds) ? seconds : 0) / 60)}m`;
}

/** "45s", "3m 05s". */
export function shortDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s}s`;
  return `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, "0")}s`;
}

/** The model card's note after its "Prior weights" label: the API's note starts with those words too. */
export function modelNote(source: string, note: string): string {
  return source === "fitted" ? note : note.replace(/^Prior weights:\s*/i, "");
}
