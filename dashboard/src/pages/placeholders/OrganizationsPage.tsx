//! Placeholder for Organizations (spec part 2); replaced by the screen of a later issue.
import { ComingSoon } from "../../components/ComingSoon";

export default function OrganizationsPage() {
  return <ComingSoon title="Organizations" description="Companies identified among your visitors." />;
}
