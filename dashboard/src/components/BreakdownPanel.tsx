//! One breakdown widget for any rollup dimension, drawn from a config record: a new "visits by X" card is a
//! record in BREAKDOWNS and one <BreakdownPanel> where it should appear (the server already answers every
//! dimension at /api/websites/{id}/breakdown/{dimension}).
import type { ReactNode } from "react";
import type { BreakdownDimension } from "../api/types";
import { useBreakdown } from "../hooks/analytics";
import { countryFlag, countryName, formatNumber, referrerLabel, relativeWidth } from "../lib/format";
import { EmptyText, QueryState } from "./page/QueryState";
import { Card, CardBody, CardHeader } from "./ui/primitives";

/** What a breakdown card shows and how it labels a value. */
export interface BreakdownCard {
  dimension: BreakdownDimension;
  title: string;
  description: string;
  empty: string;
  /** Rows shown, most first. */
  limit: number;
  range: string;
  testId: string;
  label: (value: string) => ReactNode;
  icon?: (value: string) => ReactNode;
}

export const BREAKDOWNS = {
  referrers: {
    dimension: "referrer",
    title: "Top Referrers",
    description: "Where your visitors come from",
    empty: "No referrer data available",
    limit: 5,
    range: "30d",
    testId: "referrers",
    label: referrerLabel,
  },
  countries: {
    dimension: "country",
    title: "Visitor Countries",
    description: "Visits by country",
    empty: "No country data available",
    limit: 8,
    range: "30d",
    testId: "countries",
    label: countryName,
    icon: (value) => <span>{countryFlag(value)}</span>,
  },
} satisfies Record<string, BreakdownCard>;

export function BreakdownPanel({ websiteId, card }: { websiteId: number; card: BreakdownCard }) {
  const query = useBreakdown(websiteId, card.dimension, card.range, card.limit);
  return (
    <Card>
      <CardHeader title={card.title} description={card.description} />
      <CardBody>
        <QueryState query={query} isEmpty={(d) => d.rows.length === 0} empty={<EmptyText>{card.empty}</EmptyText>}>
          {(data) => {
            const max = Math.max(0, ...data.rows.map((r) => r.count));
            return (
              <ul className="space-y-2" data-testid={card.testId}>
                {data.rows.map((r) => (
                  <BarRow key={r.value || "unknown"} icon={card.icon?.(r.value)} label={card.label(r.value)} value={r.count} max={max} />
                ))}
              </ul>
            );
          }}
        </QueryState>
      </CardBody>
    </Card>
  );
}

export function BarRow({ label, value, max, icon }: { label: ReactNode; value: number; max: number; icon?: ReactNode }) {
  return (
    <li className="relative overflow-hidden rounded-lg">
      <div className="absolute inset-y-0 left-0 rounded-lg bg-sky-500/10" style={{ width: `${relativeWidth(value, max)}%` }} />
      <div className="relative flex items-center justify-between gap-4 px-3 py-2 text-sm">
        <span className="flex min-w-0 items-center gap-2 truncate text-gray-200">
          {icon}
          {label}
        </span>
        <span className="shrink-0 font-medium tabular-nums text-white">{formatNumber(value)}</span>
      </div>
    </li>
  );
}
