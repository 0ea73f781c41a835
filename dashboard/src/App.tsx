//! The route table (spec part 1 §2): /auth and /verify-email public, everything else protected, anything unknown
//! is 404.
import { lazy, Suspense } from "react";
import { Route, Routes } from "react-router-dom";
import { ProtectedLayout } from "./components/AppLayout";
import { FullPageSpinner } from "./components/ui/primitives";

const AuthPage = lazy(() => import("./pages/AuthPage"));
const OverviewPage = lazy(() => import("./pages/OverviewPage"));
const AnalyticsDashboardPage = lazy(() => import("./pages/AnalyticsDashboardPage"));
const AllSitesPage = lazy(() => import("./pages/AllSitesPage"));
const WebsitesPage = lazy(() => import("./pages/WebsitesPage"));
const LivePage = lazy(() => import("./pages/LivePage"));
const NotFoundPage = lazy(() => import("./pages/NotFoundPage"));
const AdvancedAnalyticsPage = lazy(() => import("./pages/AdvancedAnalyticsPage"));
const VisitorStreamPage = lazy(() => import("./pages/VisitorStreamPage"));
const FunnelsPage = lazy(() => import("./pages/FunnelsPage"));
const CustomerJourneysPage = lazy(() => import("./pages/CustomerJourneysPage"));
const SessionReplaysPage = lazy(() => import("./pages/SessionReplaysPage"));
const EventsPage = lazy(() => import("./pages/EventsPage"));
const OrganizationsPage = lazy(() => import("./pages/OrganizationsPage"));
const ExportPage = lazy(() => import("./pages/ExportPage"));
const SettingsPage = lazy(() => import("./pages/SettingsPage"));
const VerifyEmailPage = lazy(() => import("./pages/VerifyEmailPage"));

export function App() {
  return (
    <Suspense fallback={<FullPageSpinner />}>
      <Routes>
        <Route path="/auth" element={<AuthPage />} />
        <Route path="/verify-email" element={<VerifyEmailPage />} />
        <Route element={<ProtectedLayout />}>
          <Route path="/" element={<OverviewPage />} />
          <Route path="/dashboard" element={<AnalyticsDashboardPage />} />
          <Route path="/advanced-analytics" element={<AdvancedAnalyticsPage />} />
          <Route path="/websites" element={<WebsitesPage />} />
          <Route path="/live" element={<LivePage />} />
          <Route path="/visitor-stream" element={<VisitorStreamPage />} />
          <Route path="/funnels" element={<FunnelsPage />} />
          <Route path="/customer-journeys" element={<CustomerJourneysPage />} />
          <Route path="/session-replays" element={<SessionReplaysPage />} />
          <Route path="/events" element={<EventsPage />} />
          <Route path="/organizations" element={<OrganizationsPage />} />
          <Route path="/export" element={<ExportPage />} />
          <Route path="/settings" element={<SettingsPage />} />
          <Route path="/basic-dashboard" element={<AllSitesPage />} />
        </Route>
        <Route path="*" element={<NotFoundPage />} />
      </Routes>
    </Suspense>
  );
}
