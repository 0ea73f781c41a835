//! All Sites (/basic-dashboard): search, Pageviews/Visitors selector, per-period figures from the server,
//! row menu Edit / Get Code / Delete, selection checkboxes.
import { useEffect, useMemo, useRef, useState } from "react";
import { Link } from "react-router-dom";
import type { SiteMetric, Website } from "../api/types";
import { useSitesPeriods } from "../hooks/analytics";
import { useParamState } from "../hooks/selection";
import { useWebsites } from "../hooks/websites";
import { formatNumber } from "../lib/format";
import { filterWebsites, periodsBySite } from "../lib/sites";
import { TrackingCodeDialog } from "../components/TrackingCodeDialog";
import { DeleteWebsiteDialog, WebsiteFormDialog } from "../components/WebsiteDialogs";
import { atLeast } from "../lib/roles";
import { IconCode, IconEdit, IconGlobe, IconMore, IconPlus, IconSearch, IconTrash } from "../components/ui/icons";
import { Menu } from "../components/ui/Menu";
import { QueryState } from "../components/page/QueryState";
import { Button, Card, EmptyState, ErrorNote, Input, PageHeader, Select, Skeleton } from "../components/ui/primitives";

const METRICS = ["pageviews", "visitors"] as const;

function Checkbox({ checked, indeterminate, onChange, label }: { checked: boolean; indeterminate?: boolean; onChange: (v: boolean) => void; label: string }) {
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = !!indeterminate;
  }, [indeterminate]);
  return (
    <input
      ref={ref}
      type="checkbox"
      aria-label={label}
      checked={checked}
      onChange={(e) => onChange(e.target.checked)}
      className="h-4 w-4 cursor-pointer rounded border-gray-600 bg-gray-900 accent-indigo-500"
    />
  );
}

