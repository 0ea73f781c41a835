//! Overview dashboard (/): picker, the filter bar with the range picker, four metric cards with real change captions, Top Pages, Live
//! Visitors, Traffic Overview (real series, the range's annotations marked and listed), Top Referrers and Countries, Recent Activity. The cards, Top Pages,
//! the chart and the breakdowns follow the URL's filters (a row click adds one); Live Visitors and Recent
//! Activity say they do not. Without a period in the URL the cards read 30 days and the chart 7; a chosen period
//! is read by all.
import { lazy, Suspense, useState } from "react";
import type { TimeseriesPoint } from "../api/types";
import { useOverview, useRecentActivity, useTimeseries } from "../hooks/analytics";
import { useCompare } from "../hooks/compare";
import { useFilters } from "../hooks/filters";
import { usePeriod } from "../hooks/period";
import { changeCaption } from "../lib/change";
import { compareName } from "../lib/compare";
import { countOf, formatNumber } from "../lib/format";
import { atLeast } from "../lib/roles";
import { type Period, isOneDay, periodLabel, periodQuery } from "../lib/period";
import { BREAKDOWNS, BreakdownPanel } from "../components/BreakdownPanel";
import { LiveVisitorsCard } from "../components/LiveVisitorsCard";
import { MetricCard } from "../components/MetricCard";
import { RecentActivityCard } from "../components/RecentActivityCard";
import { ChartAnnotations } from "../components/annotations/ChartAnnotations";
import { FilterBar } from "../components/filters/FilterBar";
import { ComparePicker } from "../components/filters/ComparePicker";
import { RangePicker } from "../components/filters/RangePicker";
import { REFUSED_TEXT, RefusedText, refusedFilters } from "../components/filters/Refused";
import { ImportedNote } from "../components/imports/ImportedNote";
import { TopPagesCard } from "../components/TopPagesCard";
import { QueryState } from "../components/page/QueryState";
import { SitePage } from "../components/page/SitePage";
import type { SiteContext } from "../components/page/SitePage";
import { IconActivity, IconEye, IconTarget, IconUsers } from "../components/ui/icons";
import { Card, CardBody, CardHeader, ErrorNote, Skeleton } from "../components/ui/primitives";

const TrafficChart = lazy(() => import("../components/TrafficChart"));

const CARDS_DEFAULT: Period = { range: "30d" };
const CHART_DEFAULT: Period = { range: "7d" };

export default function OverviewPage() {
  return (
    <SitePage title="Dashboard" description="Website analytics overview">
      {(ctx) => <SiteOverview {...ctx} />}
    </SitePage>
  );
}

function SiteOverview({ website }: SiteContext<string>) {
  const filters = useFilters();
  const period = usePeriod(CARDS_DEFAULT);
  const chartPeriod = period.chosen ? period.period : CHART_DEFAULT;
  const hourly = isOneDay(chartPeriod);
  const compare = useCompare();
  const overview = useOverview(website.id, { period: period.query + compare.query, filters: filters.text });
  const series = useTimeseries(website.id, periodQuery(chartPeriod) + compare.query, filters.text);
  const activity = useRecentActivity(website.id, 10, filters.text);
  // The day the "Add annotation" dialog is open for (a chart click or the button), null when closed.
  const [annotating, setAnnotating] = useState<string | null>(null);
  const editable = atLeast(website.role, "editor");

  const m = overview.data?.metrics;
  const p = overview.data?.previous;
  // Under refused filters the figures are unknown, not zero.
  const refused = refusedFilters(filters.active, overview.error);
  const fig = (n: number | undefined) => (refused ? "—" : formatNumber(n));
  const cap = (cur: number | undefined, prev: number | undefined) =>
    refused ? { text: "—", trend: "flat" as const } : changeCaption(cur ?? 0, prev ?? 0, period.period, compareName(compare.compare));
  const visitors = cap(m?.totalVisitors, p?.totalVisitors);
  const views = cap(m?.pageViews, p?.pageViews);
  const conv = cap(m?.conversions, p?.conversions);
  const loading = overview.isPending;

  return (
    <>
      <div className="mb-6">
        <FilterBar websiteId={website.id} period={period.query} error={overview.error ?? series.error} extra={
            <div className="flex flex-wrap gap-2">
              <ComparePicker screen={compare} />
              <RangePicker screen={period} />
            </div>
          }
        />
      </div>
      {overview.error && !refused ? <div className="mb-6"><ErrorNote error={overview.error} onRetry={() => void overview.refetch()} /></div> : null}
      <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        <MetricCard title="Total Visitors" icon={<IconUsers />} loading={loading} value={fig(m?.totalVisitors)} caption={visitors.text} trend={visitors.trend} />
        <MetricCard title="Active Sessions" icon={<IconActivity />} loading={loading} value={fig(m?.activeSessions)} caption={filters.active ? "Live, right now · not filtered" : "Live, right now"} trend="live" />
        <MetricCard title="Page Views" icon={<IconEye />} loading={loading} value={fig(m?.pageViews)} caption={views.text} trend={views.trend} />
        <MetricCard title="Conversions" icon={<IconTarget />} loading={loading} value={fig(m?.conversions)} caption={conv.text} trend={conv.trend} />
      </div>
      <div className="mt-3">
        <ImportedNote overview={overview.data} />
      </div>

      <div className="mt-6 grid gap-6 lg:grid-cols-2">
        <TopPagesCard pages={overview.data?.topPages} loading={loading} onFilter={filters.add} emptyText={refused ? REFUSED_TEXT : undefined} />
        <LiveVisitorsCard websiteId={website.id} />
      </div>

      <Card className="mt-6" data-testid="chart-card">
        <CardHeader
          title="Traffic Overview"
          description={
            <>
              Visitors and page views per {hourly ? "hour" : "day"} · {periodLabel(chartPeriod)}
              {compare.compare ? ` · dashed: ${compareName(compare.compare) ?? "the period before"}` : ""}
              <ChartTotals points={series.data?.points} />
            </>
          }
        />
        <CardBody>
          {refusedFilters(filters.active, series.error) ? (
            <RefusedText />
          ) : (
            <QueryState query={series} skeleton={<Skeleton className="h-72 w-full" />}>
              {(data) => (
                <>
                  <Suspense fallback={<Skeleton className="h-72 w-full" />}>
                    <TrafficChart points={data.points} comparison={data.comparison} annotations={data.annotations} onPickDay={editable ? setAnnotating : undefined} />
                  </Suspense>
                  <ChartAnnotations websiteId={website.id} editable={editable} annotations={data.annotations} adding={annotating} onAdding={setAnnotating} />
                </>
              )}
            </QueryState>
          )}
        </CardBody>
      </Card>

      <div className="mt-6 grid gap-6 lg:grid-cols-2">
        <BreakdownPanel websiteId={website.id} card={BREAKDOWNS.referrers} period={period.query + compare.query} />
        <BreakdownPanel websiteId={website.id} card={BREAKDOWNS.countries} period={period.query + compare.query} />
      </div>

      <div className="mt-6">
        <RecentActivityCard query={activity} />
      </div>
    </>
  );
}

/** The chart's period in two figures, so the slice a filter shows can be read without hovering each day. */
function ChartTotals({ points }: { points: TimeseriesPoint[] | undefined }) {
  if (!points) return null;
  const visitors = points.reduce((n, p) => n + p.visitors, 0);
  const views = points.reduce((n, p) => n + p.pageViews, 0);
  return (
    <span className="block text-xs text-gray-500" data-testid="chart-totals">
      {countOf(visitors, "visitor")} · {countOf(views, "page view")} in this period
    </span>
  );
}
