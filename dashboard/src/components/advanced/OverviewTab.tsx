//! The Overview tab of Advanced Analytics (spec part 2): Real-time Metrics, Top Performing Pages, Visitor
//! Segments, Performance Metrics and Quick Actions that switch to the other tabs.
import type { AdvancedAnalytics } from "../../api/advanced";
import { formatNumber, formatPercent } from "../../lib/format";
import { sessionMinutes } from "../../lib/intent";
import { EmptyText } from "../page/QueryState";
import { IconSettings, IconTarget, IconZap } from "../ui/icons";
import { Button, Card, CardBody, CardHeader } from "../ui/primitives";

export type AdvancedTab = "overview" | "ai-intent" | "heatmaps" | "privacy";

const SEGMENT_GROUPS = [
  { group: "visitor", title: "Visitor type" },
  { group: "source", title: "Source" },
  { group: "device", title: "Device" },
] as const;

export function OverviewTab({ data, onTab }: { data: AdvancedAnalytics; onTab: (tab: AdvancedTab) => void }) {
  const rt = data.realTimeMetrics;
  return (
    <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
      <Card data-testid="realtime-card">
        <CardHeader title="Real-time Metrics" description="Visitors on the site in the last five minutes" />
        <CardBody className="grid grid-cols-3 gap-4">
          <div>
            <p className="flex items-center gap-2 text-sm text-gray-400">
              <span className="relative flex h-2.5 w-2.5" data-testid="pulse-dot">
                <span className="absolute inline-flex h-full w-full animate-ping rounded-full bg-emerald-400 opacity-75" />
                <span className="relative inline-flex h-2.5 w-2.5 rounded-full bg-emerald-500" />
              </span>
              Active Visitors
            </p>
            <p className="mt-1 text-2xl font-semibold text-white" data-testid="rt-active">
              {formatNumber(rt.activeVisitors)}
            </p>
          </div>
          <div>
            <p className="text-sm text-gray-400">New Visitors</p>
            <p className="mt-1 text-2xl font-semibold text-white" data-testid="rt-new">
              {formatNumber(rt.newVisitors)}
            </p>
          </div>
          <div>
            <p className="text-sm text-gray-400">Conversions</p>
            <p className="mt-1 text-2xl font-semibold text-white" data-testid="rt-conversions">
              {formatNumber(rt.conversions)}
            </p>
          </div>
        </CardBody>
      </Card>

      <Card data-testid="top-pages-card">
        <CardHeader title="Top Performing Pages" description="Most viewed pages and the share of their visits that converted" />
        <CardBody>
          {data.topPages.length === 0 ? (
            <EmptyText>No page views in this period</EmptyText>
          ) : (
            <ol className="space-y-3">
              {data.topPages.slice(0, 5).map((p) => (
                <li key={p.url} className="flex items-center justify-between gap-3 text-sm" data-testid="top-page">
                  <span className="min-w-0 truncate font-mono text-gray-200" title={p.url}>
                    {p.url}
                  </span>
                  <span className="flex shrink-0 items-center gap-3 text-gray-400">
                    <span>{formatNumber(p.views)} views</span>
                    <span className="w-16 text-right text-emerald-400">{formatPercent(p.conversionRate)}</span>
                  </span>
                </li>
              ))}
            </ol>
          )}
        </CardBody>
      </Card>

      <Card data-testid="segments-card">
        <CardHeader title="Visitor Segments" description="Visits of the period and the share that converted" />
        <CardBody className="space-y-4">
          {SEGMENT_GROUPS.map(({ group, title }) => {
            const rows = data.visitorSegments.filter((s) => s.group === group);
            if (rows.length === 0) return null;
            return (
              <div key={group}>
                <p className="mb-2 text-xs font-medium uppercase tracking-wide text-gray-500">{title}</p>
                <ul className="space-y-2">
                  {rows.map((s) => (
                    <li key={s.segment} className="flex items-center justify-between text-sm" data-testid="segment">
                      <span className="text-gray-200">{s.segment}</span>
                      <span className="flex items-center gap-3 text-gray-400">
                        <span data-testid="segment-count">{formatNumber(s.count)}</span>
                        <span className="w-16 text-right text-emerald-400">{formatPercent(s.conversionRate)}</span>
                      </span>
                    </li>
                  ))}
                </ul>
              </div>
            );
          })}
        </CardBody>
      </Card>

      <div className="space-y-6">
        <Card data-testid="performance-card">
          <CardHeader title="Performance Metrics" />
          <CardBody className="space-y-3 text-sm">
            <Metric label="Bounce Rate" value={formatPercent(data.bounceRate)} bar={data.bounceRate} />
            <Metric label="Conversion Rate" value={formatPercent(data.conversionRate)} bar={data.conversionRate} />
            <Metric label="Avg Session Duration" value={sessionMinutes(data.averageSessionDuration)} />
          </CardBody>
        </Card>
        <Card>
          <CardHeader title="Quick Actions" />
          <CardBody className="flex flex-wrap gap-2">
            <Button variant="outline" onClick={() => onTab("ai-intent")}>
              <IconZap />
              View AI Intent Analysis
            </Button>
            <Button variant="outline" onClick={() => onTab("heatmaps")}>
              <IconTarget />
              Analyze Heatmaps
            </Button>
            <Button variant="outline" onClick={() => onTab("privacy")}>
              <IconSettings />
              Privacy Settings
            </Button>
          </CardBody>
        </Card>
      </div>
    </div>
  );
}

function Metric({ label, value, bar }: { label: string; value: string; bar?: number }) {
  return (
    <div>
      <div className="flex items-center justify-between">
        <span className="text-gray-400">{label}</span>
        <span className="font-medium text-white" data-testid={`perf-${label}`}>
          {value}
        </span>
      </div>
      {bar !== undefined && (
        <div className="mt-1.5 h-1.5 overflow-hidden rounded-full bg-gray-800">
          <div className="h-full rounded-full bg-indigo-500" style={{ width: `${Math.min(100, Math.max(0, bar))}%` }} />
        </div>
      )}
    </div>
  );
}
