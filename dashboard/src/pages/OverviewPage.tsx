//! Overview dashboard (/): picker, four metric cards with real change captions, Top Pages, Live Visitors,
//! Traffic Overview (real series), Recent Activity.
import { lazy, Suspense } from "react";
import type { TimeseriesRange } from "../api/types";
import { useOverview, useRecentActivity, useTimeseries } from "../hooks/analytics";
import { useParamState, useSelectedWebsite } from "../hooks/selection";
import { useWebsites } from "../hooks/websites";
import { changeCaption } from "../lib/change";
import { formatNumber } from "../lib/format";
import { LiveVisitorsCard } from "../components/LiveVisitorsCard";
import { MetricCard } from "../components/MetricCard";
import { NoWebsites } from "../components/NoWebsites";
import { RecentActivityCard } from "../components/RecentActivityCard";
import { TopPagesCard } from "../components/TopPagesCard";
import { WebsitePicker } from "../components/WebsitePicker";
import { IconActivity, IconEye, IconTarget, IconUsers } from "../components/ui/icons";
import { Card, CardBody, CardHeader, ErrorNote, FullPageSpinner, PageHeader, Select, Skeleton } from "../components/ui/primitives";

const TrafficChart = lazy(() => import("../components/TrafficChart"));

const METRICS_RANGE = "30d";
const RANGES = ["7d", "30d", "90d"] as const;
const RANGE_LABELS: Record<TimeseriesRange, string> = { "7d": "Last 7 days", "30d": "Last 30 days", "90d": "Last 3 months" };

export default function OverviewPage() {
  const websites = useWebsites();
  const { selected, select } = useSelectedWebsite(websites.data);
  const [range, setRange] = useParamState<TimeseriesRange>("range", RANGES, "7d");
  const overview = useOverview(selected?.id, { range: METRICS_RANGE });
  const series = useTimeseries(selected?.id, range);
  const activity = useRecentActivity(selected?.id, 10);

  const header = (
    <PageHeader
      title="Dashboard"
      description="Website analytics overview"
      actions={websites.data && websites.data.length > 0 ? <WebsitePicker websites={websites.data} value={selected?.id} onChange={select} /> : undefined}
    />
  );

  if (websites.isPending) return (<>{header}<FullPageSpinner /></>);
  if (websites.error) return (<>{header}<ErrorNote error={websites.error} /></>);
  if (!websites.data.length) return (<>{header}<NoWebsites /></>);

  const m = overview.data?.metrics;
  const p = overview.data?.previous;
  const cap = (cur: number | undefined, prev: number | undefined) => changeCaption(cur ?? 0, prev ?? 0, METRICS_RANGE);
  const visitors = cap(m?.totalVisitors, p?.totalVisitors);
  const views = cap(m?.pageViews, p?.pageViews);
  const conv = cap(m?.conversions, p?.conversions);
  const loading = overview.isPending;

  return (
    <>
      {header}
      {overview.error ? <div className="mb-6"><ErrorNote error={overview.error} /></div> : null}
      <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        <MetricCard title="Total Visitors" icon={<IconUsers />} loading={loading} value={formatNumber(m?.totalVisitors)} caption={visitors.text} trend={visitors.trend} />
        <MetricCard title="Active Sessions" icon={<IconActivity />} loading={loading} value={formatNumber(m?.activeSessions)} caption="Live, right now" trend="live" />
        <MetricCard title="Page Views" icon={<IconEye />} loading={loading} value={formatNumber(m?.pageViews)} caption={views.text} trend={views.trend} />
        <MetricCard title="Conversions" icon={<IconTarget />} loading={loading} value={formatNumber(m?.conversions)} caption={conv.text} trend={conv.trend} />
      </div>

      <div className="mt-6 grid gap-6 lg:grid-cols-2">
        <TopPagesCard pages={overview.data?.topPages} loading={loading} />
        <LiveVisitorsCard websiteId={selected?.id} />
      </div>

      <Card className="mt-6">
        <CardHeader
          title="Traffic Overview"
          description="Visitors and page views per day"
          action={
            <Select aria-label="Traffic range" className="w-44" value={range} onChange={(e) => setRange(e.target.value as TimeseriesRange)}>
              {RANGES.map((r) => (
                <option key={r} value={r}>
                  {RANGE_LABELS[r]}
                </option>
              ))}
            </Select>
          }
        />
        <CardBody>
          {series.error ? (
            <ErrorNote error={series.error} />
          ) : series.isPending ? (
            <Skeleton className="h-72 w-full" />
          ) : (
            <Suspense fallback={<Skeleton className="h-72 w-full" />}>
              <TrafficChart points={series.data.points} />
            </Suspense>
          )}
        </CardBody>
      </Card>

      <div className="mt-6">
        <RecentActivityCard events={activity.data} loading={activity.isPending} error={activity.error} />
      </div>
    </>
  );
}
