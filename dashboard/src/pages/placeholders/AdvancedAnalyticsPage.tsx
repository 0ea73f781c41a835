//! Placeholder for Advanced Analytics (spec part 2); replaced by the screen of a later issue.
import { ComingSoon } from "../../components/ComingSoon";

export default function AdvancedAnalyticsPage() {
  return <ComingSoon title="Advanced Analytics" description="Heatmaps, visitor intent and deeper analysis of your traffic." />;
}