export default function AllSitesPage() {
  const websites = useWebsites();
  const [metric, setMetric] = useParamState<SiteMetric>("metric", METRICS, "pageviews");
  const periods = useSitesPeriods(metric);
  const [query, setQuery] = useState("");
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [formOpen, setFormOpen] = useState(false);
  const [editing, setEditing] = useState<Website | undefined>();
  const [codeFor, setCodeFor] = useState<Website | undefined>();
  const [deleting, setDeleting] = useState<Website | undefined>();

  const rows = useMemo(() => filterWebsites(websites.data ?? [], query), [websites.data, query]);
  const figures = useMemo(() => periodsBySite(periods.data), [periods.data]);
  const allSelected = rows.length > 0 && rows.every((r) => selected.has(r.id));
  const someSelected = rows.some((r) => selected.has(r.id));

  function toggle(id: number, on: boolean) {
    setSelected((prev) => {
      const next = new Set(prev);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  }

  function openAdd() {
    setEditing(undefined);
    setFormOpen(true);
  }

  const cell = (id: number, key: "today" | "yesterday" | "last7Days" | "last30Days") => {
    if (periods.isPending) return <Skeleton className="ml-auto h-4 w-10" />;
    const row = figures.get(id);
    return row ? formatNumber(row[key]) : <span className="text-gray-600">-</span>;
  };

  return (
    <>
      <PageHeader
        title="All Sites"
        description="Manage all your tracked websites in one place."
        actions={
          <Button onClick={openAdd}>
            <IconPlus />
            Add Website
          </Button>
        }
      />
      <QueryState
        query={websites}
        skeleton={<Skeleton className="h-64 w-full" />}
        isEmpty={(list) => list.length === 0}
        empty={
          <Card>
            <EmptyState
              icon={<IconGlobe />}
              title="No websites yet"
              description="Add a website to see its traffic here."
              action={
                <Button onClick={openAdd}>
                  <IconPlus />
                  Add Your First Website
                </Button>
              }
            />
          </Card>
        }
      >
        {() => (
          <Card>
            <div className="flex flex-wrap items-center justify-between gap-3 border-b border-gray-800 p-4">
              <div className="relative w-full max-w-xs">
                <IconSearch className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-gray-500" />
                <Input className="pl-9" placeholder="Search websites..." value={query} onChange={(e) => setQuery(e.target.value)} aria-label="Search websites" />
              </div>
              <div className="flex items-center gap-3">
                {someSelected && <span className="text-sm text-gray-400">{rows.filter((r) => selected.has(r.id)).length} selected</span>}
                <Select aria-label="Metric" className="w-40" value={metric} onChange={(e) => setMetric(e.target.value as SiteMetric)}>
                  <option value="pageviews">Pageviews</option>
                  <option value="visitors">Visitors</option>
                </Select>
              </div>
            </div>
            {periods.error ? (
              <div className="p-4">
                <ErrorNote error={periods.error} onRetry={() => void periods.refetch()} />
              </div>
            ) : null}
            <div className="overflow-x-auto">
              <table className="w-full text-sm" data-testid="sites-table">
                <thead>
                  <tr className="border-b border-gray-800 text-left text-xs uppercase tracking-wide text-gray-500">
                    <th className="w-10 px-4 py-3">
                      <Checkbox
                        label="Select all websites"
                        checked={allSelected}
                        indeterminate={someSelected && !allSelected}
                        onChange={(on) => setSelected(on ? new Set(rows.map((r) => r.id)) : new Set())}
                      />
                    </th>
                    <th className="px-4 py-3 font-medium">Website Name</th>
                    <th className="px-4 py-3 text-right font-medium">Today</th>
                    <th className="px-4 py-3 text-right font-medium">Yesterday</th>
                    <th className="px-4 py-3 text-right font-medium">Last 7 Days</th>
                    <th className="px-4 py-3 text-right font-medium">Last 30 Days</th>
                    <th className="w-12 px-4 py-3" />
                  </tr>
                </thead>
                <tbody className="divide-y divide-gray-800/70">
                  {rows.length === 0 ? (
                    <tr>
                      <td colSpan={7} className="px-4 py-10 text-center text-gray-500">
                        No websites match "{query}"
                      </td>
                    </tr>
                  ) : (
                    rows.map((site) => (
                      <tr key={site.id} className="hover:bg-gray-800/30" data-testid="site-row">
                        <td className="px-4 py-3">
                          <Checkbox label={`Select ${site.name}`} checked={selected.has(site.id)} onChange={(on) => toggle(site.id, on)} />
                        </td>
                        <td className="px-4 py-3">
                          <Link to={`/dashboard?website=${site.id}`} className="font-medium text-gray-100 hover:text-indigo-300">
                            {site.name}
                          </Link>
                          <p className="text-xs text-gray-500">{site.domain}</p>
                        </td>
                        <td className="px-4 py-3 text-right tabular-nums text-gray-200">{cell(site.id, "today")}</td>
                        <td className="px-4 py-3 text-right tabular-nums text-gray-200">{cell(site.id, "yesterday")}</td>
                        <td className="px-4 py-3 text-right tabular-nums text-gray-200">{cell(site.id, "last7Days")}</td>
                        <td className="px-4 py-3 text-right tabular-nums text-gray-200">{cell(site.id, "last30Days")}</td>
                        <td className="px-4 py-3 text-right">
                          <Menu
                            label={`Actions for ${site.name}`}
                            trigger={<IconMore className="h-4 w-4" />}
                            items={[
                              // What the caller's role on the site allows: edits from admin, deletion by the owner.
                              ...(atLeast(site.role, "admin") ? [{ label: "Edit", icon: <IconEdit />, onSelect: () => { setEditing(site); setFormOpen(true); } }] : []),
                              { label: "Get Code", icon: <IconCode />, onSelect: () => setCodeFor(site) },
                              ...(site.role === "owner" ? [{ label: "Delete", icon: <IconTrash />, danger: true, onSelect: () => setDeleting(site) }] : []),
                            ]}
                          />
                        </td>
                      </tr>
                    ))
                  )}
                </tbody>
              </table>
            </div>
          </Card>
        )}
      </QueryState>
      <WebsiteFormDialog open={formOpen} onClose={() => setFormOpen(false)} website={editing} />
      <TrackingCodeDialog website={codeFor} open={!!codeFor} onClose={() => setCodeFor(undefined)} />
      <DeleteWebsiteDialog website={deleting} onClose={() => setDeleting(undefined)} />
    </>
  );
}
