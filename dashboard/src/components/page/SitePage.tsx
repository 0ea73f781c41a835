//! The layout of a site-scoped screen: title, website selector and (optionally) a time-range selector, both
//! kept in the URL (?website=, ?range=), then the website list's loading / error / no-website states, then
//! the screen's body for the chosen website. A new screen is `<SitePage title=... ranges=...>{(ctx) => ...}`.
import type { ReactNode } from "react";
import type { Website } from "../../api/types";
import { useParamState, useSelectedWebsite } from "../../hooks/selection";
import { useWebsites } from "../../hooks/websites";
import { NoWebsites } from "../NoWebsites";
import { WebsitePicker } from "../WebsitePicker";
import { ErrorNote, FullPageSpinner, PageHeader, Select } from "../ui/primitives";

export interface RangeOption<R extends string> {
  value: R;
  label: string;
}

export interface Ranges<R extends string> {
  options: readonly RangeOption<R>[];
  fallback: R;
  /** The query parameter holding the range (default "range"). */
  param?: string;
  /** The selector's accessible name (default "Time range"). */
  label?: string;
  /** Where the selector shows: the page header (default) or wherever the body puts `ctx.rangeSelect`. */
  placement?: "header" | "body";
}

export interface SiteContext<R extends string> {
  website: Website;
  websites: Website[];
  range: R;
  setRange: (r: R) => void;
  /** The range selector, for a body that places it itself (`placement: "body"`). */
  rangeSelect: ReactNode;
}

export function RangeSelect<R extends string>({
  options,
  value,
  onChange,
  label = "Time range",
  className = "w-44",
}: {
  options: readonly RangeOption<R>[];
  value: R;
  onChange: (r: R) => void;
  label?: string;
  className?: string;
}) {
  return (
    <Select aria-label={label} className={className} value={value} onChange={(e) => onChange(e.target.value as R)}>
      {options.map((o) => (
        <option key={o.value} value={o.value}>
          {o.label}
        </option>
      ))}
    </Select>
  );
}

const NO_RANGES: readonly string[] = [];

export function SitePage<R extends string = string>({
  title,
  description,
  ranges,
  actions,
  loading = <FullPageSpinner />,
  noWebsites = <NoWebsites />,
  children,
}: {
  title: string;
  description?: string;
  ranges?: Ranges<R>;
  /** Header buttons after the selectors, shown once a website is chosen. */
  actions?: (ctx: SiteContext<R>) => ReactNode;
  /** What shows while the website list loads (a spinner unless the screen has its own skeleton). */
  loading?: ReactNode;
  /** What shows when the user has no website (default: "No Websites Found"). */
  noWebsites?: ReactNode;
  children: (ctx: SiteContext<R>) => ReactNode;
}) {
  const websites = useWebsites();
  const { selected, select } = useSelectedWebsite(websites.data);
  const allowed = ranges ? ranges.options.map((o) => o.value) : (NO_RANGES as readonly R[]);
  const [range, setRange] = useParamState<R>(ranges?.param ?? "range", allowed, ranges?.fallback ?? ("" as R));

  const rangeSelect = ranges ? <RangeSelect options={ranges.options} value={range} onChange={setRange} label={ranges.label} /> : null;
  const ctx: SiteContext<R> | undefined =
    websites.data && selected ? { website: selected, websites: websites.data, range, setRange, rangeSelect } : undefined;

  return (
    <>
      <PageHeader
        title={title}
        description={description}
        actions={
          ctx ? (
            <>
              <WebsitePicker websites={ctx.websites} value={ctx.website.id} onChange={select} />
              {ranges?.placement !== "body" && rangeSelect}
              {actions?.(ctx)}
            </>
          ) : undefined
        }
      />
      {websites.isPending ? (
        loading
      ) : websites.error ? (
        <ErrorNote error={websites.error} onRetry={() => void websites.refetch()} />
      ) : !ctx ? (
        noWebsites
      ) : (
        children(ctx)
      )}
    </>
  );
}
