//! Events (/events, spec part 2): 'Advanced Event Tracking' with website and range (24h, 7d, 30d), four
//! cards, the Event Definitions list (edit, activate/deactivate, delete, triggers over the range), Top
//! Events, Event Properties (an event's values of one property), Not Found Pages (the 404 report) and the
//! Create Event dialog. The cards, triggers and Top Events follow the URL's filters (the filter
//! bar; a Top Events row adds "Event is ..."), as the Analytics Dashboard's do.
import { useState } from "react";
import type { EventDefinition, EventRange } from "../api/events";
import { EventDefinitionDialog } from "../components/events/EventDefinitionDialog";
import { NotFoundPages, PropertyBreakdown } from "../components/events/PropertyBreakdown";
import { FilterBar } from "../components/filters/FilterBar";
import { RefusedText, refusedFilters } from "../components/filters/Refused";
import { MetricCard } from "../components/MetricCard";
import { EmptyText, QueryState, SkeletonRows } from "../components/page/QueryState";
import { SitePage } from "../components/page/SitePage";
import { useToast } from "../components/toast/toast";
import { Dialog } from "../components/ui/Dialog";
import { Switch } from "../components/ui/Switch";
import { IconActivity, IconEdit, IconPlus, IconTarget, IconTrash, IconZap } from "../components/ui/icons";
import { Badge, Button, Card, CardBody, CardHeader } from "../components/ui/primitives";
import { useFilters } from "../hooks/filters";
import { atLeast } from "../lib/roles";
import { useDeleteEventDefinition, useEventDefinitions, useEventSummary, useUpdateEventDefinition } from "../hooks/events";
import { serverMessage } from "../lib/errors";
import { triggersById } from "../lib/events";
import { countOf, formatNumber } from "../lib/format";
import { relativeTime } from "../lib/time";

const RANGES = {
  options: [
    { value: "24h", label: "Last 24 hours" },
    { value: "7d", label: "Last 7 days" },
    { value: "30d", label: "Last 30 days" },
  ],
  fallback: "7d",
} as const;

export default function EventsPage() {
  const [dialog, setDialog] = useState<{ open: boolean; editing?: EventDefinition }>({ open: false });
  return (
    <SitePage<EventRange>
      title="Advanced Event Tracking"
      description="Define, capture and count the events that matter on your site"
      ranges={RANGES}
      actions={({ website }) =>
        atLeast(website.role, "editor") && (
          <Button onClick={() => setDialog({ open: true })}>
            <IconPlus /> Create Event
          </Button>
        )
      }
    >
      {({ website, range }) => (
        <>
          <EventsBody
            websiteId={website.id}
            range={range}
            onEdit={atLeast(website.role, "editor") ? (def) => setDialog({ open: true, editing: def }) : undefined}
          />
          <EventDefinitionDialog websiteId={website.id} open={dialog.open} editing={dialog.editing} onClose={() => setDialog({ open: false })} />
        </>
      )}
    </SitePage>
  );
}

/** `onEdit` is absent for a role that may not change definitions (a viewer): the rows show no controls then. */
function EventsBody({ websiteId, range, onEdit }: { websiteId: number; range: EventRange; onEdit?: (def: EventDefinition) => void }) {
  const definitions = useEventDefinitions(websiteId);
  const filters = useFilters();
  const summary = useEventSummary(websiteId, range, filters.text);
  const loading = summary.isPending;
  const triggers = triggersById(summary.data?.definitionTriggers);
  // Under refused filters the figures are unknown, not zero.
  const refused = refusedFilters(filters.active, summary.error);
  return (
    <div className="space-y-6">
      <FilterBar websiteId={websiteId} period={`range=${range}`} error={summary.error} />
      <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        <MetricCard title="Total Events" value={refused ? "—" : formatNumber(summary.data?.totalEvents ?? 0)} caption="Events in this period" icon={<IconActivity />} loading={loading} />
        <MetricCard title="Unique Events" value={refused ? "—" : formatNumber(summary.data?.uniqueEvents ?? 0)} caption="Distinct event names" icon={<IconZap />} loading={loading} />
        <MetricCard title="Conversions" value={refused ? "—" : formatNumber(summary.data?.conversionEvents ?? 0)} caption="Conversion events" icon={<IconTarget />} loading={loading} />
        <MetricCard title="Definitions" value={formatNumber(definitions.data?.length ?? 0)} caption="Event definitions" icon={<IconEdit />} loading={definitions.isPending} />
      </div>
      <div className="grid gap-6 lg:grid-cols-3">
        <Card className="lg:col-span-2" data-testid="event-definitions">
          <CardHeader title="Event Definitions" description="Events captured by selector, URL or name" />
          <CardBody>
            <QueryState
              query={definitions}
              isEmpty={(list) => list.length === 0}
              empty={<EmptyText>No event definitions yet. Create one to start capturing events.</EmptyText>}
            >
              {(list) => (
                <ul className="divide-y divide-gray-800">
                  {list.map((def) => (
                    <DefinitionRow key={def.id} websiteId={websiteId} def={def} triggers={summary.data ? (triggers.get(def.id) ?? 0) : undefined} onEdit={onEdit && (() => onEdit(def))} />
                  ))}
                </ul>
              )}
            </QueryState>
          </CardBody>
        </Card>
        <Card data-testid="top-events">
          <CardHeader title="Top Events" description="Most frequent events in this period" />
          <CardBody>
            {refused ? (
              <RefusedText />
            ) : (
            <QueryState
              query={summary}
              skeleton={<SkeletonRows rows={4} />}
              isEmpty={(s) => s.topEvents.length === 0}
              empty={<EmptyText>{filters.active ? "No events match these filters" : "No events tracked in this period"}</EmptyText>}
            >
              {(s) => (
                <ol className="space-y-3">
                  {s.topEvents.map((e, i) => (
                    <li key={e.name} data-testid="top-event">
                      <button
                        type="button"
                        className="flex w-full items-center gap-3 rounded text-left text-sm hover:bg-gray-800/60 focus-visible:outline focus-visible:outline-2 focus-visible:outline-indigo-500"
                        title={`Filter by event ${e.name}`}
                        onClick={() => filters.add({ operator: "is", dimension: "event:name", values: [e.name] })}
                      >
                        <span className="flex h-6 w-6 shrink-0 items-center justify-center rounded-full bg-gray-800 text-xs text-gray-300">{i + 1}</span>
                        <span className="min-w-0 flex-1 truncate font-medium text-gray-100">{e.name}</span>
                        <span className="shrink-0 text-gray-400">{countOf(e.count, "trigger")}</span>
                      </button>
                    </li>
                  ))}
                </ol>
              )}
            </QueryState>
            )}
          </CardBody>
        </Card>
      </div>
      <div className="grid gap-6 lg:grid-cols-2">
        <PropertyBreakdown websiteId={websiteId} period={`range=${range}`} events={summary.data?.topEvents.map((e) => e.name) ?? []} />
        <NotFoundPages websiteId={websiteId} period={`range=${range}`} />
      </div>
    </div>
  );
}

