//! Lead score colouring of identified visitors: above 70 green, above 40 yellow, otherwise grey.

export type LeadScoreTone = "green" | "yellow" | "grey";

export function leadScoreTone(score: number): LeadScoreTone {
  if (score > 70) return "green";
  if (score > 40) return "yellow";
  return "grey";
}

const CLASSES: Record<LeadScoreTone, string> = {
  green: "bg-emerald-500/15 text-emerald-400 ring-emerald-500/30",
  yellow: "bg-amber-500/15 text-amber-300 ring-amber-500/30",
  grey: "bg-gray-500/15 text-gray-400 ring-gray-500/30",
};

/** Tailwind classes for a lead score badge. */
export function leadScoreClass(score: number): string {
  return CLASSES[leadScoreTone(score)];
}
