//! Session Replays (/session-replays, spec part 2): website, filter and range (all in the URL, filter and
//! range sent with the list call), the four cards over every recording of the range, the table, and the Watch
//! modal. The recording being watched is in the URL too (?replay=ID), so a link opens its player directly.
import { useCallback, useEffect } from "react";
import { useSearchParams } from "react-router-dom";
import { REPLAY_FILTERS } from "../api/replays";
import type { ReplayFilter, ReplayRange, ReplaySummary } from "../api/replays";
import { MetricCard } from "../components/MetricCard";
import { NoWebsites } from "../components/NoWebsites";
import { SitePage } from "../components/page/SitePage";
import type { RangeOption } from "../components/page/SitePage";
import { ReplayDialog } from "../components/replays/ReplayDialog";
import { ReplayTable } from "../components/replays/ReplayTable";
import { IconBuilding, IconCheck, IconClock, IconVideo } from "../components/ui/icons";
import { Card, EmptyState, ErrorNote, Select, Spinner } from "../components/ui/primitives";
import { FilterBar } from "../components/filters/FilterBar";
import { useFilters } from "../hooks/filters";
import { useParamState } from "../hooks/selection";
import { useReplay, useReplayStats, useSessionReplays } from "../hooks/replays";
import { formatNumber } from "../lib/format";
import { formatClock } from "../lib/replays";

const RANGES: readonly RangeOption<ReplayRange>[] = [
  { value: "24h", label: "Last 24 hours" },
  { value: "7d", label: "Last 7 days" },
  { value: "30d", label: "Last 30 days" },
];

const FILTER_LABELS: Record<ReplayFilter, string> = {
  all: "All Sessions",
  complete: "Complete",
  incomplete: "Incomplete",
  enterprise: "Enterprise",
};

export default function SessionReplaysPage() {
  const [filter, setFilter] = useParamState<ReplayFilter>("filter", REPLAY_FILTERS, "all");
  return (
    <SitePage<ReplayRange>
      title="Session Replays"
      description="Watch recorded visits to understand behaviour"
      ranges={{ options: RANGES, fallback: "7d", placement: "body" }}
      noWebsite={<NoWebsites title="Select a Website" description="Add a website to record and watch its visitors' sessions." />}
      actions={(ctx) => (
        <>
          <Select aria-label="Filter" className="w-40" value={filter} onChange={(e) => setFilter(e.target.value as ReplayFilter)}>
            {REPLAY_FILTERS.map((f) => (
              <option key={f} value={f}>
                {FILTER_LABELS[f]}
              </option>
            ))}
          </Select>
          {ctx.rangeSelect}
        </>
      )}
    >
      {({ website, range }) => <Replays websiteId={website.id} filter={filter} range={range} />}
    </SitePage>
  );
}

function Replays({ websiteId, filter, range }: { websiteId: number; filter: ReplayFilter; range: ReplayRange }) {
  const filters = useFilters();
  const list = useSessionReplays(websiteId, filter, range, filters.text);
  const replays = list.data ?? [];
  const [replayId, setReplayId] = useReplayParam();
  // A recording named in the URL is read alone unless the list has it (it may be older, filtered out, or of
  // another of the owner's sites, which is then selected).
  const listed = replays.find((r) => r.id === replayId);
  const detail = useReplay(replayId !== undefined && !listed && !list.isPending ? replayId : undefined);
  const watching: ReplaySummary | null = listed ?? detail.data?.replay ?? null;
  const [, setParams] = useSearchParams();
  const otherSite = detail.data && detail.data.websiteId !== websiteId ? detail.data.websiteId : undefined;
  useEffect(() => {
    if (otherSite !== undefined)
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          next.set("website", String(otherSite));
          return next;
        },
        { replace: true },
      );
  }, [otherSite, setParams]);
  const cards = useReplayStats(websiteId, filter, range, filters.text);
  const stats = cards.data ?? { total: 0, complete: 0, averageDuration: 0, enterprise: 0 };
  const loading = list.isPending;

  return (
    <div className="space-y-6">
      <FilterBar websiteId={websiteId} period={`range=${range}`} error={list.error ?? cards.error} />
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-4">
        <MetricCard title="Total Replays" value={formatNumber(stats.total)} caption="Recorded sessions" icon={<IconVideo />} loading={cards.isPending} />
        <MetricCard title="Complete Recordings" value={formatNumber(stats.complete)} caption="Finished sessions" icon={<IconCheck />} loading={cards.isPending} />
        <MetricCard title="Average Duration" value={formatClock(stats.averageDuration)} caption="Per session" icon={<IconClock />} loading={cards.isPending} />
        <MetricCard title="Enterprise Visitors" value={formatNumber(stats.enterprise)} caption="From enterprise organizations" icon={<IconBuilding />} loading={cards.isPending} />
      </div>
      <Card>
        {list.error ? (
          <div className="p-5">
            <ErrorNote error={list.error} onRetry={() => void list.refetch()} />
          </div>
        ) : loading ? (
          <div className="flex items-center justify-center gap-3 py-16 text-sm text-gray-400" data-testid="replays-loading">
            <Spinner className="h-6 w-6" label="Loading session replays" />
            Loading session replays...
          </div>
        ) : replays.length === 0 ? (
          <EmptyState
            icon={<IconVideo />}
            title="No Session Replays"
            description="No recordings match this filter and time range. Recordings need the enhanced or professional tracking level."
          />
        ) : (
          <ReplayTable replays={replays} onWatch={(r) => setReplayId(r.id)} />
        )}
      </Card>
      <ReplayDialog
        replay={watching}
        websiteId={listed ? websiteId : detail.data?.websiteId}
        open={replayId !== undefined}
        missing={detail.isError}
        onClose={() => setReplayId(undefined)}
      />
    </div>
  );
}

/** ?replay=ID: the recording being watched (opening one adds a history entry, so Back closes it). */
function useReplayParam(): [number | undefined, (id: number | undefined) => void] {
  const [params, setParams] = useSearchParams();
  const raw = params.get("replay");
  const id = raw !== null && /^[0-9]{1,15}$/.test(raw) ? Number(raw) : raw !== null ? -1 : undefined;
  const set = useCallback(
    (next: number | undefined) =>
      setParams((prev) => {
        const out = new URLSearchParams(prev);
        if (next === undefined) out.delete("replay");
        else out.set("replay", String(next));
        return out;
      }),
    [setParams],
  );
  return [id, set];
}