function DefinitionRow({ websiteId, def, triggers, onEdit }: { websiteId: number; def: EventDefinition; triggers: number | undefined; onEdit?: () => void }) {
  const update = useUpdateEventDefinition(websiteId);
  const remove = useDeleteEventDefinition(websiteId);
  const { toast } = useToast();
  const [confirming, setConfirming] = useState(false);

  function toggle(active: boolean) {
    update.mutate(
      { id: def.id, changes: { isActive: active } },
      { onError: (err) => toast({ title: "Update failed", description: serverMessage(err), variant: "destructive" }) },
    );
  }

  return (
    <li className="flex flex-col gap-3 py-4 first:pt-0 last:pb-0 sm:flex-row sm:items-start sm:justify-between" data-testid="event-definition">
      <div className="min-w-0 space-y-1.5">
        <div className="flex flex-wrap items-center gap-2">
          <span className="font-medium text-white">{def.displayName}</span>
          <Badge tone="indigo">{def.eventType}</Badge>
          {def.isConversion && <Badge tone="green">Conversion{def.conversionValue ? ` · ${def.conversionValue}` : ""}</Badge>}
          <Badge tone={def.isActive ? "green" : "gray"}>{def.isActive ? "Active" : "Inactive"}</Badge>
        </div>
        <p className="text-sm text-gray-400">{def.description || "No description"}</p>
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-gray-500">
          <code className="max-w-full break-all rounded bg-gray-800 px-1.5 py-0.5 font-mono text-gray-300">{def.selector || def.name}</code>
          <span>Created {relativeTime(def.createdAt)}</span>
          {triggers !== undefined && <span data-testid="definition-triggers">{countOf(triggers, "trigger")}</span>}
        </div>
      </div>
      {onEdit && <div className="flex shrink-0 items-center gap-2">
        <Switch checked={def.isActive} onCheckedChange={toggle} disabled={update.isPending} aria-label={`${def.isActive ? "Deactivate" : "Activate"} ${def.displayName}`} />
        <Button variant="ghost" size="icon" aria-label={`Edit ${def.displayName}`} onClick={onEdit}>
          <IconEdit />
        </Button>
        <Button variant="ghost" size="icon" aria-label={`Delete ${def.displayName}`} onClick={() => setConfirming(true)}>
          <IconTrash />
        </Button>
      </div>}
      <Dialog
        open={confirming}
        onClose={() => setConfirming(false)}
        title="Delete event definition?"
        description={`"${def.displayName}" stops being captured. Events already recorded stay.`}
        footer={
          <>
            <Button variant="outline" onClick={() => setConfirming(false)}>
              Cancel
            </Button>
            <Button
              variant="danger"
              disabled={remove.isPending}
              onClick={() =>
                remove.mutate(def.id, {
                  onSuccess: () => {
                    setConfirming(false);
                    toast({ title: "Event Definition Deleted", description: `${def.displayName} was deleted.`, variant: "success" });
                  },
                  onError: (err) => toast({ title: "Delete failed", description: serverMessage(err), variant: "destructive" }),
                })
              }
            >
              Delete
            </Button>
          </>
        }
      >
        <p className="text-sm text-gray-400">This cannot be undone.</p>
      </Dialog>
    </li>
  );
}
