//! Analytics Dashboard (/dashboard?website={id}): picker, tracking code, CSV export, site card, the filter bar,
//! four metric cards and the Overview / Visitors / Traffic / Conversions tabs (the conversions, and their revenue
//! by source or goal). The overview refetches every 30 s.
//! Cards, Top Pages, traffic sources, conversions and every breakdown panel follow the URL's filters (a row click
//! adds one) and its period (the range picker, default 30 days); identified visitors do not take filters yet and
//! say so. A share page (/share/:slug, SharePage.tsx) shows the same `SiteAnalytics` read-only (`shared`): its
//! reads go to the link's share routes, and what is not an aggregate (identified visitors, the conversions list)
//! or not the visitor's (the tracking key) is left out.
import { Suspense, lazy, useState } from "react";
import type { ReactNode } from "react";
import type { Website } from "../api/types";
import {
  downloadCsvExport,
  useConversions,
  useIdentifiedVisitors,
  useOverview,
  useTimeseries,
  useTrafficSources,
} from "../hooks/analytics";
import { useCompare } from "../hooks/compare";
import { useFilters } from "../hooks/filters";
import { usePeriod } from "../hooks/period";
import { useParamState } from "../hooks/selection";
import { conversionCaption } from "../lib/change";
import { formatNumber, formatPercent, formatValue } from "../lib/format";
import { leadScoreClass } from "../lib/leadScore";
import { type Period, periodLabel } from "../lib/period";
import { formatDate, formatDateTime } from "../lib/time";
import { BREAKDOWNS, BarRow, BreakdownPanel } from "../components/BreakdownPanel";
import { FilterBar } from "../components/filters/FilterBar";
import { ComparePicker } from "../components/filters/ComparePicker";
import { RangePicker } from "../components/filters/RangePicker";
import { REFUSED_TEXT, RefusedText, refusedFilters } from "../components/filters/Refused";
import { NotFiltered } from "../components/filters/NotFiltered";
import { MetricCard } from "../components/MetricCard";
import { RevenuePanel } from "../components/RevenuePanel";
import { ImportedNote } from "../components/imports/ImportedNote";
import { EmptyText, QueryState } from "../components/page/QueryState";
import { SitePage } from "../components/page/SitePage";
import { TopPagesList } from "../components/TopPagesCard";
import { ShareDialog } from "../components/ShareDialog";
import { TrackingCodeDialog } from "../components/TrackingCodeDialog";
import { useToast } from "../components/toast/toast";
import { IconActivity, IconCode, IconDownload, IconEye, IconGlobe, IconShare, IconTarget, IconUsers } from "../components/ui/icons";
import { Badge, Button, Card, CardBody, CardHeader, ErrorNote, Skeleton, cx } from "../components/ui/primitives";
import { TabsContent, TabsList, TabsRoot, TabsTrigger } from "../components/ui/Tabs";
import { serverMessage } from "../lib/errors";

const TABS = ["overview", "visitors", "traffic", "conversions"] as const;
export type Tab = (typeof TABS)[number];
export const SHARED_TABS = ["overview", "visitors", "traffic"] as const satisfies readonly Tab[];
const TrafficChart = lazy(() => import("../components/TrafficChart"));
export const OVERVIEW_REFETCH_MS = 30_000;
const LIMITS = { identified: 5, conversions: 10 };
/** The period of every read here when the URL names none. */
const DEFAULT_PERIOD: Period = { range: "30d" };

export default function AnalyticsDashboardPage() {
  const [tab, setTab] = useParamState<Tab>("tab", TABS, "overview");
  return (
    <SitePage title="Analytics Dashboard" description="Real-time visitor tracking and analytics" actions={({ website }) => <SiteActions website={website} />}>
      {({ website }) => <SiteAnalytics website={website} tab={tab} setTab={setTab} />}
    </SitePage>
  );
}

