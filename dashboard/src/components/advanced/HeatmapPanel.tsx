//! The heatmap panel of Advanced Analytics (spec part 2 "Heatmap panel"). A stub: the heatmap work replaces
//! this file, keeping the export and its props.
import { Card, EmptyState } from "../ui/primitives";

export function HeatmapPanel({ websiteId, timeRange }: { websiteId: string; timeRange: string }) {
  if (websiteId.trim() === "") {
    return (
      <Card>
        <EmptyState title="No Website Selected" description="Please select a website to view heatmap analytics" />
      </Card>
    );
  }
  return (
    <Card data-time-range={timeRange}>
      <EmptyState title="Heatmaps" description="Heatmap analytics for this website are being prepared." />
    </Card>
  );
}
