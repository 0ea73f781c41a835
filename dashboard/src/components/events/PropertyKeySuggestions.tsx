//! The property keys to pick from where a property is named (the Event Properties card, the filter menu's
//! "Property" entry): the keys the events in view carry (GET /api/websites/{id}/events/property-keys), most
//! carried first, each a button that names it. A key can still be typed; this only saves guessing.
import { usePropertyKeys } from "../../hooks/events";
import { formatNumber } from "../../lib/format";
import { cx } from "../ui/primitives";

/** `filters` is the read's `filters=` text (the Event Properties card adds its event); `picked` is highlighted. */
export function PropertyKeySuggestions({
  websiteId,
  period,
  filters,
  picked,
  onPick,
  enabled = true,
}: {
  websiteId: number;
  period: string;
  filters: string | null;
  picked: string;
  onPick: (key: string) => void;
  enabled?: boolean;
}) {
  const query = usePropertyKeys(websiteId, period, filters, enabled);
  const found = query.data?.keys ?? [];
  if (!enabled || query.isPending) return null;
  if (query.error) return <p className="text-xs text-gray-500">Property names could not be read; type one.</p>;
  if (found.length === 0) return <p className="text-xs text-gray-500">No properties seen in this period</p>;
  return (
    <div className="flex flex-wrap items-center gap-1.5" data-testid="property-key-suggestions">
      <span className="text-xs text-gray-500">Seen:</span>
      {found.map(({ key, events }) => (
        <button
          key={key}
          type="button"
          aria-pressed={key === picked}
          title={`${formatNumber(events)} events carried ${key}`}
          onClick={() => onPick(key)}
          className={cx(
            "max-w-full truncate rounded-md border px-2 py-0.5 text-xs transition-colors focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-400",
            key === picked ? "border-indigo-400 bg-indigo-500/20 text-white" : "border-gray-700 text-gray-200 hover:bg-gray-800",
          )}
        >
          {key} <span className="tabular-nums text-gray-400">{formatNumber(events)}</span>
        </button>
      ))}
    </div>
  );
}
