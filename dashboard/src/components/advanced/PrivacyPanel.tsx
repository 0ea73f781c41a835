//! The privacy panel of Advanced Analytics (spec part 2 "Privacy panel", §3-9): tabs General, Consent,
//! Retention and Audit Logs (values settings, consent, retention, logs; the tab is kept in ?privacy=).
//! Every control saves at once (text and numbers after a pause, and only when valid) and toasts the spec's
//! messages; exports, deletions and one visitor's access or erasure live in General. Below admin on the site
//! (issue 37) the settings show read-only and the deletions are not offered: the daemon refuses them with 403.
import { useEffect, useRef, useState } from "react";
import type { ReactNode } from "react";
import type { Role } from "../../api/members";
import type { DeleteDataType, ExportDataType, FullPrivacySettings, ProcessingBasis, RetentionDays } from "../../api/privacy";
import { useParamState } from "../../hooks/selection";
import {
  errorMessage,
  useDeleteData,
  useDeleteVisitor,
  useExportData,
  useExportVisitor,
  usePanelPrivacySettings,
  useRetention,
  useSavePrivacySettings,
  useSaveRetention,
} from "../../hooks/privacyPanel";
import { atLeast } from "../../lib/roles";
import { COMPLIANCE_SETTINGS, complianceStatus, parseDays, parsePolicyUrl } from "../../lib/privacy";
import { QueryState, SkeletonRows } from "../page/QueryState";
import { useToast } from "../toast/toast";
import { Dialog } from "../ui/Dialog";
import { Switch } from "../ui/Switch";
import { TabsContent, TabsList, TabsRoot, TabsTrigger } from "../ui/Tabs";
import { Badge, Button, Card, CardBody, CardHeader, EmptyState, FieldError, Input, Label, Select } from "../ui/primitives";
import { AuditCard, ConsentLogCard } from "./PrivacyLogs";

/** Pause after the last keystroke before a typed value is saved. */
const SAVE_DELAY_MS = 600;

const TABS = ["settings", "consent", "retention", "logs"] as const;
type Tab = (typeof TABS)[number];

/** `role` is the signed-in account's on the site: only an admin or the owner changes or deletes anything here. */
export function PrivacyPanel({ websiteId, role }: { websiteId: string; role?: Role }) {
  if (!websiteId || websiteId.trim() === "") {
    return <EmptyState title="No Website Selected" description="Please select a website to view privacy controls" />;
  }
  return <PrivacyControls id={Number(websiteId)} admin={atLeast(role, "admin")} />;
}

function PrivacyControls({ id, admin }: { id: number; admin: boolean }) {
  const [tab, setTab] = useParamState<Tab>("privacy", TABS, "settings");
  const settings = usePanelPrivacySettings(id);
  return (
    <div className="space-y-6">
      <QueryState query={settings} skeleton={<SkeletonRows rows={2} className="h-16" />}>
        {(s) => <ComplianceCard settings={s} />}
      </QueryState>
      <TabsRoot value={tab} onChange={setTab}>
        <TabsList className="max-w-full flex-wrap">
          <TabsTrigger value="settings">General</TabsTrigger>
          <TabsTrigger value="consent">Consent</TabsTrigger>
          <TabsTrigger value="retention">Retention</TabsTrigger>
          <TabsTrigger value="logs">Audit Logs</TabsTrigger>
        </TabsList>
        <TabsContent value="settings" className="mt-4">
          <QueryState query={settings}>{(s) => <GeneralTab id={id} settings={s} admin={admin} />}</QueryState>
        </TabsContent>
        <TabsContent value="consent" className="mt-4">
          <QueryState query={settings}>{(s) => <ConsentTab id={id} settings={s} admin={admin} />}</QueryState>
        </TabsContent>
        <TabsContent value="retention" className="mt-4">
          <RetentionTab id={id} admin={admin} />
        </TabsContent>
        <TabsContent value="logs" className="mt-4 space-y-6">
          <ConsentLogCard id={id} />
          <AuditCard id={id} />
        </TabsContent>
      </TabsRoot>
    </div>
  );
}

