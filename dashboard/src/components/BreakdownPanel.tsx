//! One breakdown widget for any dimension, drawn from a config record: a new "visits by X" card is a record in
//! BREAKDOWNS and one <BreakdownPanel> where it should appear (the server answers every dimension at
//! /api/websites/{id}/breakdown/{dimension}). Its figures follow the screen's filters, and a click on a row
//! filters the screen by that row's value.
import type { ReactNode } from "react";
import type { Breakdown, BreakdownDimension } from "../api/types";
import { useBreakdown } from "../hooks/analytics";
import { useFilters } from "../hooks/filters";
import { type Condition, describeFilter, dimensionOfBreakdown, filterValue } from "../lib/filters";
import { countryFlag, countryName, formatNumber, referrerLabel, relativeWidth } from "../lib/format";
import { RefusedText, refusedFilters } from "./filters/Refused";
import { EmptyText, QueryState } from "./page/QueryState";
import { Card, CardBody, CardHeader, cx } from "./ui/primitives";

/** What a breakdown card shows and how it labels a value. */
export interface BreakdownCard {
  dimension: BreakdownDimension;
  title: string;
  description: string;
  empty: string;
  /** Rows shown, most first. */
  limit: number;
  testId: string;
  label: (value: string) => ReactNode;
  icon?: (value: string) => ReactNode;
}

const orUnknown = (value: string) => value || "Unknown";
const orNone = (value: string) => value || "(none)";

function card(dimension: string, title: string, description: string, label: (v: string) => ReactNode, limit = 8): BreakdownCard {
  return { dimension, title, description, empty: "No data available", limit, testId: dimension.replace(/_/g, "-"), label };
}

export const BREAKDOWNS = {
  referrers: {
    dimension: "referrer",
    title: "Top Referrers",
    description: "Where your visitors come from",
    empty: "No referrer data available",
    limit: 5,
    testId: "referrers",
    label: referrerLabel,
  },
  countries: {
    dimension: "country",
    title: "Visitor Countries",
    description: "Visits by country",
    empty: "No country data available",
    limit: 8,
    testId: "countries",
    label: countryName,
    icon: (value) => <span>{countryFlag(value)}</span>,
  },
  devices: card("device", "Devices", "Visits by device", orUnknown),
  browsers: card("browser", "Browsers", "Visits by browser", orUnknown),
  os: card("os", "Operating Systems", "Visits by operating system", orUnknown),
  entryPages: card("entry_page", "Entry Pages", "Where visits start", orNone),
  exitPages: card("exit_page", "Exit Pages", "Where visits end", orNone),
  utmMedium: card("utm_medium", "UTM Medium", "Visits by utm_medium", orNone),
  utmCampaign: card("utm_campaign", "UTM Campaign", "Visits by utm_campaign", orNone),
} satisfies Record<string, BreakdownCard>;

/** `period` is the screen's period as query text (hooks/period.ts). */
export function BreakdownPanel({ websiteId, card, period }: { websiteId: number; card: BreakdownCard; period: string }) {
  const { text, active, add } = useFilters();
  const query = useBreakdown(websiteId, card.dimension, period, card.limit, text);
  const dimension = dimensionOfBreakdown(card.dimension);
  const rows = (data: Breakdown) => {
    const max = Math.max(0, ...data.rows.map((r) => r.count));
    return (
      <ul className="space-y-2" data-testid={card.testId}>
        {data.rows.map((r) => (
          <BarRow
            key={r.value || "unknown"}
            icon={card.icon?.(r.value)}
            label={card.label(r.value)}
            value={r.count}
            max={max}
            filter={{ operator: "is", dimension, values: [filterValue(dimension, r.value)] }}
            onFilter={add}
          />
        ))}
      </ul>
    );
  };
  return (
    <Card>
      <CardHeader title={card.title} description={card.description} />
      <CardBody>
        {refusedFilters(active, query.error) ? (
          <RefusedText />
        ) : (
          <QueryState query={query} isEmpty={(d) => d.rows.length === 0} empty={<EmptyText>{card.empty}</EmptyText>}>
            {rows}
          </QueryState>
        )}
      </CardBody>
    </Card>
  );
}

/** A row of a panel: a bar as wide as its share of the top row. With `filter`, the row is a button adding that
 * condition to the screen's filters. */
export function BarRow({
  label,
  value,
  max,
  icon,
  title,
  tone = "bg-sky-500/10",
  filter,
  onFilter,
}: {
  label: ReactNode;
  value: number;
  max: number;
  icon?: ReactNode;
  title?: string;
  tone?: string;
  filter?: Condition;
  onFilter?: (c: Condition) => void;
}) {
  const content = (
    <>
      <span className="flex min-w-0 items-center gap-2 truncate text-gray-200" title={title}>
        {icon}
        {label}
      </span>
      <span className="shrink-0 font-medium tabular-nums text-white">{formatNumber(value)}</span>
    </>
  );
  const rowClass = "relative flex w-full items-center justify-between gap-4 px-3 py-2 text-sm";
  return (
    <li className="relative overflow-hidden rounded-lg">
      <div className={cx("absolute inset-y-0 left-0 rounded-lg", tone)} style={{ width: `${relativeWidth(value, max)}%` }} />
      {filter && onFilter ? (
        <button
          type="button"
          onClick={() => onFilter(filter)}
          aria-label={`Filter by ${describeFilter([filter.operator, filter.dimension, filter.values])}`}
          data-testid="filter-row"
          className={cx(
            rowClass,
            "cursor-pointer rounded-lg text-left transition-colors hover:bg-white/5 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-400",
          )}
        >
          {content}
        </button>
      ) : (
        <div className={rowClass}>{content}</div>
      )}
    </li>
  );
}
