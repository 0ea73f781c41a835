//! Conversion Funnels (/funnels, spec part 2): every funnel of the user's sites with its per-step figures for
//! a range, the Create Funnel dialog, and edit, pause/activate and delete.
import { useState } from "react";
import type { Funnel } from "../api/funnels";
import { FunnelCard } from "../components/funnels/FunnelCard";
import { FunnelDialog } from "../components/funnels/FunnelDialog";
import { NoWebsites } from "../components/NoWebsites";
import { QueryState, SkeletonRows } from "../components/page/QueryState";
import { RangeSelect } from "../components/page/SitePage";
import { useToast } from "../components/toast/toast";
import { Dialog } from "../components/ui/Dialog";
import { IconFilter, IconPlus } from "../components/ui/icons";
import { Button, EmptyState, ErrorNote, FullPageSpinner, PageHeader } from "../components/ui/primitives";
import { FilterBar } from "../components/filters/FilterBar";
import { useFilters } from "../hooks/filters";
import { useDeleteFunnel, useFunnels, useUpdateFunnel } from "../hooks/funnels";
import { useParamState } from "../hooks/selection";
import { useWebsites } from "../hooks/websites";
import { atLeast } from "../lib/roles";
import { serverMessage } from "../lib/errors";

const RANGES = [
  { value: "1d", label: "Last 24h" },
  { value: "7d", label: "Last 7 days" },
  { value: "30d", label: "Last 30 days" },
  { value: "90d", label: "Last 90 days" },
] as const;
type Range = (typeof RANGES)[number]["value"];
const RANGE_VALUES = RANGES.map((r) => r.value);

export default function FunnelsPage() {
  const websites = useWebsites();
  const [range, setRange] = useParamState<Range>("range", RANGE_VALUES, "30d");
  const filters = useFilters();
  const funnels = useFunnels(range, filters.text);
  const update = useUpdateFunnel();
  const remove = useDeleteFunnel();
  const { toast } = useToast();
  const [dialog, setDialog] = useState<{ funnel?: Funnel } | null>(null);
  const [deleting, setDeleting] = useState<Funnel | null>(null);

  const toggle = (f: Funnel) =>
    update.mutate(
      { id: f.id, status: f.status === "active" ? "paused" : "active" },
      {
        onSuccess: (next) => toast({ title: next.status === "active" ? "Funnel activated" : "Funnel paused", variant: "success" }),
        onError: (err) => toast({ title: "Error updating funnel", description: serverMessage(err), variant: "destructive" }),
      },
    );

  const confirmDelete = () => {
    if (!deleting) return;
    remove.mutate(deleting.id, {
      onSuccess: () => {
        setDeleting(null);
        toast({ title: "Funnel deleted", variant: "success" });
      },
      onError: (err) => toast({ title: "Error deleting funnel", description: serverMessage(err), variant: "destructive" }),
    });
  };

  const sites = websites.data ?? [];
  // Funnels are changed on the sites where the account is an editor or above; on the others they are read.
  const editable = sites.filter((s) => atLeast(s.role, "editor"));
  const mayChange = (f: Funnel) => editable.some((s) => s.id === f.websiteId);
  return (
    <>
      <PageHeader
        title="Conversion Funnels"
        description="Where visitors drop off on the way to a goal, step by step."
        actions={
          sites.length > 0 ? (
            <>
              <RangeSelect options={RANGES} value={range} onChange={setRange} />
              {editable.length > 0 && (
                <Button onClick={() => setDialog({})}>
                  <IconPlus /> Create Funnel
                </Button>
              )}
            </>
          ) : undefined
        }
      />
      {websites.isPending ? (
        <FullPageSpinner />
      ) : websites.error ? (
        <ErrorNote error={websites.error} onRetry={() => void websites.refetch()} />
      ) : sites.length === 0 ? (
        <NoWebsites />
      ) : (
        <div className="space-y-6">
          <FilterBar websiteId={sites.length === 1 ? sites[0].id : undefined} period={`range=${range}`} error={funnels.error} />
          <QueryState
            query={funnels}
            skeleton={<SkeletonRows rows={2} className="h-64" />}
            isEmpty={(list) => list.length === 0}
            empty={
              <EmptyState
                icon={<IconFilter />}
                title="No funnels yet"
                description="Create a funnel to see how many visitors reach each step, in order."
                action={
                  editable.length > 0 && (
                    <Button onClick={() => setDialog({})}>
                      <IconPlus /> Create Funnel
                    </Button>
                  )
                }
              />
            }
          >
            {(list) => (
              <div className="space-y-6">
                {list.map((f) => (
                  <FunnelCard
                    key={f.id}
                    funnel={f}
                    range={range}
                    changes={mayChange(f) ? { onEdit: () => setDialog({ funnel: f }), onToggle: () => toggle(f), onDelete: () => setDeleting(f) } : undefined}
                  />
                ))}
              </div>
            )}
          </QueryState>
        </div>
      )}
      <FunnelDialog open={dialog !== null} onClose={() => setDialog(null)} websites={editable} funnel={dialog?.funnel} />
      <Dialog
        open={deleting !== null}
        onClose={() => setDeleting(null)}
        title="Delete funnel"
        description={deleting ? `Delete "${deleting.name}"? Its steps go with it; the visits it counted stay.` : undefined}
        footer={
          <>
            <Button variant="ghost" onClick={() => setDeleting(null)}>
              Cancel
            </Button>
            <Button variant="danger" onClick={confirmDelete} disabled={remove.isPending}>
              Delete
            </Button>
          </>
        }
      >
        <p className="text-sm text-gray-400">This cannot be undone.</p>
      </Dialog>
    </>
  );
}
