//! Placeholder for Settings (spec part 2); replaced by the screen of a later issue.
import { ComingSoon } from "../../components/ComingSoon";

export default function SettingsPage() {
  return <ComingSoon title="Settings" description="Account, privacy and security settings." />;
}
