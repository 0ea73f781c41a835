//! Advanced Analytics (spec part 2): in this branch only the Heatmaps and Privacy tabs, in the shape the
//! full page keeps (SitePage; tab in ?tab=heatmaps|privacy, website in ?website=, range in ?range=).
import { lazy, Suspense } from "react";
import { PrivacyPanel } from "../components/advanced/PrivacyPanel";
import { SitePage } from "../components/page/SitePage";
import { SkeletonRows } from "../components/page/QueryState";
import { TabsContent, TabsList, TabsRoot, TabsTrigger } from "../components/ui/Tabs";
import { useParamState } from "../hooks/selection";

// The heatmap panel renders recordings and canvases: loaded when its tab opens.
const HeatmapPanel = lazy(() => import("../components/advanced/HeatmapPanel").then((m) => ({ default: m.HeatmapPanel })));

const RANGES = [
  { value: "1d", label: "Last 24h" },
  { value: "7d", label: "Last 7 days" },
  { value: "30d", label: "Last 30 days" },
  { value: "90d", label: "Last 90 days" },
] as const;
type Range = (typeof RANGES)[number]["value"];

const TABS = ["heatmaps", "privacy"] as const;
type Tab = (typeof TABS)[number];

export default function AdvancedAnalyticsPage() {
  const [tab, setTab] = useParamState<Tab>("tab", TABS, "heatmaps");
  return (
    <SitePage<Range> title="Advanced Analytics" ranges={{ options: RANGES, fallback: "7d" }}>
      {({ website, range }) => (
        <TabsRoot value={tab} onChange={setTab}>
          <TabsList>
            <TabsTrigger value="heatmaps">Heatmaps</TabsTrigger>
            <TabsTrigger value="privacy">Privacy</TabsTrigger>
          </TabsList>
          <TabsContent value="heatmaps" className="mt-6">
            <Suspense fallback={<SkeletonRows rows={4} className="h-24" />}>
              <HeatmapPanel websiteId={String(website.id)} timeRange={range} />
            </Suspense>
          </TabsContent>
          <TabsContent value="privacy" className="mt-6">
            <PrivacyPanel websiteId={String(website.id)} />
          </TabsContent>
        </TabsRoot>
      )}
    </SitePage>
  );
}
