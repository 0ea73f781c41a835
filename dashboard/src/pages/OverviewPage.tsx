//! Overview dashboard (/): picker, four metric cards with real change captions, Top Pages, Live Visitors,
//! Traffic Overview (real series), Recent Activity.
import { lazy, Suspense } from "react";
import type { TimeseriesRange } from "../api/types";
import { useOverview, useRecentActivity, useTimeseries } from "../hooks/analytics";
import { changeCaption } from "../lib/change";
import { formatNumber } from "../lib/format";
import { LiveVisitorsCard } from "../components/LiveVisitorsCard";
import { MetricCard } from "../components/MetricCard";
import { RecentActivityCard } from "../components/RecentActivityCard";
import { ImportedNote } from "../components/imports/ImportedNote";
import { TopPagesCard } from "../components/TopPagesCard";
import { QueryState } from "../components/page/QueryState";
import { SitePage } from "../components/page/SitePage";
import type { Ranges, SiteContext } from "../components/page/SitePage";
import { IconActivity, IconEye, IconTarget, IconUsers } from "../components/ui/icons";
import { Card, CardBody, CardHeader, ErrorNote, Skeleton } from "../components/ui/primitives";

const TrafficChart = lazy(() => import("../components/TrafficChart"));

const METRICS_RANGE = "30d";
const RANGES: Ranges<TimeseriesRange> = {
  options: [
    { value: "7d", label: "Last 7 days" },
    { value: "30d", label: "Last 30 days" },
    { value: "90d", label: "Last 3 months" },
  ],
  fallback: "7d",
  label: "Traffic range",
  placement: "body",
};

export default function OverviewPage() {
  return (
    <SitePage title="Dashboard" description="Website analytics overview" ranges={RANGES}>
      {(ctx) => <SiteOverview {...ctx} />}
    </SitePage>
  );
}

function SiteOverview({ website, range, rangeSelect }: SiteContext<TimeseriesRange>) {
  const overview = useOverview(website.id, { range: METRICS_RANGE });
  const series = useTimeseries(website.id, range);
  const activity = useRecentActivity(website.id, 10);

  const m = overview.data?.metrics;
  const p = overview.data?.previous;
  const cap = (cur: number | undefined, prev: number | undefined) => changeCaption(cur ?? 0, prev ?? 0, METRICS_RANGE);
  const visitors = cap(m?.totalVisitors, p?.totalVisitors);
  const views = cap(m?.pageViews, p?.pageViews);
  const conv = cap(m?.conversions, p?.conversions);
  const loading = overview.isPending;

  return (
    <>
      {overview.error ? <div className="mb-6"><ErrorNote error={overview.error} onRetry={() => void overview.refetch()} /></div> : null}
      <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        <MetricCard title="Total Visitors" icon={<IconUsers />} loading={loading} value={formatNumber(m?.totalVisitors)} caption={visitors.text} trend={visitors.trend} />
        <MetricCard title="Active Sessions" icon={<IconActivity />} loading={loading} value={formatNumber(m?.activeSessions)} caption="Live, right now" trend="live" />
        <MetricCard title="Page Views" icon={<IconEye />} loading={loading} value={formatNumber(m?.pageViews)} caption={views.text} trend={views.trend} />
        <MetricCard title="Conversions" icon={<IconTarget />} loading={loading} value={formatNumber(m?.conversions)} caption={conv.text} trend={conv.trend} />
      </div>
      <div className="mt-3">
        <ImportedNote overview={overview.data} />
      </div>

      <div className="mt-6 grid gap-6 lg:grid-cols-2">
        <TopPagesCard pages={overview.data?.topPages} loading={loading} />
        <LiveVisitorsCard websiteId={website.id} />
      </div>

      <Card className="mt-6">
        <CardHeader title="Traffic Overview" description="Visitors and page views per day" action={rangeSelect} />
        <CardBody>
          <QueryState query={series} skeleton={<Skeleton className="h-72 w-full" />}>
            {(data) => (
              <Suspense fallback={<Skeleton className="h-72 w-full" />}>
                <TrafficChart points={data.points} />
              </Suspense>
            )}
          </QueryState>
        </CardBody>
      </Card>

      <div className="mt-6">
        <RecentActivityCard query={activity} />
      </div>
    </>
  );
}
