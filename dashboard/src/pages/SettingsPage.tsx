//! /settings: Profile, Notifications, Security, Data & Privacy and Import tabs (spec part 2, Settings; REAL.md). The
//! chosen tab is in the URL (?tab=).
import { useSearchParams } from "react-router-dom";
import { useAccountSettings } from "../hooks/settings";
import { QueryState } from "../components/page/QueryState";
import { DataPrivacyTab } from "../components/settings/DataPrivacyTab";
import { ImportTab } from "../components/settings/ImportTab";
import { NotificationsTab } from "../components/settings/NotificationsTab";
import { ProfileTab } from "../components/settings/ProfileTab";
import { SecurityTab } from "../components/settings/SecurityTab";
import { PageHeader, Skeleton } from "../components/ui/primitives";
import { TabsContent, TabsList, TabsRoot, TabsTrigger } from "../components/ui/Tabs";

const TABS = [
  { value: "profile", label: "Profile" },
  { value: "notifications", label: "Notifications" },
  { value: "security", label: "Security" },
  { value: "privacy", label: "Data & Privacy" },
  { value: "import", label: "Import" },
] as const;
type Tab = (typeof TABS)[number]["value"];

export default function SettingsPage() {
  const settings = useAccountSettings();
  const [params, setParams] = useSearchParams();
  const requested = params.get("tab");
  const tab: Tab = TABS.some((t) => t.value === requested) ? (requested as Tab) : "profile";

  return (
    <>
      <PageHeader title="Settings" description="Manage your account settings and preferences" />
      <TabsRoot<Tab> value={tab} onChange={(next) => setParams({ tab: next }, { replace: true })}>
        <TabsList className="mb-6 flex w-full flex-wrap sm:inline-flex sm:w-auto">
          {TABS.map((t) => (
            <TabsTrigger key={t.value} value={t.value} className="px-3 sm:px-4">
              {t.label}
            </TabsTrigger>
          ))}
        </TabsList>
        <QueryState query={settings} skeleton={<Skeleton className="h-80 w-full max-w-3xl" />}>
          {(data) => (
            <div className="max-w-3xl">
              <TabsContent value="profile">
                <ProfileTab profile={data.profile} emailConfigured={data.notifications.emailConfigured} />
              </TabsContent>
              <TabsContent value="notifications">
                <NotificationsTab notifications={data.notifications} emailVerified={data.profile.emailVerified} />
              </TabsContent>
              <TabsContent value="security">
                <SecurityTab settings={data} />
              </TabsContent>
              <TabsContent value="privacy">
                <DataPrivacyTab />
              </TabsContent>
              <TabsContent value="import">
                <ImportTab />
              </TabsContent>
            </div>
          )}
        </QueryState>
      </TabsRoot>
    </>
  );
}
