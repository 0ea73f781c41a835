//! Labels for Recent Activity entries.
import type { ActivityEvent } from "../api/types";

export function activityTitle(e: ActivityEvent): string {
  switch (e.type) {
    case "pageview":
      return "Page view";
    case "conversion":
      return e.name ? `Conversion: ${e.name}` : "Conversion";
    case "custom":
      return e.name ? `Event: ${e.name}` : "Custom event";
    case "outbound":
      return "Outbound link";
    case "download":
      return "File download";
    default:
      return e.name || e.type;
  }
}
