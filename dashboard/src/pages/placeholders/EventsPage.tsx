//! Placeholder for Events (spec part 2); replaced by the screen of a later issue.
import { ComingSoon } from "../../components/ComingSoon";

export default function EventsPage() {
  return <ComingSoon title="Events" description="Custom events and the definitions that capture them." />;
}
