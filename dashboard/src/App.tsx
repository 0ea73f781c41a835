//! The route table (spec part 1 §2): each screen of src/screens.ts with its page, /auth and /verify-email public, everything else
//! protected, a share link's /share/:slug public, anything unknown is 404.
import { type ComponentType, type LazyExoticComponent, lazy, Suspense } from "react";
import { Route, Routes } from "react-router-dom";
import { ProtectedLayout } from "./components/AppLayout";
import { FullPageSpinner } from "./components/ui/primitives";
import { SCREENS, type ScreenPath } from "./screens";

const NotFoundPage = lazy(() => import("./pages/NotFoundPage"));
/** A share link's dashboard (issue 37): public, outside the screens table (its path carries the link's slug). */
const SharePage = lazy(() => import("./pages/SharePage"));

/** Each screen's page, loaded when first shown. */
const PAGES: Record<ScreenPath, LazyExoticComponent<ComponentType>> = {
  "/": lazy(() => import("./pages/OverviewPage")),
  "/dashboard": lazy(() => import("./pages/AnalyticsDashboardPage")),
  "/advanced-analytics": lazy(() => import("./pages/AdvancedAnalyticsPage")),
  "/websites": lazy(() => import("./pages/WebsitesPage")),
  "/live": lazy(() => import("./pages/LivePage")),
  "/visitor-stream": lazy(() => import("./pages/VisitorStreamPage")),
  "/funnels": lazy(() => import("./pages/FunnelsPage")),
  "/customer-journeys": lazy(() => import("./pages/CustomerJourneysPage")),
  "/session-replays": lazy(() => import("./pages/SessionReplaysPage")),
  "/events": lazy(() => import("./pages/EventsPage")),
  "/organizations": lazy(() => import("./pages/OrganizationsPage")),
  "/export": lazy(() => import("./pages/ExportPage")),
  "/settings": lazy(() => import("./pages/SettingsPage")),
  "/basic-dashboard": lazy(() => import("./pages/AllSitesPage")),
  "/auth": lazy(() => import("./pages/AuthPage")),
  "/verify-email": lazy(() => import("./pages/VerifyEmailPage")),
  "/invitations": lazy(() => import("./pages/InvitationPage")),
};

function routesOf(screens: readonly (typeof SCREENS)[number][]) {
  return screens.map((s) => {
    const Page = PAGES[s.path];
    return <Route key={s.path} path={s.path} element={<Page />} />;
  });
}

export function App() {
  return (
    <Suspense fallback={<FullPageSpinner />}>
      <Routes>
        {routesOf(SCREENS.filter((s) => "public" in s))}
        <Route element={<ProtectedLayout />}>{routesOf(SCREENS.filter((s) => !("public" in s)))}</Route>
        <Route path="/share/:slug" element={<SharePage />} />
        <Route path="*" element={<NotFoundPage />} />
      </Routes>
    </Suspense>
  );
}