function SiteActions({ website }: { website: Website }) {
  const [codeOpen, setCodeOpen] = useState(false);
  const [shareOpen, setShareOpen] = useState(false);
  const [exporting, setExporting] = useState(false);
  const filters = useFilters();
  const { toast } = useToast();

  async function exportCsv() {
    setExporting(true);
    try {
      await downloadCsvExport(website.id, filters.text);
    } catch (e) {
      toast({ title: "Export failed", description: serverMessage(e), variant: "destructive" });
    } finally {
      setExporting(false);
    }
  }

  return (
    <>
      <Button variant="outline" onClick={() => setCodeOpen(true)}>
        <IconCode />
        Get Tracking Code
      </Button>
      <Button variant="secondary" onClick={exportCsv} disabled={exporting}>
        <IconDownload />
        {exporting ? "Exporting..." : "Export CSV"}
      </Button>
      <Button variant="outline" onClick={() => setShareOpen(true)}>
        <IconShare />
        Share
      </Button>
      <TrackingCodeDialog website={website} open={codeOpen} onClose={() => setCodeOpen(false)} />
      <ShareDialog website={website} filters={filters.text} open={shareOpen} onClose={() => setShareOpen(false)} />
    </>
  );
}

export function SiteAnalytics({
  website,
  tab,
  setTab,
  shared = false,
}: {
  website: Website;
  tab: Tab;
  setTab: (t: Tab) => void;
  /** On a share page: read-only, aggregates only, and the traffic chart on top. */
  shared?: boolean;
}) {
  const filters = useFilters();
  const period = usePeriod(DEFAULT_PERIOD);
  // The panels' rows carry their change when the screen compares.
  const compare = useCompare();
  const panels = period.query + compare.query;
  const overview = useOverview(website.id, { period: period.query, refetchInterval: OVERVIEW_REFETCH_MS, filters: filters.text });
  const conversions = useConversions(shared ? undefined : website.id, period.query, filters.text);
  const m = overview.data?.metrics;
  const loading = overview.isPending;
  // Under refused filters the figures are unknown, not zero.
  const refused = refusedFilters(filters.active, overview.error);
  const fig = (n: number | undefined) => (refused ? "—" : formatNumber(n));
  return (
    <div className="space-y-6">
      <Card className="flex flex-wrap items-center justify-between gap-4 p-5" data-testid="site-card">
        <div className="flex items-center gap-4">
          <span className="flex h-11 w-11 items-center justify-center rounded-xl bg-indigo-500/15 text-indigo-300">
            <IconGlobe className="h-5 w-5" />
          </span>
          <div>
            <h2 className="text-lg font-semibold text-white">{website.name}</h2>
            <p className="text-sm text-gray-400">{website.domain}</p>
          </div>
        </div>
        {shared ? null : (
          <div className="text-right">
            <p className="text-xs uppercase tracking-wide text-gray-500">Tracking key</p>
            <p className="font-mono text-sm text-gray-200">{website.trackingKey}</p>
          </div>
        )}
      </Card>

      <p className="text-sm text-gray-400" data-testid="dashboard-period">
        {periodLabel(period.period)} · Active Now counts the last 5 minutes{filters.active ? " of the whole site" : ""}
      </p>
      <FilterBar
        websiteId={website.id}
        period={period.query}
        error={overview.error}
        extra={
          <div className="flex flex-wrap gap-2">
            <ComparePicker screen={compare} />
            <RangePicker screen={period} />
          </div>
        }
      />
      {overview.error && !refused ? (
        <ErrorNote error={overview.error} onRetry={() => void overview.refetch()} />
      ) : null}
      <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        <MetricCard title="Total Visitors" icon={<IconUsers />} loading={loading} value={fig(m?.totalVisitors)} caption="Unique sessions" />
        <MetricCard title="Active Now" icon={<IconActivity />} loading={loading} value={fig(m?.activeSessions)} caption="Live visitors" trend="live" />
        <MetricCard title="Page Views" icon={<IconEye />} loading={loading} value={fig(m?.pageViews)} caption="Total views" />
        <MetricCard
          title="Conversions"
          icon={<IconTarget />}
          loading={loading}
          value={fig(m?.conversions ?? conversions.data?.conversions.length)}
          caption={conversionCaption(m?.conversions ?? conversions.data?.conversions.length ?? 0, conversions.data?.conversionRate)}
        />
      </div>
      <ImportedNote overview={overview.data} />
      {shared ? <SharedChart websiteId={website.id} period={period.query} /> : null}

      <TabsRoot<Tab> value={tab} onChange={setTab} className="space-y-6">
        <TabsList>
          <TabsTrigger value="overview">Overview</TabsTrigger>
          <TabsTrigger value="visitors">Visitors</TabsTrigger>
          <TabsTrigger value="traffic">Traffic</TabsTrigger>
          {shared ? null : <TabsTrigger value="conversions">Conversions</TabsTrigger>}
        </TabsList>
        <TabsContent value="overview">
          <OverviewTab websiteId={website.id} period={panels} topPages={overview.data?.topPages} loading={loading} refused={refused} />
        </TabsContent>
        <TabsContent value="visitors">
          <VisitorsTab websiteId={website.id} period={panels} shared={shared} />
        </TabsContent>
        <TabsContent value="traffic">
          <TrafficTab websiteId={website.id} period={panels} />
        </TabsContent>
        {shared ? null : (
          <TabsContent value="conversions">
            <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
              <ConversionsTab websiteId={website.id} period={period.query} label={periodLabel(period.period)} />
              <RevenuePanel websiteId={website.id} period={period.query} />
            </div>
          </TabsContent>
        )}
      </TabsRoot>
    </div>
  );
}

