//! Live Visitors page (/live): website selector (first site by default) and the live card.
import { LiveVisitorsCard } from "../components/LiveVisitorsCard";
import { NoWebsites } from "../components/NoWebsites";
import { WebsitePicker } from "../components/WebsitePicker";
import { ErrorNote, FullPageSpinner, PageHeader } from "../components/ui/primitives";
import { useSelectedWebsite } from "../hooks/selection";
import { useWebsites } from "../hooks/websites";

export default function LivePage() {
  const websites = useWebsites();
  const { selected, select } = useSelectedWebsite(websites.data);
  return (
    <>
      <PageHeader
        title="Live Visitors"
        description="Who is on your site right now"
        actions={websites.data && websites.data.length > 0 ? <WebsitePicker websites={websites.data} value={selected?.id} onChange={select} /> : undefined}
      />
      {websites.isPending ? (
        <FullPageSpinner />
      ) : websites.error ? (
        <ErrorNote error={websites.error} />
      ) : websites.data.length === 0 ? (
        <NoWebsites />
      ) : (
        <LiveVisitorsCard websiteId={selected?.id} />
      )}
    </>
  );
}