const LEVEL_TONE = { excellent: "green", good: "blue", fair: "yellow", poor: "red" } as const;
const LEVEL_LABEL = { excellent: "Excellent", good: "Good", fair: "Fair", poor: "Poor" } as const;

function ComplianceCard({ settings }: { settings: FullPrivacySettings }) {
  const { score, level, enabled } = complianceStatus(settings);
  return (
    <Card data-testid="compliance-status">
      <CardBody className="flex flex-wrap items-center justify-between gap-4">
        <div>
          <p className="text-sm text-gray-400">Compliance Status</p>
          <p className="mt-1 text-2xl font-semibold text-white">
            <span data-testid="compliance-level">{LEVEL_LABEL[level]}</span> <span className="text-base text-gray-400">{score}%</span>
          </p>
          <p className="mt-1 text-xs text-gray-500">
            {enabled} of {COMPLIANCE_SETTINGS.length} protections on: consent, IP anonymisation, Do-Not-Track, subject rights, portability, deletion
          </p>
        </div>
        <Badge tone={LEVEL_TONE[level]}>{LEVEL_LABEL[level]}</Badge>
      </CardBody>
    </Card>
  );
}

/** Saves settings with the spec's toasts. */
function useSaver(id: number) {
  const save = useSavePrivacySettings(id);
  const { toast } = useToast();
  return (changes: Partial<FullPrivacySettings>) =>
    save.mutate(changes, {
      onSuccess: () => toast({ title: "Privacy settings updated", description: "Your privacy settings have been saved successfully.", variant: "success" }),
      onError: (e) => toast({ title: "Update failed", description: errorMessage(e), variant: "destructive" }),
    });
}

function ToggleRow({ id, label, hint, checked, onChange }: { id: string; label: string; hint: ReactNode; checked: boolean; onChange: (v: boolean) => void }) {
  return (
    <div className="flex items-start justify-between gap-4 py-3">
      <div className="min-w-0">
        <label htmlFor={id} className="text-sm font-medium text-gray-200">
          {label}
        </label>
        <p className="text-xs text-gray-500">{hint}</p>
      </div>
      <Switch id={id} checked={checked} onCheckedChange={onChange} />
    </div>
  );
}

/**
 * A text or number input that saves `SAVE_DELAY_MS` after the last keystroke when `parse` accepts the text;
 * an unacceptable value shows `invalid` and is never sent. It follows the server's value while not edited.
 */
function DebouncedInput<T>({
  id,
  value,
  parse,
  onSave,
  invalid,
  multiline,
  ...rest
}: {
  id: string;
  value: T;
  parse: (text: string) => T | null;
  onSave: (v: T) => void;
  invalid: string;
  multiline?: boolean;
} & Omit<React.InputHTMLAttributes<HTMLInputElement>, "value" | "onChange" | "id">) {
  const [text, setText] = useState(String(value));
  const [error, setError] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const editing = useRef(false);
  useEffect(() => {
    if (!editing.current) setText(String(value));
  }, [value]);
  useEffect(() => () => clearTimeout(timer.current), []);
  const change = (next: string) => {
    setText(next);
    clearTimeout(timer.current);
    const parsed = parse(next);
    setError(parsed === null);
    if (parsed === null) return;
    editing.current = true;
    timer.current = setTimeout(() => {
      editing.current = false;
      if (parsed !== value) onSave(parsed);
    }, SAVE_DELAY_MS);
  };
  return (
    <>
      {multiline ? (
        <textarea
          id={id}
          value={text}
          maxLength={1000}
          rows={3}
          aria-invalid={error}
          onChange={(e) => change(e.target.value)}
          className="w-full rounded-lg border border-gray-700 bg-gray-900 px-3 py-2 text-sm text-gray-100 focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-500/30"
        />
      ) : (
        <Input id={id} value={text} aria-invalid={error} onChange={(e) => change(e.target.value)} {...rest} />
      )}
      <FieldError>{error ? invalid : undefined}</FieldError>
    </>
  );
}

const DAYS_INVALID = "Enter a whole number of days from 1 to 365";

