//! The privacy panel's Audit Logs tab: visitors' consent choices and the site's privacy actions (who and when),
//! newest first, a page at a time. Every member reads them.
import { useState } from "react";
import type { AuditEntry } from "../../api/privacy";
import { PAGE_SIZE, useAuditLogs, useConsentLogs } from "../../hooks/privacyPanel";
import { QueryState } from "../page/QueryState";
import { Badge, Button, Card, CardBody, CardHeader } from "../ui/primitives";

function Pager({ page, hasNext, onPage, label }: { page: number; hasNext: boolean; onPage: (p: number) => void; label: string }) {
  if (page === 0 && !hasNext) return null;
  return (
    <nav aria-label={label} className="mt-3 flex items-center justify-end gap-2 text-sm text-gray-400">
      <Button size="sm" variant="outline" disabled={page === 0} onClick={() => onPage(page - 1)}>
        Previous
      </Button>
      <span>Page {page + 1}</span>
      <Button size="sm" variant="outline" disabled={!hasNext} onClick={() => onPage(page + 1)}>
        Next
      </Button>
    </nav>
  );
}

const CONSENT_TONE = { accepted: "green", declined: "red" } as const;

export function ConsentLogCard({ id }: { id: number }) {
  const [page, setPage] = useState(0);
  const logs = useConsentLogs(id, page);
  return (
    <Card>
      <CardHeader title="Consent Log" description="Visitors' consent choices, newest first." />
      <CardBody>
        <QueryState query={logs} isEmpty={(l) => l.length === 0 && page === 0} empty={<p className="py-6 text-center text-sm text-gray-500">No consent choices recorded yet.</p>}>
          {(l) => (
            <>
              <ul className="divide-y divide-gray-800" data-testid="consent-log">
                {l.slice(0, PAGE_SIZE).map((entry) => (
                  <li key={entry.id} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm" data-testid="consent-log-row">
                    <div className="flex items-center gap-2">
                      <Badge tone={CONSENT_TONE[entry.consentType as keyof typeof CONSENT_TONE] ?? "gray"}>{entry.consentType}</Badge>
                      <span className="font-mono text-xs text-gray-400">{entry.sessionId.slice(0, 8)}</span>
                      <span className="text-xs text-gray-500">
                        analytics {entry.consentData.analytics ? "yes" : "no"}, marketing {entry.consentData.marketing ? "yes" : "no"}
                      </span>
                    </div>
                    <span className="text-xs text-gray-500">
                      {entry.ipAddress ?? "no address"} · {new Date(entry.timestamp).toLocaleString()}
                    </span>
                  </li>
                ))}
              </ul>
              <Pager label="Consent log pages" page={page} hasNext={l.length > PAGE_SIZE} onPage={setPage} />
            </>
          )}
        </QueryState>
      </CardBody>
    </Card>
  );
}

const ACTION_LABEL: Record<string, string> = {
  settings_changed: "Settings changed",
  retention_changed: "Retention changed",
  data_deleted: "Data deleted",
  data_exported: "Data exported",
  visitor_exported: "Visitor data exported",
  visitor_deleted: "Visitor data deleted",
};

function detailText(entry: AuditEntry): string {
  if (!entry.detail) return "";
  return Object.entries(entry.detail)
    .map(([k, v]) => `${k}: ${typeof v === "string" ? v : JSON.stringify(v)}`)
    .join(", ");
}

export function AuditCard({ id }: { id: number }) {
  const [page, setPage] = useState(0);
  const audit = useAuditLogs(id, page);
  return (
    <Card>
      <CardHeader title="Privacy Actions" description="Settings changes, deletions and exports of this site: who and when." />
      <CardBody>
        <QueryState query={audit} isEmpty={(a) => a.total === 0} empty={<p className="py-6 text-center text-sm text-gray-500">No privacy actions yet.</p>}>
          {(a) => (
            <>
              <ul className="divide-y divide-gray-800" data-testid="audit-log">
                {a.entries.map((entry) => (
                  <li key={entry.id} className="py-2 text-sm" data-testid="audit-log-row">
                    <div className="flex flex-wrap items-center justify-between gap-2">
                      <span className="font-medium text-gray-200">{ACTION_LABEL[entry.action] ?? entry.action}</span>
                      <span className="text-xs text-gray-500">
                        {entry.actor} · {new Date(entry.timestamp).toLocaleString()}
                      </span>
                    </div>
                    <p className="break-all text-xs text-gray-400">{detailText(entry)}</p>
                  </li>
                ))}
              </ul>
              <Pager label="Privacy action pages" page={page} hasNext={(page + 1) * PAGE_SIZE < a.total} onPage={setPage} />
            </>
          )}
        </QueryState>
      </CardBody>
    </Card>
  );
}
