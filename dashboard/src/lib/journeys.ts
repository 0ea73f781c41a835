//! Journey classification (spec part 2 §4), the duration format (§9) and the path/flow chart's data.
import type { CustomerJourney, JourneyPath } from "../api/funnels";

export type JourneyClass = "Converted" | "High Intent" | "Abandoned" | "Active";

/** Spec §9: a journey is high intent above this score. */
export const HIGH_INTENT_SCORE = 70;

/** Spec §4: completed with conversion events = Converted; else score above 70 = High Intent; else completed = Abandoned; else Active. */
export function classifyJourney(j: Pick<CustomerJourney, "isCompleted" | "conversionEvents" | "journeyScore">): JourneyClass {
  if (j.isCompleted && j.conversionEvents > 0) return "Converted";
  if (j.journeyScore > HIGH_INTENT_SCORE) return "High Intent";
  if (j.isCompleted) return "Abandoned";
  return "Active";
}

export const CLASS_TONE: Record<JourneyClass, "green" | "indigo" | "red" | "blue"> = {
  Converted: "green",
  "High Intent": "indigo",
  Abandoned: "red",
  Active: "blue",
};

/** Spec §9: seconds under a minute, minutes and seconds under an hour, else hours and minutes. */
export function formatJourneyDuration(seconds: number): string {
  const s = Math.max(0, Math.round(Number.isFinite(seconds) ? seconds : 0));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m ${s % 60}s`;
  return `${Math.floor(s / 3600)}h ${Math.floor((s % 3600) / 60)}m`;
}

export interface FlowData {
  nodes: { name: string }[];
  links: { source: number; target: number; value: number }[];
}

/**
 * Sankey nodes and links of the most common paths: a node is a page at a depth ("2. /pricing"), so the
 * chart stays acyclic when a path returns to a page; a link carries the visits of the paths through it.
 */
export function flowData(paths: readonly JourneyPath[]): FlowData {
  const index = new Map<string, number>();
  const nodes: { name: string }[] = [];
  const links = new Map<string, { source: number; target: number; value: number }>();
  const node = (depth: number, page: string) => {
    const key = `${depth + 1}. ${page}`;
    let i = index.get(key);
    if (i === undefined) {
      i = nodes.length;
      nodes.push({ name: key });
      index.set(key, i);
    }
    return i;
  };
  for (const path of paths) {
    for (let d = 0; d + 1 < path.pages.length; d++) {
      const source = node(d, path.pages[d] as string);
      const target = node(d + 1, path.pages[d + 1] as string);
      const key = `${source}>${target}`;
      const link = links.get(key) ?? { source, target, value: 0 };
      link.value += path.sessions;
      links.set(key, link);
    }
  }
  return { nodes, links: [...links.values()] };
}
