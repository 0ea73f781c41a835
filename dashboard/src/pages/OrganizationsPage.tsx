//! Organizations (/organizations, spec part 2): 'Organization Intelligence' with website and sort (sessions,
//! recent, name A-Z, confidence), four cards, the table with Visit and Edit, and the insights panel. Names come
//! from the offline ASN data; domain, industry and size are the owner's (edited here or imported with
//! `tracker orgs import`). Edit is offered to editors and up on the site (issue 37); a viewer reads.
import { useState } from "react";
import type { Organization } from "../api/organizations";
import { MetricCard } from "../components/MetricCard";
import { OrganizationDialog } from "../components/organizations/OrganizationDialog";
import { QueryState, SkeletonRows } from "../components/page/QueryState";
import { SitePage } from "../components/page/SitePage";
import { IconActivity, IconBuilding, IconEdit, IconExternal, IconTarget, IconUsers } from "../components/ui/icons";
import { Badge, Button, Card, CardBody, CardHeader, EmptyState, Select } from "../components/ui/primitives";
import { useOrganizations } from "../hooks/organizations";
import { useParamState } from "../hooks/selection";
import { atLeast } from "../lib/roles";
import { countryName, formatNumber } from "../lib/format";
import { HIGH_CONFIDENCE, confidenceTone, organizationStats, sizeLabel, sortOrganizations, visitUrl } from "../lib/organizations";
import type { OrganizationSort } from "../lib/organizations";
import { relativeTime } from "../lib/time";

const SORTS: { value: OrganizationSort; label: string }[] = [
  { value: "sessions", label: "Sessions" },
  { value: "recent", label: "Recent" },
  { value: "name", label: "Name A-Z" },
  { value: "confidence", label: "Confidence" },
];
const SORT_VALUES = SORTS.map((s) => s.value);

export default function OrganizationsPage() {
  const [sort, setSort] = useParamState<OrganizationSort>("sort", SORT_VALUES, "sessions");
  return (
    <SitePage
      title="Organization Intelligence"
      description="Companies and institutions whose networks visited your site"
      actions={() => (
        <Select aria-label="Sort by" className="w-40" value={sort} onChange={(e) => setSort(e.target.value as OrganizationSort)}>
          {SORTS.map((s) => (
            <option key={s.value} value={s.value}>
              {s.label}
            </option>
          ))}
        </Select>
      )}
    >
      {({ website }) => <OrganizationsBody websiteId={website.id} editable={atLeast(website.role, "editor")} sort={sort} />}
    </SitePage>
  );
}

function OrganizationsBody({ websiteId, editable, sort }: { websiteId: number; editable: boolean; sort: OrganizationSort }) {
  const orgs = useOrganizations(websiteId);
  const [editing, setEditing] = useState<Organization | null>(null);
  const stats = organizationStats(orgs.data ?? []);
  const loading = orgs.isPending;
  return (
    <div className="space-y-6">
      <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        <MetricCard title="Total Organizations" value={formatNumber(stats.total)} caption="Identified networks" icon={<IconBuilding />} loading={loading} />
        <MetricCard title="Enterprise Visitors" value={formatNumber(stats.enterpriseVisitors)} caption="Sessions from organizations you marked enterprise" icon={<IconUsers />} loading={loading} />
        <MetricCard title="B2B Sessions" value={formatNumber(stats.b2bSessions)} caption="Sessions from all organizations" icon={<IconActivity />} loading={loading} />
        <MetricCard title="Avg Confidence" value={`${stats.averageConfidence}%`} caption="How sure the network is theirs" icon={<IconTarget />} loading={loading} />
      </div>
      <Card data-testid="organizations-table">
        <CardHeader title="Organizations" description="Names from the network registry; domain, industry and size are what you add" />
        <CardBody>
          <QueryState
            query={orgs}
            skeleton={<SkeletonRows rows={4} />}
            isEmpty={(list) => list.length === 0}
            empty={
              <EmptyState
                icon={<IconBuilding />}
                title="No organizations detected yet"
                description="Visits from company and institution networks show here on sites with the professional tracking level. Internet providers, mobile carriers and hosting networks are not counted."
              />
            }
          >
            {(list) => <OrganizationTable list={sortOrganizations(list, sort)} onEdit={editable ? setEditing : undefined} />}
          </QueryState>
        </CardBody>
      </Card>
      {orgs.data && orgs.data.length > 0 && (
        <Card data-testid="organization-insights">
          <CardHeader title="Insights" />
          <CardBody className="grid gap-4 sm:grid-cols-3">
            <Insight label="Enterprise share" value={`${stats.enterpriseShare}%`} />
            <Insight label={`High confidence (${HIGH_CONFIDENCE}%+)`} value={formatNumber(stats.highConfidence)} />
            <Insight label="Industries" value={formatNumber(stats.industries)} />
          </CardBody>
        </Card>
      )}
      <OrganizationDialog websiteId={websiteId} org={editing} onClose={() => setEditing(null)} />
    </div>
  );
}

