//! Advanced Analytics (/advanced-analytics, spec part 2): website and range (1d / 7d / 30d / 90d) in the URL,
//! the filter bar (the URL's `?filters=`, which the cards, the Overview and the AI Intent tab follow), four
//! summary cards, and the Overview / AI Intent / Heatmaps / Privacy tabs (?tab=, default overview). The three
//! sub-panels take the website id as text; with no website they show their no-website states.
import type { AdvancedRange } from "../api/advanced";
import type { Role } from "../api/members";
import { IntentPanel } from "../components/advanced/IntentPanel";
import { HeatmapPanel } from "../components/advanced/HeatmapPanel";
import { type AdvancedTab, OverviewTab } from "../components/advanced/OverviewTab";
import { PrivacyPanel } from "../components/advanced/PrivacyPanel";
import { FilterBar } from "../components/filters/FilterBar";
import { NotFiltered } from "../components/filters/NotFiltered";
import { MetricCard } from "../components/MetricCard";
import { NoWebsites } from "../components/NoWebsites";
import { QueryState } from "../components/page/QueryState";
import { SitePage } from "../components/page/SitePage";
import { IconClock, IconTarget, IconUsers, IconZap } from "../components/ui/icons";
import { Skeleton } from "../components/ui/primitives";
import { TabsContent, TabsList, TabsRoot, TabsTrigger } from "../components/ui/Tabs";
import { useAdvancedAnalytics } from "../hooks/advanced";
import { useFilters } from "../hooks/filters";
import { useParamState } from "../hooks/selection";
import { formatNumber, formatPercent } from "../lib/format";
import { sessionMinutes } from "../lib/intent";

const RANGES = {
  options: [
    { value: "1d", label: "Last 24h" },
    { value: "7d", label: "Last 7 days" },
    { value: "30d", label: "Last 30 days" },
    { value: "90d", label: "Last 90 days" },
  ],
  fallback: "7d",
} as const satisfies { options: readonly { value: AdvancedRange; label: string }[]; fallback: AdvancedRange };

const TABS = ["overview", "ai-intent", "heatmaps", "privacy"] as const;

/** The intent panel reads the same period as the page; the server calls the last day 24h or 1d alike. */
function intentRange(range: AdvancedRange): string {
  return range === "1d" ? "24h" : range;
}

export default function AdvancedAnalyticsPage() {
  const [tab, setTab] = useParamState<AdvancedTab>("tab", TABS, "overview");
  return (
    <SitePage<AdvancedRange>
      title="Advanced Analytics"
      description="Visitor intent, heatmaps and privacy controls"
      ranges={{ options: RANGES.options, fallback: RANGES.fallback }}
      loading={<PageSkeleton />}
      noWebsite={<AdvancedTabs websiteId="" range={RANGES.fallback} tab={tab} setTab={setTab} />}
    >
      {({ website, range }) => <SiteAdvanced websiteId={website.id} role={website.role} range={range} tab={tab} setTab={setTab} />}
    </SitePage>
  );
}

function PageSkeleton() {
  return (
    <div className="space-y-6" data-testid="advanced-skeleton">
      <Skeleton className="h-8 w-64" />
      <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        {["a", "b", "c", "d"].map((k) => (
          <Skeleton key={k} className="h-28" />
        ))}
      </div>
    </div>
  );
}

function SiteAdvanced({
  websiteId,
  role,
  range,
  tab,
  setTab,
}: { websiteId: number; role: Role; range: AdvancedRange; tab: AdvancedTab; setTab: (t: AdvancedTab) => void }) {
  const filters = useFilters().text;
  const advanced = useAdvancedAnalytics(websiteId, range, filters);
  const d = advanced.data;
  const loading = advanced.isPending;
  return (
    <div className="space-y-6">
      <FilterBar websiteId={websiteId} period={`range=${range}`} error={advanced.error} />
      <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        <MetricCard title="Total Visitors" icon={<IconUsers />} loading={loading} value={formatNumber(d?.totalVisitors ?? 0)} caption="Unique visitors in the period" />
        <MetricCard
          title="High Intent"
          icon={<IconZap />}
          loading={loading}
          value={formatNumber(d?.highIntentVisitors ?? 0)}
          caption={d?.intentModel === "fitted" ? "Scored 60+ by this site's model" : "Scored 60+ (prior weights)"}
        />
        <MetricCard title="Conversion Rate" icon={<IconTarget />} loading={loading} value={formatPercent(d?.conversionRate ?? 0)} caption="Visits that converted" />
        <MetricCard title="Avg Session" icon={<IconClock />} loading={loading} value={sessionMinutes(d?.averageSessionDuration ?? 0)} caption="Average visit length" />
      </div>
      <AdvancedTabs websiteId={String(websiteId)} role={role} range={range} tab={tab} setTab={setTab} overview={advanced} filters={filters} />
    </div>
  );
}

function AdvancedTabs({
  websiteId,
  role,
  range,
  tab,
  setTab,
  overview,
  filters = null,
}: {
  websiteId: string;
  role?: Role;
  range: AdvancedRange;
  tab: AdvancedTab;
  setTab: (t: AdvancedTab) => void;
  overview?: ReturnType<typeof useAdvancedAnalytics>;
  filters?: string | null;
}) {
  return (
    <TabsRoot<AdvancedTab> value={tab} onChange={setTab} className="space-y-6">
      <TabsList className="flex w-full overflow-x-auto sm:inline-flex sm:w-auto">
        <TabsTrigger value="overview">Overview</TabsTrigger>
        <TabsTrigger value="ai-intent">AI Intent</TabsTrigger>
        <TabsTrigger value="heatmaps">Heatmaps</TabsTrigger>
        <TabsTrigger value="privacy">Privacy</TabsTrigger>
      </TabsList>
      <TabsContent value="overview">
        {overview ? (
          <QueryState query={overview} skeleton={<Skeleton className="h-64 w-full" />}>
            {(data) => <OverviewTab data={data} onTab={setTab} />}
          </QueryState>
        ) : (
          <NoWebsites title="No Website Selected" description="Create a website to see its advanced analytics." />
        )}
      </TabsContent>
      <TabsContent value="ai-intent">
        <IntentPanel websiteId={websiteId} timeRange={intentRange(range)} filters={filters} />
      </TabsContent>
      <TabsContent value="heatmaps">
        <NotFiltered />
        <HeatmapPanel websiteId={websiteId} timeRange={range} />
      </TabsContent>
      <TabsContent value="privacy">
        <PrivacyPanel websiteId={websiteId} role={role} />
      </TabsContent>
    </TabsRoot>
  );
}
