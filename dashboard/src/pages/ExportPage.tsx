//! Export (/export, spec part 2): website selector (first website preselected), a range and a format, and
//! the Page Views and Events cards, each with an export button that reads 'Exporting...' while it runs. The filter
//! bar's filters (the URL's, as on the other screens) narrow both exports to the rows they admit.
import { useState } from "react";
import { downloadExport } from "../api/export";
import type { ExportFormat, ExportRange, ExportType } from "../api/export";
import { FilterBar } from "../components/filters/FilterBar";
import { SitePage } from "../components/page/SitePage";
import { useToast } from "../components/toast/toast";
import { useFilters } from "../hooks/filters";
import { IconActivity, IconDownload, IconEye } from "../components/ui/icons";
import { Button, Card, CardBody, CardHeader, Label, Select } from "../components/ui/primitives";
import type { ReactNode } from "react";

const RANGES = {
  options: [
    { value: "24h", label: "Last 24 hours" },
    { value: "7d", label: "Last 7 days" },
    { value: "30d", label: "Last 30 days" },
  ],
  fallback: "7d",
  placement: "body",
} as const;

const CARDS: { type: ExportType; title: string; description: string; icon: ReactNode }[] = [
  { type: "pageviews", title: "Page Views", description: "Every page view: time, URL, referrer, country, device, browser, campaign.", icon: <IconEye /> },
  { type: "events", title: "Events", description: "Custom events, conversions, outbound links and downloads with their properties.", icon: <IconActivity /> },
];

export default function ExportPage() {
  const [format, setFormat] = useState<ExportFormat>("csv");
  const filters = useFilters();
  return (
    <SitePage<ExportRange> title="Export Data" description="Download your raw analytics data" ranges={RANGES}>
      {({ website, range, rangeSelect }) => (
        <div className="space-y-6">
          <FilterBar websiteId={website.id} period={`range=${range}`} />
          <Card>
            <CardBody className="flex flex-col gap-4 sm:flex-row sm:items-end">
              <div className="sm:w-44">
                <Label>Time range</Label>
                {rangeSelect}
              </div>
              <div className="sm:w-44">
                <Label htmlFor="export-format">Format</Label>
                <Select id="export-format" value={format} onChange={(e) => setFormat(e.target.value as ExportFormat)}>
                  <option value="csv">CSV</option>
                  <option value="json">JSON</option>
                </Select>
              </div>
              <p className="text-xs text-gray-500 sm:ml-auto sm:max-w-xs">Times are UTC. No IP addresses are exported; visitors appear only as session ids.</p>
            </CardBody>
          </Card>
          <div className="grid grid-cols-1 gap-6 md:grid-cols-2">
            {CARDS.map((card) => (
              <ExportCard key={card.type} {...card} websiteId={website.id} range={range} format={format} filters={filters.text} />
            ))}
          </div>
        </div>
      )}
    </SitePage>
  );
}

function ExportCard({
  type,
  title,
  description,
  icon,
  websiteId,
  range,
  format,
  filters,
}: {
  type: ExportType;
  title: string;
  description: string;
  icon: ReactNode;
  websiteId: number;
  range: ExportRange;
  format: ExportFormat;
  filters: string | null;
}) {
  const [running, setRunning] = useState(false);
  const { toast } = useToast();
  async function run() {
    setRunning(true);
    try {
      await downloadExport(type, websiteId, range, format, filters);
      toast({ title: "Export successful", description: `${type} data has been downloaded as ${format.toUpperCase()}`, variant: "success" });
    } catch {
      toast({ title: "Export failed", description: `Failed to export ${type} data`, variant: "destructive" });
    } finally {
      setRunning(false);
    }
  }
  return (
    <Card data-testid={`export-${type}`}>
      <CardHeader title={title} description={description} action={<span className="text-gray-500 [&_svg]:h-5 [&_svg]:w-5">{icon}</span>} />
      <CardBody>
        <Button onClick={run} disabled={running} className="w-full sm:w-auto">
          <IconDownload />
          {running ? "Exporting..." : `Export ${format.toUpperCase()}`}
        </Button>
      </CardBody>
    </Card>
  );
}
