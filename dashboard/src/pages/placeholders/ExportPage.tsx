//! Placeholder for Export Data (spec part 2); replaced by the screen of a later issue.
import { ComingSoon } from "../../components/ComingSoon";

export default function ExportPage() {
  return <ComingSoon title="Export Data" description="Download your analytics data." />;
}
