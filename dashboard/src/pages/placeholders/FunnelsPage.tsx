//! Placeholder for Funnels (spec part 2); replaced by the screen of a later issue.
import { ComingSoon } from "../../components/ComingSoon";

export default function FunnelsPage() {
  return <ComingSoon title="Funnels" description="See where visitors drop off on the way to a goal." />;
}