/** The settings a role below admin reads but may not change: each control inside is disabled. */
function AdminOnly({ admin, children }: { admin: boolean; children: ReactNode }) {
  return (
    <fieldset disabled={!admin} className="min-w-0" data-testid={admin ? undefined : "privacy-read-only"}>
      {children}
    </fieldset>
  );
}

const READ_ONLY = "Only the site's admins and owner change these.";

function GeneralTab({ id, settings, admin }: { id: number; settings: FullPrivacySettings; admin: boolean }) {
  const save = useSaver(id);
  const toggles: { key: keyof FullPrivacySettings; label: string; hint: string }[] = [
    { key: "gdprCompliant", label: "GDPR Compliant", hint: "Mark this site as operated under the GDPR." },
    { key: "anonymizeIPs", label: "Anonymize IP Addresses", hint: "Keep addresses with the last octet (IPv6: last 80 bits) zeroed; off keeps full addresses." },
    { key: "respectDoNotTrack", label: "Respect Do Not Track", hint: "Browsers sending Do-Not-Track or Global Privacy Control are not tracked." },
    { key: "dataSubjectRights", label: "Data Subject Rights", hint: "Allow visitor access and erasure requests (below)." },
    { key: "dataPortability", label: "Data Portability", hint: "Allow exporting one visitor's data (GDPR article 15/20)." },
    { key: "dataDeletion", label: "Data Deletion", hint: "Allow erasing one visitor's data (GDPR article 17)." },
  ];
  return (
    <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
      <AdminOnly admin={admin}>
      <Card>
        <CardHeader title="Privacy Settings" description={admin ? "Changes save immediately." : READ_ONLY} />
        <CardBody className="divide-y divide-gray-800">
          {toggles.map((t) => (
            <ToggleRow
              key={t.key}
              id={`privacy-${t.key}`}
              label={t.label}
              hint={t.hint}
              checked={Boolean(settings[t.key])}
              onChange={(v) => save({ [t.key]: v })}
            />
          ))}
          <div className="grid gap-4 py-3 sm:grid-cols-2">
            <div>
              <Label htmlFor="privacy-dataRetentionDays">Data Retention (days)</Label>
              <DebouncedInput
                id="privacy-dataRetentionDays"
                type="number"
                min={1}
                max={365}
                inputMode="numeric"
                value={settings.dataRetentionDays}
                parse={parseDays}
                invalid={DAYS_INVALID}
                onSave={(v) => save({ dataRetentionDays: v })}
              />
            </div>
            <div>
              <Label htmlFor="privacy-basis">Data Processing Basis</Label>
              <Select id="privacy-basis" value={settings.dataProcessingBasis} onChange={(e) => save({ dataProcessingBasis: e.target.value as ProcessingBasis })}>
                <option value="consent">Consent</option>
                <option value="legitimate_interest">Legitimate Interest</option>
                <option value="contract">Contract</option>
              </Select>
            </div>
          </div>
        </CardBody>
      </Card>
      </AdminOnly>
      <div className="space-y-6">
        <DataExportCard id={id} />
        {admin && <DataDeletionCard id={id} />}
        <VisitorRequestCard id={id} settings={settings} admin={admin} />
      </div>
    </div>
  );
}

function DataExportCard({ id }: { id: number }) {
  const exporter = useExportData(id);
  const { toast } = useToast();
  const run = (type: ExportDataType) =>
    exporter.mutate(type, {
      onSuccess: () => toast({ title: "Data exported", description: `Your ${type} data has been exported successfully.`, variant: "success" }),
      onError: (e) => toast({ title: "Export failed", description: errorMessage(e), variant: "destructive" }),
    });
  return (
    <Card>
      <CardHeader title="Data Export" description="Download the site's data as JSON." />
      <CardBody className="flex flex-wrap gap-2">
        <Button variant="outline" disabled={exporter.isPending} onClick={() => run("pageviews")}>
          Export Pageviews
        </Button>
        <Button variant="outline" disabled={exporter.isPending} onClick={() => run("events")}>
          Export Events
        </Button>
        <Button variant="outline" disabled={exporter.isPending} onClick={() => run("sessions")}>
          Export Sessions
        </Button>
      </CardBody>
    </Card>
  );
}

