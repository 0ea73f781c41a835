//! Settings, Import: another tool's export into one of the user's websites (POST /api/websites/{id}/imports,
//! API.md "Importing from the dashboard"). Pick the site and the tool, choose the file, watch the upload's
//! progress, then read the report: rows, days, rows left out and why, rows that could not be read. Only the
//! sites the account is an admin or owner of are offered (issue 37: importing is an admin's).
import { useState } from "react";
import { uploadImport } from "../../api/imports";
import type { ImportReport, ImportSource } from "../../api/types";
import { useWebsites } from "../../hooks/websites";
import { serverMessage } from "../../lib/errors";
import { formatNumber } from "../../lib/format";
import { atLeast } from "../../lib/roles";
import { Button, Card, CardBody, CardHeader, FieldError, Label, Select } from "../ui/primitives";

const TOOLS: { value: ImportSource; label: string; file: string }[] = [
  { value: "plausible", label: "Plausible", file: "the CSV export's zip (Site settings > Imports & Exports)" },
  { value: "umami", label: "Umami", file: "the events CSV (website_event with its session's columns; see README)" },
  { value: "goatcounter", label: "GoatCounter", file: "the CSV export, plain or .csv.gz" },
];

type Stage = { kind: "idle" } | { kind: "uploading"; sent: number; total: number } | { kind: "importing" };

export function ImportTab() {
  const websites = useWebsites();
  const [siteId, setSiteId] = useState<number | null>(null);
  const [tool, setTool] = useState<ImportSource>("plausible");
  const [file, setFile] = useState<File | null>(null);
  const [stage, setStage] = useState<Stage>({ kind: "idle" });
  const [report, setReport] = useState<ImportReport | null>(null);
  const [error, setError] = useState<string | null>(null);
  const sites = (websites.data ?? []).filter((s) => atLeast(s.role, "admin"));
  const site = siteId ?? sites[0]?.id ?? null;
  const busy = stage.kind !== "idle";

  async function start() {
    if (site === null || !file) return;
    setReport(null);
    setError(null);
    setStage({ kind: "uploading", sent: 0, total: file.size });
    try {
      const done = await uploadImport(site, tool, file, (sent, total) =>
        setStage(sent >= total ? { kind: "importing" } : { kind: "uploading", sent, total }),
      );
      setReport(done);
    } catch (e) {
      setError(serverMessage(e));
    } finally {
      setStage({ kind: "idle" });
    }
  }

  const percent = stage.kind === "uploading" && stage.total > 0 ? Math.floor((stage.sent / stage.total) * 100) : 100;
  return (
    <Card>
      <CardHeader title="Import" description="Bring a website's history over from Plausible, Umami or GoatCounter" />
      <CardBody className="space-y-4">
        <div className="grid gap-4 sm:grid-cols-2">
          <div>
            <Label htmlFor="import-site">Website</Label>
            <Select id="import-site" value={site ?? ""} onChange={(e) => setSiteId(Number(e.target.value))} disabled={busy}>
              {sites.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name} ({s.domain})
                </option>
              ))}
            </Select>
          </div>
          <div>
            <Label htmlFor="import-tool">From</Label>
            <Select id="import-tool" value={tool} onChange={(e) => setTool(e.target.value as ImportSource)} disabled={busy}>
              {TOOLS.map((t) => (
                <option key={t.value} value={t.value}>
                  {t.label}
                </option>
              ))}
            </Select>
          </div>
        </div>
        <div>
          <Label htmlFor="import-file">Export file</Label>
          <input
            id="import-file"
            type="file"
            accept=".zip,.csv,.gz"
            disabled={busy}
            onChange={(e) => setFile(e.target.files?.[0] ?? null)}
            className="block w-full text-sm text-gray-300 file:mr-3 file:rounded-lg file:border-0 file:bg-gray-800 file:px-3 file:py-2 file:text-gray-100"
          />
          <p className="mt-1.5 text-xs text-gray-500">{TOOLS.find((t) => t.value === tool)?.label}: {TOOLS.find((t) => t.value === tool)?.file}</p>
        </div>
        <Button onClick={() => void start()} disabled={busy || site === null || !file}>
          {busy ? "Importing..." : "Import"}
        </Button>
        {busy && (
          <div>
            <div role="progressbar" aria-label="Upload" aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent} className="h-2 w-full overflow-hidden rounded bg-gray-800">
              <div className="h-full bg-indigo-500 transition-all" style={{ width: `${percent}%` }} />
            </div>
            <p className="mt-1.5 text-xs text-gray-400">
              {stage.kind === "uploading" ? `Uploading ${percent}%` : "Uploaded; importing the rows..."}
            </p>
          </div>
        )}
        <FieldError>{error}</FieldError>
        {report && <ImportSummary report={report} />}
      </CardBody>
    </Card>
  );
}

function ImportSummary({ report }: { report: ImportReport }) {
  const rows: [string, string][] = [
    ["Rows imported", formatNumber(report.rows)],
    ["Days", report.firstDay === report.lastDay ? report.firstDay : `${report.firstDay} to ${report.lastDay}`],
    ["Page views", formatNumber(report.pageviews)],
    ["Visits", formatNumber(report.visits)],
    ["Rows left out", formatNumber(report.ignored)],
    ["Rows that could not be read", formatNumber(report.badRows)],
  ];
  return (
    <div data-testid="import-report" className="rounded-lg border border-gray-800 p-4 text-sm">
      <p className="mb-2 font-medium text-gray-100">Imported {report.fileName}</p>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-1">
        {rows.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="text-gray-400">{label}</dt>
            <dd className="text-gray-100">{value}</dd>
          </div>
        ))}
      </dl>
      {report.ignoredReasons.length > 0 && (
        <ul className="mt-2 list-disc pl-5 text-xs text-gray-400">
          {report.ignoredReasons.map((r) => (
            <li key={r.reason}>
              {formatNumber(r.rows)} left out: {r.reason}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
