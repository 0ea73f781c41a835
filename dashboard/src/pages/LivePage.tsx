//! Live Visitors page (/live): website selector (first site by default) and the live card.
import { LiveVisitorsCard } from "../components/LiveVisitorsCard";
import { SitePage } from "../components/page/SitePage";

export default function LivePage() {
  return (
    <SitePage title="Live Visitors" description="Who is on your site right now">
      {({ website }) => <LiveVisitorsCard websiteId={website.id} />}
    </SitePage>
  );
}
