//! The quiet line of a panel whose read does not take filters yet, on a filtered screen: its figures are the
//! whole site's, and it says so rather than passing for the slice. A span, so it fits in a card's description.
import { useFilters } from "../../hooks/filters";

export function NotFiltered() {
  const { active } = useFilters();
  if (!active) return null;
  return (
    <span className="mt-0.5 block text-xs text-gray-500" data-testid="not-filtered" title="This panel shows the whole site: its read does not take filters yet">
      Not filtered
    </span>
  );
}
