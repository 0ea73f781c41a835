//! Revenue (the Analytics Dashboard's Conversions tab): the values conversions carried, summed per currency by
//! source or by goal (GET /api/websites/{id}/revenue/{dimension}), under the screen's period and filters. A row
//! adds its source or goal to the filters, as the breakdown panels' rows do.
import { useState } from "react";
import type { RevenueRow } from "../api/types";
import { useRevenue } from "../hooks/analytics";
import { useFilters } from "../hooks/filters";
import { describeFilter, filterValue } from "../lib/filters";
import { countOf, formatValue, referrerLabel, relativeWidth } from "../lib/format";
import { RefusedText, refusedFilters } from "./filters/Refused";
import { EmptyText, QueryState } from "./page/QueryState";
import { Card, CardBody, CardHeader, cx } from "./ui/primitives";

const VIEWS = [
  { dimension: "source", filter: "visit:source", tab: "By source", label: referrerLabel },
  { dimension: "goal", filter: "event:goal", tab: "By goal", label: (v: string) => v },
] as const;

export function RevenuePanel({ websiteId, period }: { websiteId: number; period: string }) {
  const [index, setIndex] = useState(0);
  const view = VIEWS[index];
  const { text, active, add } = useFilters();
  const revenue = useRevenue(websiteId, view.dimension, period, text);
  // Bars compare sums of one currency only.
  const most = (rows: RevenueRow[], currency: string) => Math.max(0, ...rows.filter((r) => r.currency === currency).map((r) => r.amount));
  return (
    <Card data-testid="panel-revenue">
      <CardHeader title="Revenue" description="Values of conversions, per currency" />
      <CardBody>
        <fieldset className="-mt-1 mb-3 flex flex-wrap gap-1" aria-label="Revenue views">
          {VIEWS.map((v, i) => (
            <button
              key={v.dimension}
              type="button"
              aria-pressed={i === index}
              onClick={() => setIndex(i)}
              className={cx(
                "rounded-md px-2.5 py-1 text-xs font-medium transition-colors focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-400",
                i === index ? "bg-gray-800 text-white" : "text-gray-400 hover:bg-gray-800/60 hover:text-gray-200",
              )}
            >
              {v.tab}
            </button>
          ))}
        </fieldset>
        {refusedFilters(active, revenue.error) ? (
          <RefusedText />
        ) : (
          <QueryState
            query={revenue}
            isEmpty={(d) => d.rows.length === 0}
            empty={<EmptyText>No conversions with a value in this period</EmptyText>}
          >
            {(data) => (
              <ul className="space-y-2" data-testid="revenue-rows">
                {data.rows.map((r) => {
                  const values = [filterValue(view.filter, r.value)];
                  return (
                    <li key={`${r.value}/${r.currency}`} className="relative overflow-hidden rounded-lg" data-testid="revenue-row">
                      <div className="absolute inset-y-0 left-0 rounded-lg bg-emerald-500/10" style={{ width: `${relativeWidth(r.amount, most(data.rows, r.currency))}%` }} />
                      <button
                        type="button"
                        onClick={() => add({ operator: "is", dimension: view.filter, values })}
                        aria-label={`Filter by ${describeFilter(["is", view.filter, values])}`}
                        className="relative flex w-full items-center justify-between gap-4 rounded-lg px-3 py-2 text-left text-sm transition-colors hover:bg-white/5 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-400"
                      >
                        <span className="min-w-0 truncate text-gray-200">{view.label(r.value)}</span>
                        <span className="flex shrink-0 items-baseline gap-2">
                          <span className="text-xs text-gray-500">{countOf(r.conversions, "conversion")}</span>
                          <span className="font-medium tabular-nums text-white" data-testid="revenue-amount">
                            {formatValue(r.amount, r.currency || undefined)}
                          </span>
                        </span>
                      </button>
                    </li>
                  );
                })}
              </ul>
            )}
          </QueryState>
        )}
      </CardBody>
    </Card>
  );
}
