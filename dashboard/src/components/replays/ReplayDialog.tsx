//! The Watch modal: the player (loaded on first use) with marks to jump to, and the side panel with the
//! recording's time, activity, device and organization. Load errors show as 'Failed to load replay'.
import { Suspense, lazy, useEffect, useMemo, useRef } from "react";
import type { ReactNode } from "react";
import type { ReplaySummary } from "../../api/replays";
import { usePrivacySettings } from "../../hooks/privacy";
import { useReplayEvents } from "../../hooks/replays";
import { countryName, formatNumber } from "../../lib/format";
import { formatClock, formatStarted, timelineMarks } from "../../lib/replays";
import type { MarkKind, TimelineMark } from "../../lib/replays";
import { formatDuration } from "../../lib/time";
import { reportError } from "../ErrorBoundary";
import { Dialog } from "../ui/Dialog";
import { IconAlert } from "../ui/icons";
import { Spinner, cx } from "../ui/primitives";
import type { ReplayPlayerHandle } from "./ReplayPlayer";

const ReplayPlayer = lazy(() => import("./ReplayPlayer").then((m) => ({ default: m.ReplayPlayer })));
const ReplayPlayerFrame = lazy(() => import("./ReplayPlayerFrame").then((m) => ({ default: m.ReplayPlayerFrame })));

const MARK_STYLE: Record<MarkKind, { dot: string; name: string }> = {
  page: { dot: "bg-sky-400", name: "Page" },
  click: { dot: "bg-amber-400", name: "Click" },
  custom: { dot: "bg-fuchsia-400", name: "Event" },
};
/** Colours of custom-event tags on rrweb-player's own progress bar. */
const TAG_COLOUR = "#e879f9";
/** Marks listed under the player; all of them show on the bar. */
const LISTED_MARKS = 200;

/** Open while `open` (a recording named in the URL: loading until `replay` arrives, or `missing`). */
export function ReplayDialog({
  replay,
  websiteId,
  open,
  missing,
  onClose,
}: {
  replay: ReplaySummary | null;
  /** The recording's site, whose privacy settings say whether the player loads remote assets. */
  websiteId: number | undefined;
  open: boolean;
  missing: boolean;
  onClose: () => void;
}) {
  return (
    <Dialog open={open} onClose={onClose} size="xl" title="Session Replay" description={replay ? `Session ${replay.sessionId}` : undefined}>
      {replay && websiteId !== undefined ? (
        <ReplayBody replay={replay} websiteId={websiteId} />
      ) : missing ? (
        <div role="alert" data-testid="replay-not-found" className="flex flex-col items-center justify-center gap-2 px-6 py-16 text-center">
          <IconAlert className="h-6 w-6 text-gray-400" />
          <p className="text-sm font-semibold text-gray-200">Replay not found</p>
          <p className="text-sm text-gray-400">This recording does not exist, was deleted, or belongs to another account.</p>
        </div>
      ) : open ? (
        <PlayerLoading />
      ) : null}
    </Dialog>
  );
}

function ReplayBody({ replay, websiteId }: { replay: ReplaySummary; websiteId: number }) {
  const events = useReplayEvents(replay.id);
  // The player waits for the site's choice: starting loose would ask the recorded site's hosts before the
  // owner's choice is known. A failed read leaves the player strict (the dashboard's own).
  const privacy = usePrivacySettings(websiteId);
  const remoteAssets = privacy.data?.replayRemoteAssets === true;
  const player = useRef<ReplayPlayerHandle>(null);
  const marks = useMemo(() => (events.data ? timelineMarks(events.data) : []), [events.data]);
  const tags = useMemo(() => Object.fromEntries(marks.filter((m) => m.kind === "custom").map((m) => [m.label, TAG_COLOUR])), [marks]);
  const span = useMemo(() => {
    const data = events.data;
    if (!data || data.length === 0) return 0;
    let min = data[0].timestamp;
    let max = min;
    for (const e of data) {
      if (e.timestamp < min) min = e.timestamp;
      if (e.timestamp > max) max = e.timestamp;
    }
    return max - min;
  }, [events.data]);

  useEffect(() => {
    if (events.error) reportError(events.error, "replay");
  }, [events.error]);

  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_18rem]">
      <div className="min-w-0">
        {events.error ? (
          <div role="alert" className="flex flex-col items-center justify-center gap-2 rounded-xl border border-red-500/30 bg-red-500/10 px-6 py-16 text-center">
            <IconAlert className="h-6 w-6 text-red-300" />
            <p className="text-sm font-semibold text-red-200">Failed to load replay</p>
            <p className="text-sm text-red-300/80">{events.error instanceof Error ? events.error.message : String(events.error)}</p>
          </div>
        ) : events.data && !privacy.isPending ? (
          <>
            <Suspense fallback={<PlayerLoading />}>
              {remoteAssets ? (
                // A new page per recording: the player page takes one recording.
                <ReplayPlayerFrame key={replay.id} ref={player} events={events.data} tags={tags} />
              ) : (
                <ReplayPlayer ref={player} events={events.data} tags={tags} />
              )}
            </Suspense>
            {!remoteAssets && <p className="mt-2 text-xs text-gray-500" data-testid="replay-remote-assets-note">{REMOTE_ASSETS_OFF_NOTE}</p>}
            <Timeline marks={marks} span={span} onJump={(offset) => player.current?.goto(offset)} />
          </>
        ) : (
          <PlayerLoading />
        )}
      </div>
      <SidePanel replay={replay} />
    </div>
  );
}

