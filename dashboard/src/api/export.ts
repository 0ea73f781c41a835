//! The per-type export (spec part 2 §7: GET /api/export/{pageviews|events}), with the range and format the
//! Export screen adds, and the rows its filters admit; saved as '{type}-{websiteId}.{csv|json}'.
import { api } from ".";
import { filtersQuery } from "../lib/filters";

export type ExportType = "pageviews" | "events";
export type ExportFormat = "csv" | "json";
export type ExportRange = "24h" | "7d" | "30d";

/** `filters` is the screen's filters as text (hooks/filters.ts), null for every row. */
export function exportPath(type: ExportType, websiteId: number, range: ExportRange, format: ExportFormat, filters: string | null): string {
  return `/api/export/${type}?website_id=${websiteId}&range=${range}&format=${format}${filtersQuery(filters)}`;
}

export function exportFileName(type: ExportType, websiteId: number, format: ExportFormat): string {
  return `${type}-${websiteId}.${format}`;
}

/** Fetches the export and hands it to the browser as a download. */
export async function downloadExport(
  type: ExportType,
  websiteId: number,
  range: ExportRange,
  format: ExportFormat,
  filters: string | null,
): Promise<void> {
  const text = await api.text(exportPath(type, websiteId, range, format, filters));
  const blob = new Blob([text], { type: format === "csv" ? "text/csv;charset=utf-8" : "application/json" });
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = exportFileName(type, websiteId, format);
  document.body.appendChild(a);
  a.click();
  a.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 1000);
}