function Insight({ label, value }: { label: string; value: string }) {
  return (
    <div className="rounded-lg border border-gray-800 px-4 py-3" data-testid={`insight-${label}`}>
      <p className="text-xs text-gray-400">{label}</p>
      <p className="mt-1 text-xl font-semibold text-white">{value}</p>
    </div>
  );
}

const TONE_TEXT = { green: "text-emerald-400", yellow: "text-amber-300", red: "text-red-400" };

/** `onEdit` is absent for a role that may not change organizations (a viewer): the rows have no Edit then. */
function OrganizationTable({ list, onEdit }: { list: Organization[]; onEdit?: (o: Organization) => void }) {
  return (
    <div className="relative -mx-5 overflow-x-auto px-5">
      <table className="w-full min-w-[760px] text-left text-sm">
        <thead className="text-xs uppercase tracking-wide text-gray-500">
          <tr>
            <th className="pb-3 pr-3 font-medium">Organization</th>
            <th className="pb-3 pr-3 font-medium">Industry</th>
            <th className="pb-3 pr-3 font-medium">Size</th>
            <th className="pb-3 pr-3 font-medium">Location</th>
            <th className="pb-3 pr-3 text-right font-medium">Sessions</th>
            <th className="pb-3 pr-3 text-right font-medium">Confidence</th>
            <th className="pb-3 pr-3 font-medium">Last Seen</th>
            <th className="pb-3">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-gray-800">
          {list.map((o) => {
            const url = visitUrl(o.domain);
            return (
              <tr key={o.id} data-testid="organization-row">
                <td className="py-3 pr-3">
                  <p className="font-medium text-white">{o.organizationName}</p>
                  <p className="text-xs text-gray-500">{o.domain ?? "Domain unknown"}</p>
                </td>
                <td className="py-3 pr-3 text-gray-300">{o.industry ?? <span className="text-gray-500">Unknown</span>}</td>
                <td className="py-3 pr-3">
                  <Badge tone={o.size === "enterprise" ? "indigo" : "gray"}>{sizeLabel(o.size)}</Badge>
                </td>
                <td className="py-3 pr-3 text-gray-300">{o.location ? countryName(o.location) : "Unknown"}</td>
                <td className="py-3 pr-3 text-right text-gray-200">{formatNumber(o.sessionCount)}</td>
                <td className={`py-3 pr-3 text-right font-medium ${TONE_TEXT[confidenceTone(o.confidence)]}`}>{o.confidence}%</td>
                <td className="py-3 pr-3 text-gray-400">{relativeTime(o.lastSeen)}</td>
                <td className="py-3">
                  <div className="flex justify-end gap-1">
                    {onEdit && (
                      <Button variant="ghost" size="sm" aria-label={`Edit ${o.organizationName}`} onClick={() => onEdit(o)}>
                        <IconEdit /> Edit
                      </Button>
                    )}
                    {url && (
                      <a
                        href={url}
                        target="_blank"
                        rel="noopener noreferrer"
                        className="inline-flex h-8 items-center gap-1.5 rounded-lg border border-gray-700 px-3 text-xs font-medium text-gray-100 hover:bg-gray-800 [&_svg]:h-4 [&_svg]:w-4"
                      >
                        <IconExternal /> Visit
                      </a>
                    )}
                  </div>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
