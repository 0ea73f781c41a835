//! A one-line note under a dashboard's figures when they include imported history (the overview's
//! `imported` marker), so that nobody mistakes another tool's counts for tracked ones.
import type { Overview } from "../../api/types";
import { importedNote } from "../../lib/imported";

export function ImportedNote({ overview }: { overview: Overview | undefined }) {
  const text = importedNote(overview?.imported);
  if (!text) return null;
  return (
    <p data-testid="imported-note" className="flex items-start gap-2 text-sm text-gray-400">
      <span aria-hidden className="mt-1.5 h-2 w-2 shrink-0 rounded-full bg-amber-400/80" />
      <span className="min-w-0 break-words">{text}</span>
    </p>
  );
}