/** Under the player when the site keeps remote assets out (daemon/API.md, privacy settings). */
const REMOTE_ASSETS_OFF_NOTE =
  "Images, fonts and stylesheets the recorded page loaded from its own servers are not shown. Loading them is a per-site choice (Edit Website): it tells those servers that someone is watching.";

function PlayerLoading() {
  return (
    <div className="flex aspect-video w-full items-center justify-center rounded-xl border border-gray-800 bg-gray-950">
      <Spinner className="h-8 w-8" label="Loading replay" />
    </div>
  );
}

function Timeline({ marks, span, onJump }: { marks: TimelineMark[]; span: number; onJump: (offset: number) => void }) {
  if (marks.length === 0) return null;
  const at = (offset: number) => (span > 0 ? Math.min(100, (offset / span) * 100) : 0);
  return (
    <div className="mt-4" data-testid="replay-timeline">
      <div className="mb-2 flex flex-wrap items-center gap-x-4 gap-y-1 text-xs text-gray-400">
        <span className="font-medium text-gray-300">Timeline</span>
        {(Object.keys(MARK_STYLE) as MarkKind[]).map((kind) => (
          <span key={kind} className="inline-flex items-center gap-1.5">
            <span className={cx("h-2 w-2 rounded-full", MARK_STYLE[kind].dot)} />
            {kind === "page" ? "Page changes" : kind === "click" ? "Clicks" : "Custom events"}
          </span>
        ))}
      </div>
      <div className="relative h-5 rounded-full bg-gray-800" aria-hidden="true">
        {marks.map((m, i) => (
          <span
            // biome-ignore lint/suspicious/noArrayIndexKey: marks are derived once per recording, never reordered
            key={i}
            className={cx("absolute top-1/2 h-2.5 w-2.5 -translate-x-1/2 -translate-y-1/2 rounded-full ring-2 ring-gray-900", MARK_STYLE[m.kind].dot)}
            style={{ left: `${at(m.offset)}%` }}
          />
        ))}
      </div>
      <ol className="mt-3 flex max-h-40 flex-wrap gap-1.5 overflow-y-auto" aria-label="Jump to">
        {marks.slice(0, LISTED_MARKS).map((m, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: as above
          <li key={i}>
            <button
              type="button"
              onClick={() => onJump(m.offset)}
              data-mark={m.kind}
              className="inline-flex max-w-[16rem] items-center gap-1.5 rounded-md border border-gray-800 bg-gray-900 px-2 py-1 text-xs text-gray-300 hover:border-gray-700 hover:bg-gray-800 hover:text-white"
            >
              <span className={cx("h-1.5 w-1.5 shrink-0 rounded-full", MARK_STYLE[m.kind].dot)} />
              <span className="tabular-nums text-gray-500">{formatClock(m.offset / 1000)}</span>
              <span className="truncate">{m.kind === "click" ? "Click" : `${MARK_STYLE[m.kind].name}: ${m.label}`}</span>
            </button>
          </li>
        ))}
      </ol>
    </div>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="rounded-xl border border-gray-800 bg-gray-950/60 p-4">
      <h3 className="mb-3 text-sm font-semibold text-white">{title}</h3>
      <dl className="space-y-2 text-sm">{children}</dl>
    </section>
  );
}

function Row({ label, value }: { label: string; value: ReactNode }) {
  return (
    <div className="flex items-baseline justify-between gap-3">
      <dt className="shrink-0 text-gray-400">{label}</dt>
      <dd className="min-w-0 truncate text-right text-gray-100">{value}</dd>
    </div>
  );
}

function SidePanel({ replay }: { replay: ReplaySummary }) {
  const { session, organization } = replay;
  return (
    <aside className="space-y-4" data-testid="replay-side-panel">
      <Section title="Time Information">
        <Row label="Started" value={formatStarted(replay.startTime)} />
        <Row label="Duration" value={formatDuration(replay.duration)} />
        <Row label="Resolution" value={replay.screenResolution || "Unknown"} />
      </Section>
      <Section title="Activity">
        <Row label="Pages viewed" value={formatNumber(session.pageViewCount)} />
        <Row label="Total clicks" value={<span data-testid="replay-clicks">{formatNumber(replay.clickCount)}</span>} />
      </Section>
      <Section title="Device Information">
        <Row label="Device" value={session.deviceType || "Unknown"} />
        <Row label="Browser" value={session.browser || "Unknown"} />
        <Row label="OS" value={session.os || "Unknown"} />
        <Row label="Location" value={countryName(session.country)} />
      </Section>
      {organization && (
        <Section title="Organization">
          <Row label="Name" value={organization.organizationName} />
          <Row label="Industry" value={organization.industry || "-"} />
          <Row label="Size" value={organization.size || "-"} />
        </Section>
      )}
    </aside>
  );
}