/** A card of a tab; `unfiltered` when its read does not take filters yet (it then says so on a filtered screen). */
function Panel({ title, description, unfiltered, children }: { title: string; description?: string; unfiltered?: boolean; children: ReactNode }) {
  return (
    <Card>
      <CardHeader
        title={title}
        description={
          <>
            {description}
            {unfiltered ? <NotFiltered /> : null}
          </>
        }
      />
      <CardBody>{children}</CardBody>
    </Card>
  );
}

function OverviewTab({
  websiteId,
  period,
  topPages,
  loading,
  refused,
}: { websiteId: number; period: string; topPages: { url: string; views: number }[] | undefined; loading: boolean; refused: boolean }) {
  const { add } = useFilters();
  return (
    <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
      <Panel title="Top Pages" description="Most viewed pages">
        <TopPagesList pages={topPages} loading={loading} emptyText={refused ? REFUSED_TEXT : "No page data available"} onFilter={add} />
      </Panel>
      <BreakdownPanel websiteId={websiteId} card={BREAKDOWNS.referrers} period={period} />
      <BreakdownPanel websiteId={websiteId} card={BREAKDOWNS.entryPages} period={period} />
      <BreakdownPanel websiteId={websiteId} card={BREAKDOWNS.exitPages} period={period} />
    </div>
  );
}

/** A share page's traffic chart: visitors and page views of the period, under the filters. */
function SharedChart({ websiteId, period }: { websiteId: number; period: string }) {
  const filters = useFilters();
  const series = useTimeseries(websiteId, period, filters.text);
  return (
    <Card>
      <CardHeader title="Traffic Overview" description="Visitors and page views" />
      <CardBody>
        {refusedFilters(filters.active, series.error) ? (
          <RefusedText />
        ) : (
          <QueryState query={series}>
            {(data) => (
              <Suspense fallback={<Skeleton className="h-72 w-full" />}>
                <TrafficChart points={data.points} />
              </Suspense>
            )}
          </QueryState>
        )}
      </CardBody>
    </Card>
  );
}

function VisitorsTab({ websiteId, period, shared }: { websiteId: number; period: string; shared: boolean }) {
  return (
    <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
      {shared ? null : <IdentifiedPanel websiteId={websiteId} />}
      <BreakdownPanel websiteId={websiteId} tabs={[BREAKDOWNS.countries, BREAKDOWNS.regions, BREAKDOWNS.cities]} period={period} />
      <BreakdownPanel websiteId={websiteId} tabs={[BREAKDOWNS.devices, BREAKDOWNS.screens]} period={period} />
      <BreakdownPanel websiteId={websiteId} tabs={[BREAKDOWNS.browsers, BREAKDOWNS.browserVersions]} period={period} />
      <BreakdownPanel websiteId={websiteId} tabs={[BREAKDOWNS.os, BREAKDOWNS.osVersions]} period={period} />
    </div>
  );
}

