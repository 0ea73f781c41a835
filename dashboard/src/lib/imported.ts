//! The overview's `imported` marker (history brought in with `tracker import`) as the sentence the
//! dashboards show beside the figures it is part of.
import type { components } from "../api/generated";
import { dayLabel } from "./time";

/** The tools' own names, as `tracker import --from` knows them. */
const TOOLS: Record<string, string> = { plausible: "Plausible", umami: "Umami", goatcounter: "GoatCounter" };

/** "Mar 1, 2025" from a day key "2025-03-01" (UTC, as the API sends it). */
function dayWithYear(day: string): string {
  return `${dayLabel(day)}, ${day.slice(0, 4)}`;
}

/**
 * "Includes history imported from Plausible, Mar 1, 2025 – Jun 30, 2025", or `null` when the range holds
 * no imported day. Several tools are listed in the API's order ("Plausible and Umami").
 */
export function importedNote(imported: components["schemas"]["ImportedHistory"] | null | undefined): string | null {
  if (!imported || imported.sources.length === 0) return null;
  const names = imported.sources.map((s) => TOOLS[s] ?? s);
  const tools = names.length === 1 ? names[0] : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
  const days = imported.from === imported.to ? dayWithYear(imported.from) : `${dayWithYear(imported.from)} – ${dayWithYear(imported.to)}`;
  return `Includes history imported from ${tools}, ${days}`;
}
