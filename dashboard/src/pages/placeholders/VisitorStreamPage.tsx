//! Placeholder for Visitor Stream (spec part 2); replaced by the screen of a later issue.
import { ComingSoon } from "../../components/ComingSoon";

export default function VisitorStreamPage() {
  return <ComingSoon title="Visitor Stream" description="Every visit as it happens, session by session." />;
}
