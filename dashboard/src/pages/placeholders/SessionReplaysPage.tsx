//! Placeholder for Session Replays (spec part 2); replaced by the screen of a later issue.
import { ComingSoon } from "../../components/ComingSoon";

export default function SessionReplaysPage() {
  return <ComingSoon title="Session Replays" description="Watch recorded visits to understand behaviour." />;
}