function DataDeletionCard({ id }: { id: number }) {
  const [type, setType] = useState<DeleteDataType>("pageviews");
  const [confirming, setConfirming] = useState(false);
  const deleter = useDeleteData(id);
  const { toast } = useToast();
  const run = () =>
    deleter.mutate(type, {
      onSuccess: (r) => {
        setConfirming(false);
        toast({ title: "Data deletion initiated", description: `${r.recordsDeleted} records have been deleted.`, variant: "success" });
      },
      onError: (e) => {
        setConfirming(false);
        toast({ title: "Deletion failed", description: errorMessage(e), variant: "destructive" });
      },
    });
  const label = { pageviews: "page views", events: "events", all: "all data" }[type];
  return (
    <Card>
      <CardHeader title="Data Deletion" description="Delete the site's stored data. Aggregates are recomputed." />
      <CardBody className="flex flex-wrap items-end gap-2">
        <div className="w-44">
          <Label htmlFor="privacy-delete-type">Data type</Label>
          <Select id="privacy-delete-type" value={type} onChange={(e) => setType(e.target.value as DeleteDataType)}>
            <option value="pageviews">Pageviews</option>
            <option value="events">Events</option>
            <option value="all">All data</option>
          </Select>
        </div>
        <Button variant="danger" onClick={() => setConfirming(true)}>
          Delete Data
        </Button>
        <Dialog
          open={confirming}
          onClose={() => setConfirming(false)}
          title="Delete data?"
          description={`This deletes ${label} of this website. It cannot be undone.`}
          footer={
            <>
              <Button variant="ghost" onClick={() => setConfirming(false)}>
                Cancel
              </Button>
              <Button variant="danger" disabled={deleter.isPending} onClick={run}>
                Delete {label}
              </Button>
            </>
          }
        >
          <p className="text-sm text-gray-400">Rollups of the days touched are recomputed from what remains.</p>
        </Dialog>
      </CardBody>
    </Card>
  );
}

function VisitorRequestCard({ id, settings, admin }: { id: number; settings: FullPrivacySettings; admin: boolean }) {
  const [visitor, setVisitor] = useState("");
  const [confirming, setConfirming] = useState(false);
  const exporter = useExportVisitor(id);
  const deleter = useDeleteVisitor(id);
  const { toast } = useToast();
  const trimmed = visitor.trim();
  const canExport = settings.dataSubjectRights && settings.dataPortability;
  const canDelete = settings.dataSubjectRights && settings.dataDeletion;
  const why = !settings.dataSubjectRights
    ? "Turn on Data Subject Rights to answer visitor requests."
    : !canExport || !canDelete
      ? `${!canExport ? "Data Portability" : "Data Deletion"} is off, so that request is unavailable.`
      : "By session id or the id your site passed to identify() (id, userId or email).";
  return (
    <Card>
      <CardHeader title="Visitor Requests" description="Access (GDPR art. 15) and erasure (art. 17) of one visitor's data." />
      <CardBody className="space-y-3">
        <div>
          <Label htmlFor="privacy-visitor-id">Visitor ID</Label>
          <Input id="privacy-visitor-id" value={visitor} maxLength={200} placeholder="session id or identify() id" onChange={(e) => setVisitor(e.target.value)} />
          <p className="mt-1.5 text-xs text-gray-500" data-testid="visitor-rights-hint">
            {why}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button
            variant="outline"
            disabled={!canExport || !trimmed || exporter.isPending}
            onClick={() =>
              exporter.mutate(trimmed, {
                onSuccess: () => toast({ title: "Data exported", description: `The data of visitor ${trimmed} has been exported successfully.`, variant: "success" }),
                onError: (e) => toast({ title: "Export failed", description: errorMessage(e), variant: "destructive" }),
              })
            }
          >
            Export Visitor Data
          </Button>
          {admin && (
            <Button variant="danger" disabled={!canDelete || !trimmed} onClick={() => setConfirming(true)}>
              Delete Visitor Data
            </Button>
          )}
        </div>
        <Dialog
          open={confirming}
          onClose={() => setConfirming(false)}
          title="Delete this visitor's data?"
          description={`Everything stored about visitor ${trimmed}: visits, events, heatmap interactions, recordings and consent choices.`}
          footer={
            <>
              <Button variant="ghost" onClick={() => setConfirming(false)}>
                Cancel
              </Button>
              <Button
                variant="danger"
                disabled={deleter.isPending}
                onClick={() =>
                  deleter.mutate(trimmed, {
                    onSuccess: (r) => {
                      setConfirming(false);
                      toast({ title: "Data deletion initiated", description: `${r.recordsDeleted} records have been deleted.`, variant: "success" });
                    },
                    onError: (e) => {
                      setConfirming(false);
                      toast({ title: "Deletion failed", description: errorMessage(e), variant: "destructive" });
                    },
                  })
                }
              >
                Delete visitor
              </Button>
            </>
          }
        >
          <p className="text-sm text-gray-400">It cannot be undone.</p>
        </Dialog>
      </CardBody>
    </Card>
  );
}

