//! One breakdown widget for any dimension, drawn from a config record: a new "visits by X" card is a record in
//! BREAKDOWNS and one <BreakdownPanel> where it should appear (the server answers every dimension at
//! /api/websites/{id}/breakdown/{dimension}); several records make one panel with tabs (Countries, Regions,
//! Cities). Its figures follow the screen's filters, a click on a row filters the screen by that row's value,
//! and Details opens every row with search, sort and CSV (BreakdownDetails).
import { type ReactNode, useState } from "react";
import type { Breakdown, BreakdownDimension } from "../api/types";
import { useBreakdown } from "../hooks/analytics";
import { useFilters } from "../hooks/filters";
import { type Condition, asCondition, describeFilter, dimensionLabel, dimensionOfBreakdown, filterValue } from "../lib/filters";
import { rowChange } from "../lib/compare";
import { countryFlag, countryName, formatNumber, referrerLabel, relativeWidth } from "../lib/format";
import { BreakdownDetails } from "./BreakdownDetails";
import { RefusedText, refusedFilters } from "./filters/Refused";
import { EmptyText, QueryState } from "./page/QueryState";
import { Button, Card, CardBody, CardHeader, cx } from "./ui/primitives";

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
  /** A row's value as text (search and CSV); the value itself, `(none)` when empty, by default. */
  text?: (value: string) => string;
  icon?: (value: string) => ReactNode;
  /** A filter dimension the rows only mean something under (a browser's versions): without a filter on it the
   * card asks for one instead of reading. */
  needs?: string;
  /** The tab's name when the card is one of a panel's tabs (its title otherwise). */
  tab?: string;
}

const orUnknown = (value: string) => value || "Unknown";
const orNone = (value: string) => value || "(none)";

function card(dimension: string, title: string, description: string, label: (v: string) => ReactNode, extra: Partial<BreakdownCard> = {}): BreakdownCard {
  return { dimension, title, description, empty: "No data available", limit: 8, testId: dimension.replace(/_/g, "-"), label, ...extra };
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
    text: referrerLabel,
  },
  countries: {
    dimension: "country",
    title: "Visitor Countries",
    description: "Visits by country",
    empty: "No country data available",
    limit: 8,
    testId: "countries",
    label: countryName,
    text: countryName,
    icon: (value) => <span>{countryFlag(value)}</span>,
    tab: "Countries",
  },
  regions: card("region", "Regions", "Visits by region", orUnknown, { text: orUnknown }),
  cities: card("city", "Cities", "Visits by city", orUnknown, { text: orUnknown }),
  devices: card("device", "Devices", "Visits by device", orUnknown, { text: orUnknown }),
  screens: card("screen", "Screen Sizes", "Visits by screen size", orUnknown, { text: orUnknown, tab: "Screens" }),
  browsers: card("browser", "Browsers", "Visits by browser", orUnknown, { text: orUnknown }),
  browserVersions: card("browser_version", "Browser Versions", "Visits by major version of the chosen browser", orUnknown, {
    text: orUnknown,
    needs: "visit:browser",
    tab: "Versions",
  }),
  os: card("os", "Operating Systems", "Visits by operating system", orUnknown, { text: orUnknown, tab: "Systems" }),
  osVersions: card("os_version", "OS Versions", "Visits by version of the chosen system", orUnknown, {
    text: orUnknown,
    needs: "visit:os",
    tab: "Versions",
  }),
  entryPages: card("entry_page", "Entry Pages", "Where visits start", orNone),
  exitPages: card("exit_page", "Exit Pages", "Where visits end", orNone),
  utmSource: card("utm_source", "UTM Source", "Visits by utm_source", orNone, { tab: "Source" }),
  utmMedium: card("utm_medium", "UTM Medium", "Visits by utm_medium", orNone, { tab: "Medium" }),
  utmCampaign: card("utm_campaign", "UTM Campaign", "Visits by utm_campaign", orNone, { tab: "Campaign" }),
  utmContent: card("utm_content", "UTM Content", "Visits by utm_content", orNone, { tab: "Content" }),
  utmTerm: card("utm_term", "UTM Term", "Visits by utm_term", orNone, { tab: "Term" }),
} satisfies Record<string, BreakdownCard>;