function IdentifiedPanel({ websiteId }: { websiteId: number }) {
  const identified = useIdentifiedVisitors(websiteId);
  return (
      <Panel title="Identified Visitors" description="Companies behind your traffic" unfiltered>
        <QueryState query={identified} isEmpty={(d) => d.length === 0} empty={<EmptyText>No identified visitors yet</EmptyText>}>
          {(data) => (
            <ul className="divide-y divide-gray-800" data-testid="identified-visitors">
              {data.slice(0, LIMITS.identified).map((v) => (
                <li key={v.id} className="flex items-center justify-between gap-3 py-3">
                  <div className="min-w-0">
                    <p className="truncate text-sm font-medium text-gray-100">{v.companyName}</p>
                    <p className="truncate text-xs text-gray-500">
                      {[v.industry, v.country, v.city].filter(Boolean).join(" · ")}
                    </p>
                  </div>
                  <span className={cx("shrink-0 rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ring-inset", leadScoreClass(v.leadScore))} title="Lead score">
                    {v.leadScore}
                  </span>
                </li>
              ))}
            </ul>
          )}
        </QueryState>
      </Panel>
  );
}

function TrafficTab({ websiteId, period }: { websiteId: number; period: string }) {
  const { text, active, add } = useFilters();
  const sources = useTrafficSources(websiteId, period, text);
  if (refusedFilters(active, sources.error)) {
    return (
      <Panel title="Traffic Sources" description="Visits by source">
        <RefusedText />
      </Panel>
    );
  }
  return (
    <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
      <Panel title="Traffic Sources" description="Visits by source">
        <QueryState query={sources} isEmpty={(d) => d.length === 0} empty={<EmptyText>No traffic data available</EmptyText>}>
          {(data) => {
            const max = Math.max(0, ...data.map((s) => s.visits));
            return (
              <ul className="space-y-2" data-testid="traffic-sources">
                {data.map((s) => {
                  // The Direct row is the empty source, which the daemon reads as "Direct / None".
                  const direct = s.source === "" || s.source === "Direct";
                  return (
                    <BarRow
                      key={s.source}
                      label={
                        <>
                          <span className="truncate">{direct ? "Direct" : s.source}</span>
                          <span className="shrink-0 text-xs tabular-nums text-gray-500">{formatPercent(s.percentage)}</span>
                        </>
                      }
                      value={s.visits}
                      max={max}
                      filter={{ operator: "is", dimension: "visit:source", values: [direct ? "Direct / None" : s.source] }}
                      onFilter={add}
                    />
                  );
                })}
              </ul>
            );
          }}
        </QueryState>
      </Panel>
      <BreakdownPanel websiteId={websiteId} tabs={[BREAKDOWNS.utmMedium, BREAKDOWNS.utmSource]} period={period} />
      <BreakdownPanel websiteId={websiteId} tabs={[BREAKDOWNS.utmCampaign, BREAKDOWNS.utmContent, BREAKDOWNS.utmTerm]} period={period} />
    </div>
  );
}

function ConversionsTab({ websiteId, period, label }: { websiteId: number; period: string; label: string }) {
  const filters = useFilters();
  const conversions = useConversions(websiteId, period, filters.text);
  return (
    <Panel title="Conversions" description={`Goals completed by your visitors · ${label}, newest first`}>
      <QueryState query={conversions}>
        {(data) => {
          const list = data.conversions.slice(0, LIMITS.conversions);
          return (
            <>
              <div className="mb-5 flex items-baseline gap-2">
                <span className="text-3xl font-semibold text-white" data-testid="conversion-rate">
                  {formatPercent(data.conversionRate)}
                </span>
                <span className="text-sm text-gray-400">conversion rate</span>
              </div>
              {list.length === 0 ? (
                <EmptyText>No conversions tracked yet</EmptyText>
              ) : (
                <ul className="divide-y divide-gray-800" data-testid="conversions">
                  {list.map((c) => (
                    <li key={c.id} className="flex items-center justify-between gap-3 py-3">
                      <div className="flex items-center gap-3">
                        <Badge tone="green">{c.goalName}</Badge>
                        <span className="text-sm font-medium text-gray-100">{formatValue(c.value, c.currency ?? undefined)}</span>
                      </div>
                      <span className="text-xs text-gray-500" title={formatDateTime(c.timestamp)}>
                        {formatDate(c.timestamp)}
                      </span>
                    </li>
                  ))}
                </ul>
              )}
            </>
          );
        }}
      </QueryState>
    </Panel>
  );
}