function ConsentTab({ id, settings, admin }: { id: number; settings: FullPrivacySettings; admin: boolean }) {
  const save = useSaver(id);
  return (
    <AdminOnly admin={admin}>
    <Card>
      <CardHeader title="Consent Management" description={admin ? "What the tracking script's consent API serves your site's banner." : READ_ONLY} />
      <CardBody className="space-y-4">
        <ToggleRow
          id="privacy-cookieConsent"
          label="Cookie Consent Required"
          hint="Until a visitor accepts analytics, only anonymous page counts are kept."
          checked={settings.cookieConsent}
          onChange={(v) => save({ cookieConsent: v })}
        />
        <div>
          <Label htmlFor="privacy-consentMessage">Consent Message</Label>
          <DebouncedInput
            id="privacy-consentMessage"
            multiline
            value={settings.consentMessage}
            parse={(t) => (t.length <= 1000 ? t : null)}
            invalid="At most 1000 characters"
            onSave={(v) => save({ consentMessage: v })}
          />
        </div>
        <div>
          <Label htmlFor="privacy-policyUrl">Privacy Policy URL</Label>
          <DebouncedInput
            id="privacy-policyUrl"
            type="url"
            placeholder="https://example.com/privacy"
            value={settings.privacyPolicyUrl}
            parse={parsePolicyUrl}
            invalid="Enter an http:// or https:// address"
            onSave={(v) => save({ privacyPolicyUrl: v })}
          />
        </div>
      </CardBody>
    </Card>
    </AdminOnly>
  );
}

const RETENTION_FIELDS: { key: keyof RetentionDays; label: string }[] = [
  { key: "pageviews", label: "Pageviews" },
  { key: "events", label: "Events" },
  { key: "sessions", label: "Sessions" },
  { key: "heatmaps", label: "Heatmaps" },
  { key: "recordings", label: "Recordings" },
  { key: "conversions", label: "Conversions" },
];

function RetentionTab({ id, admin }: { id: number; admin: boolean }) {
  const retention = useRetention(id);
  const save = useSaveRetention(id);
  const { toast } = useToast();
  return (
    <AdminOnly admin={admin}>
    <Card>
      <CardHeader title="Data Retention" description={admin ? "Raw data older than these days is deleted by the retention job; aggregates stay." : READ_ONLY} />
      <CardBody>
        <QueryState query={retention}>
          {(r) => (
            <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
              {RETENTION_FIELDS.map((f) => (
                <div key={f.key}>
                  <Label htmlFor={`retention-${f.key}`}>{f.label} (days)</Label>
                  <DebouncedInput
                    id={`retention-${f.key}`}
                    type="number"
                    min={1}
                    max={365}
                    inputMode="numeric"
                    value={r[f.key]}
                    parse={parseDays}
                    invalid={DAYS_INVALID}
                    onSave={(v) =>
                      save.mutate(
                        { [f.key]: v },
                        {
                          onSuccess: () => toast({ title: "Privacy settings updated", description: "Your privacy settings have been saved successfully.", variant: "success" }),
                          onError: (e) => toast({ title: "Update failed", description: errorMessage(e), variant: "destructive" }),
                        },
                      )
                    }
                  />
                </div>
              ))}
            </div>
          )}
        </QueryState>
      </CardBody>
    </Card>
    </AdminOnly>
  );
}