/** `period` is the screen's period as query text (hooks/period.ts); `tabs` makes one panel of several cards,
 * the first shown first. */
export function BreakdownPanel({ websiteId, card, tabs, period }: { websiteId: number; card?: BreakdownCard; tabs?: BreakdownCard[]; period: string }) {
  const cards = tabs ?? (card ? [card] : []);
  const [index, setIndex] = useState(0);
  const [details, setDetails] = useState(false);
  const current = cards[Math.min(index, cards.length - 1)];
  const { filters, text, active, add } = useFilters();
  const waiting = current.needs !== undefined && !filters.some((f) => asCondition(f)?.dimension === current.needs);
  const query = useBreakdown(websiteId, current.dimension, period, current.limit, text, { enabled: !waiting });
  const dimension = dimensionOfBreakdown(current.dimension);
  const textOf = current.text ?? orNone;
  const rows = (data: Breakdown) => {
    const max = Math.max(0, ...data.rows.map((r) => r.count));
    return (
      <ul className="space-y-2" data-testid={current.testId}>
        {data.rows.map((r) => (
          <BarRow
            key={r.value || "unknown"}
            icon={current.icon?.(r.value)}
            label={current.label(r.value)}
            value={r.count}
            max={max}
            filter={{ operator: "is", dimension, values: [filterValue(dimension, r.value)] }}
            onFilter={add}
            change={rowChange(r.count, r.previous)}
          />
        ))}
      </ul>
    );
  };
  const full = !waiting && (query.data?.rows.length ?? 0) > 0;
  return (
    <Card data-testid={`panel-${cards[0].testId}`}>
      <CardHeader
        title={current.title}
        description={current.description}
        action={
          full ? (
            <Button variant="ghost" size="sm" onClick={() => setDetails(true)} aria-label={`Details of ${current.title}`}>
              Details
            </Button>
          ) : undefined
        }
      />
      <CardBody>
        {cards.length > 1 ? (
          <fieldset className="-mt-1 mb-3 flex flex-wrap gap-1" aria-label={`${cards[0].title} views`}>
            {cards.map((c, i) => (
              <button
                key={c.dimension}
                type="button"
                aria-pressed={c === current}
                onClick={() => setIndex(i)}
                className={cx(
                  "rounded-md px-2.5 py-1 text-xs font-medium transition-colors focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-400",
                  c === current ? "bg-gray-800 text-white" : "text-gray-400 hover:bg-gray-800/60 hover:text-gray-200",
                )}
              >
                {c.tab ?? c.title}
              </button>
            ))}
          </fieldset>
        ) : null}
        {waiting ? (
          <EmptyText>Filter by a {dimensionLabel(current.needs ?? "").toLowerCase()} to see its versions: click one in its tab.</EmptyText>
        ) : refusedFilters(active, query.error) ? (
          <RefusedText />
        ) : (
          <QueryState query={query} isEmpty={(d) => d.rows.length === 0} empty={<EmptyText>{current.empty}</EmptyText>}>
            {rows}
          </QueryState>
        )}
      </CardBody>
      {details ? (
        <BreakdownDetails
          websiteId={websiteId}
          card={{ dimension: current.dimension, title: current.title, label: current.label, text: textOf }}
          period={period}
          open={details}
          onClose={() => setDetails(false)}
        />
      ) : null}
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
  change,
}: {
  label: ReactNode;
  value: number;
  max: number;
  icon?: ReactNode;
  title?: string;
  tone?: string;
  filter?: Condition;
  onFilter?: (c: Condition) => void;
  /** The change against the compared period, when the screen compares. */
  change?: { text: string; trend: "up" | "down" | "flat" } | null;
}) {
  const content = (
    <>
      <span className="flex min-w-0 items-center gap-2 truncate text-gray-200" title={title}>
        {icon}
        {label}
      </span>
      <span className="flex shrink-0 items-baseline gap-2">
        {change ? (
          <span
            data-testid="row-change"
            className={cx("text-xs tabular-nums", change.trend === "up" ? "text-emerald-400" : change.trend === "down" ? "text-rose-400" : "text-gray-500")}
          >
            {change.text}
          </span>
        ) : null}
        <span className="font-medium tabular-nums text-white">{formatNumber(value)}</span>
      </span>
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
