//! A panel's details: every row of its breakdown (up to the daemon's 1,000), searchable and sortable, each row
//! filtering the screen as in the panel, and the rows as a CSV file written here from what is shown.
import { useMemo, useState } from "react";
import type { BreakdownDimension } from "../api/types";
import { useBreakdown } from "../hooks/analytics";
import { useFilters } from "../hooks/filters";
import { csvText } from "../lib/csv";
import { dimensionOfBreakdown, filterValue } from "../lib/filters";
import { formatNumber } from "../lib/format";
import { RefusedText, refusedFilters } from "./filters/Refused";
import { EmptyText, QueryState, SkeletonRows } from "./page/QueryState";
import { Dialog } from "./ui/Dialog";
import { IconDownload } from "./ui/icons";
import { Button, Input, Select } from "./ui/primitives";

/** Most rows the details ask for (the daemon's limit). */
export const DETAILS_LIMIT = 1000;

type Order = "count-desc" | "count-asc" | "value";

export interface DetailsCard {
  dimension: BreakdownDimension;
  title: string;
  label: (value: string) => React.ReactNode;
  /** The text a row is searched and written to the CSV by (the label's text). */
  text: (value: string) => string;
}

export function BreakdownDetails({
  websiteId,
  card,
  period,
  open,
  onClose,
}: { websiteId: number; card: DetailsCard; period: string; open: boolean; onClose: () => void }) {
  const { text: filters, active, add } = useFilters();
  const query = useBreakdown(websiteId, card.dimension, period, DETAILS_LIMIT, filters, { enabled: open });
  const [search, setSearch] = useState("");
  const [order, setOrder] = useState<Order>("count-desc");
  const dimension = dimensionOfBreakdown(card.dimension);
  const measure = query.data?.measure ?? "visits";

  const shown = useMemo(() => {
    const needle = search.trim().toLowerCase();
    const rows = (query.data?.rows ?? []).filter((r) => needle === "" || card.text(r.value).toLowerCase().includes(needle));
    const sorted = [...rows];
    if (order === "count-asc") sorted.sort((a, b) => a.count - b.count || card.text(a.value).localeCompare(card.text(b.value)));
    if (order === "value") sorted.sort((a, b) => card.text(a.value).localeCompare(card.text(b.value)));
    return sorted;
  }, [query.data, search, order, card]);

  function download() {
    const lines = [[card.title, measure], ...shown.map((r) => [card.text(r.value), String(r.count)])];
    const blob = new Blob([csvText(lines)], { type: "text/csv;charset=utf-8" });
    const url = URL.createObjectURL(blob);
    const a = document.createElement("a");
    a.href = url;
    a.download = `${card.dimension.replace(/[^a-z0-9_-]/gi, "-")}.csv`;
    document.body.appendChild(a);
    a.click();
    a.remove();
    URL.revokeObjectURL(url);
  }

  const truncated = (query.data?.rows.length ?? 0) >= DETAILS_LIMIT;
  return (
    <Dialog
      open={open}
      onClose={onClose}
      size="lg"
      title={card.title}
      description={`Every ${card.title.toLowerCase()} row of this period, by ${measure}${truncated ? ` (the first ${formatNumber(DETAILS_LIMIT)})` : ""}`}
      footer={
        <Button variant="outline" onClick={download} disabled={shown.length === 0}>
          <IconDownload /> Download CSV
        </Button>
      }
    >
      <div className="space-y-3" data-testid="breakdown-details">
        <div className="flex flex-col gap-2 sm:flex-row">
          <Input
            type="search"
            placeholder="Search"
            aria-label={`Search ${card.title}`}
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            className="sm:flex-1"
          />
          <Select aria-label="Sort rows" value={order} onChange={(e) => setOrder(e.target.value as Order)} className="sm:w-48">
            <option value="count-desc">Most {measure} first</option>
            <option value="count-asc">Fewest {measure} first</option>
            <option value="value">By name</option>
          </Select>
        </div>
        {refusedFilters(active, query.error) ? (
          <RefusedText />
        ) : (
          <QueryState query={query} skeleton={<SkeletonRows rows={6} />} isEmpty={() => shown.length === 0} empty={<EmptyText>{search.trim() ? "No row matches the search" : "No data available"}</EmptyText>}>
            {() => (
              <ul className="max-h-[55vh] divide-y divide-gray-800 overflow-y-auto" data-testid="details-rows">
                {shown.map((r) => (
                  <li key={r.value || "unknown"}>
                    <button
                      type="button"
                      className="flex w-full items-center justify-between gap-4 px-2 py-2 text-left text-sm hover:bg-white/5 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-400"
                      onClick={() => {
                        add({ operator: "is", dimension, values: [filterValue(dimension, r.value)] });
                        onClose();
                      }}
                    >
                      <span className="min-w-0 truncate text-gray-200">{card.label(r.value)}</span>
                      <span className="shrink-0 font-medium tabular-nums text-white">{formatNumber(r.count)}</span>
                    </button>
                  </li>
                ))}
              </ul>
            )}
          </QueryState>
        )}
      </div>
    </Dialog>
  );
}
