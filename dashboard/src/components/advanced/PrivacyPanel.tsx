//! The privacy panel of Advanced Analytics (spec part 2 "Privacy panel"). A stub: the privacy work replaces
//! this file, keeping the export and its props.
import { Card, EmptyState } from "../ui/primitives";

export function PrivacyPanel({ websiteId }: { websiteId: string }) {
  if (websiteId.trim() === "") {
    return (
      <Card>
        <EmptyState title="No Website Selected" description="Please select a website to view privacy controls" />
      </Card>
    );
  }
  return (
    <Card>
      <EmptyState title="Privacy" description="Privacy controls for this website are being prepared." />
    </Card>
  );
}
