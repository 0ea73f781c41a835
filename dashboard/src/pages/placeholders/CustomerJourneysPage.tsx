//! Placeholder for Customer Journeys (spec part 2); replaced by the screen of a later issue.
import { ComingSoon } from "../../components/ComingSoon";

export default function CustomerJourneysPage() {
  return <ComingSoon title="Customer Journeys" description="The paths visitors take from first touch to conversion." />;
}
