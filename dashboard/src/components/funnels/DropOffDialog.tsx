//! The visits that dropped off at one funnel step (reached it, not the next), newest first, each linking to
//! its session's detail panel in the Visitor Stream and, when it was recorded, to its replay.
import { Link } from "react-router-dom";
import type { Funnel } from "../../api/funnels";
import { useFilters } from "../../hooks/filters";
import { useFunnelDropOffs } from "../../hooks/funnels";
import { formatNumber } from "../../lib/format";
import { formatDateTime, formatDuration } from "../../lib/time";
import { Dialog } from "../ui/Dialog";
import { Spinner } from "../ui/primitives";

export function DropOffDialog({
  funnel,
  range,
  step,
  onClose,
}: {
  funnel: Funnel;
  range: string;
  step: number | undefined;
  onClose: () => void;
}) {
  const { text: filters } = useFilters();
  const query = useFunnelDropOffs(funnel.id, range, step !== undefined, filters);
  const stopped = step === undefined ? undefined : query.data?.steps[step];
  const name = step === undefined ? "" : (funnel.steps[step]?.name ?? "");
  return (
    <Dialog
      open={step !== undefined}
      onClose={onClose}
      size="lg"
      title={`Dropped off after ${name}`}
      description="Visits that reached this step and not the next, newest first"
    >
      {query.isPending ? (
        <div className="flex justify-center py-8">
          <Spinner className="h-6 w-6" label="Loading the visits" />
        </div>
      ) : query.isError ? (
        <p className="text-sm text-red-400">Could not load the visits: {String(query.error)}</p>
      ) : stopped ? (
        <div>
          <p className="mb-3 text-sm text-gray-400" data-testid="dropoff-total">
            {formatNumber(stopped.droppedOff)} {stopped.droppedOff === 1 ? "visit" : "visits"} in all
            {stopped.visits.length < stopped.droppedOff ? `, the newest ${stopped.visits.length} listed` : ""}
          </p>
          <ul className="divide-y divide-gray-800" data-testid="dropoff-visits">
            {stopped.visits.map((v) => (
              <li key={v.id} className="flex flex-wrap items-center justify-between gap-2 py-3 text-sm">
                <div className="min-w-0">
                  <p className="text-gray-200">{formatDateTime(v.startedAt)}</p>
                  <p className="truncate text-xs text-gray-500">
                    {v.pageViews} {v.pageViews === 1 ? "page" : "pages"} · {formatDuration(v.duration)} · left on{" "}
                    <span className="font-mono">{v.exitPage}</span>
                    {v.country ? ` · ${v.country}` : ""}
                  </p>
                </div>
                <div className="flex shrink-0 gap-2">
                  {v.replayId != null ? (
                    <Link
                      to={`/session-replays?website=${funnel.websiteId}&replay=${v.replayId}`}
                      className="rounded-lg bg-indigo-500/20 px-3 py-1.5 text-xs font-medium text-indigo-200 hover:bg-indigo-500/30"
                      data-testid="dropoff-replay-link"
                    >
                      Watch replay
                    </Link>
                  ) : null}
                  <Link
                    to={`/visitor-stream?website=${funnel.websiteId}&session=${v.id}`}
                    className="rounded-lg bg-gray-800 px-3 py-1.5 text-xs font-medium text-gray-200 hover:bg-gray-700"
                    data-testid="dropoff-session-link"
                  >
                    Open session
                  </Link>
                </div>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </Dialog>
  );
}
