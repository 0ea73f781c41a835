//! Your Websites (/websites): the account's open invitations, the card grid (its own sites and those shared with
//! it, each with its role), add dialog, tracking code dialog, members (admin and up), share links (admin and up),
//! delete (the owner), and on a shared site's card the member's own emails of it.
import { useState } from "react";
import { Link } from "react-router-dom";
import type { Website } from "../api/types";
import { useWebsites } from "../hooks/websites";
import { formatDate } from "../lib/time";
import { trackingLevelInfo } from "../lib/website";
import { ShareDialog } from "../components/ShareDialog";
import { TrackingCodeDialog } from "../components/TrackingCodeDialog";
import { AddWebsiteDialog, DeleteWebsiteDialog } from "../components/WebsiteDialogs";
import { MemberEmails } from "../components/members/MemberEmails";
import { MembersDialog } from "../components/members/MembersDialog";
import { PendingInvitations } from "../components/members/PendingInvitations";
import { atLeast, ROLE_LABELS } from "../lib/roles";
import { IconChart, IconCode, IconGlobe, IconPlus, IconShare, IconTrash, IconUsers } from "../components/ui/icons";
import { QueryState } from "../components/page/QueryState";
import { Badge, Button, Card, EmptyState, PageHeader, Skeleton } from "../components/ui/primitives";

export default function WebsitesPage() {
  const websites = useWebsites();
  const [adding, setAdding] = useState(false);
  const [codeFor, setCodeFor] = useState<Website | undefined>();
  const [deleting, setDeleting] = useState<Website | undefined>();
  const [team, setTeam] = useState<Website | undefined>();
  const [sharing, setSharing] = useState<Website | undefined>();

  return (
    <>
      <PageHeader
        title="Your Websites"
        description="Manage your tracked websites and their tracking codes"
        actions={
          <Button onClick={() => setAdding(true)}>
            <IconPlus />
            Add Website
          </Button>
        }
      />
      <PendingInvitations />
      <QueryState
        query={websites}
        skeleton={
          <div className="grid gap-4 md:grid-cols-2 lg:grid-cols-3">
            {[0, 1, 2].map((i) => (
              <Skeleton key={i} className="h-48" />
            ))}
          </div>
        }
        isEmpty={(list) => list.length === 0}
        empty={
          <Card>
            <EmptyState
              icon={<IconGlobe />}
              title="No websites yet"
              description="Get started by adding your first website..."
              action={
                <Button onClick={() => setAdding(true)}>
                  <IconPlus />
                  Add Website
                </Button>
              }
            />
          </Card>
        }
      >
        {(list) => (
          <div className="grid gap-4 md:grid-cols-2 lg:grid-cols-3" data-testid="website-grid">
            {list.map((site) => (
              <Card key={site.id} className="flex flex-col p-5 transition-colors hover:border-gray-700" data-testid="website-card">
                <div className="flex items-start justify-between gap-3">
                  <div className="min-w-0">
                    <h3 className="truncate text-base font-semibold text-white">{site.name}</h3>
                    <p className="truncate text-sm text-gray-400">{site.domain}</p>
                  </div>
                  {site.role === "owner" ? <Badge tone="green">Active</Badge> : <Badge tone="gray">{ROLE_LABELS[site.role]}</Badge>}
                </div>
                <dl className="mt-4 space-y-2 text-sm">
                  <div className="flex justify-between gap-2">
                    <dt className="text-gray-500">Created</dt>
                    <dd className="text-gray-300">{formatDate(site.createdAt)}</dd>
                  </div>
                  <div className="flex justify-between gap-2">
                    <dt className="text-gray-500">Tracking</dt>
                    <dd className="text-gray-300">{trackingLevelInfo(site.trackingLevel).label}</dd>
                  </div>
                  <div>
                    <dt className="text-gray-500">Tracking key</dt>
                    <dd className="mt-1 truncate rounded-md bg-gray-950 px-2 py-1 font-mono text-xs text-gray-300">{site.trackingKey}</dd>
                  </div>
                </dl>
                {site.role !== "owner" && <MemberEmails site={site.id} name={site.name} />}
                <div className="mt-5 flex flex-wrap items-center gap-2 border-t border-gray-800 pt-4">
                  <Button size="sm" variant="outline" onClick={() => setCodeFor(site)}>
                    <IconCode />
                    Get Code
                  </Button>
                  {atLeast(site.role, "admin") && (
                    <Button size="sm" variant="outline" onClick={() => setSharing(site)}>
                      <IconShare />
                      Share
                    </Button>
                  )}
                  <Link to={`/dashboard?website=${site.id}`} className="inline-flex h-8 items-center gap-1.5 rounded-lg px-3 text-xs font-medium text-gray-300 hover:bg-gray-800 hover:text-white">
                    <IconChart className="h-4 w-4" />
                    Analytics
                  </Link>
                  {atLeast(site.role, "admin") && (
                    <Button size="icon" variant="ghost" className="ml-auto text-gray-500 hover:text-white" aria-label={`Members of ${site.name}`} onClick={() => setTeam(site)}>
                      <IconUsers />
                    </Button>
                  )}
                  {site.role === "owner" && (
                    <Button size="icon" variant="ghost" className="text-gray-500 hover:text-red-400" aria-label={`Delete ${site.name}`} onClick={() => setDeleting(site)}>
                      <IconTrash />
                    </Button>
                  )}
                </div>
              </Card>
            ))}
          </div>
        )}
      </QueryState>
      <AddWebsiteDialog open={adding} onClose={() => setAdding(false)} />
      <TrackingCodeDialog website={codeFor} open={!!codeFor} onClose={() => setCodeFor(undefined)} />
      <DeleteWebsiteDialog website={deleting} onClose={() => setDeleting(undefined)} />
      <MembersDialog website={team} onClose={() => setTeam(undefined)} />
      <ShareDialog website={sharing} open={!!sharing} onClose={() => setSharing(undefined)} />
    </>
  );
}
