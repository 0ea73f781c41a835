//! Visitor Stream (/visitor-stream, spec part 2): Live/Paused toggle (polling every 3 s while Live), website
//! selector, four cards, the active sessions and a detail side panel per session. `?session=ID` opens the panel
//! of any of the site's sessions (a funnel's drop-off links here).
import { useState } from "react";
import { useSearchParams } from "react-router-dom";
import type { LiveVisitors } from "../api/visitorStream";
import { MetricCard } from "../components/MetricCard";
import { QueryState, SkeletonRows } from "../components/page/QueryState";
import { SitePage } from "../components/page/SitePage";
import { IconUsers } from "../components/ui/icons";
import { Card, CardBody, CardHeader, EmptyState } from "../components/ui/primitives";
import { SessionPanel } from "../components/visitorStream/SessionPanel";
import { SessionRow } from "../components/visitorStream/SessionRow";
import { FilterBar } from "../components/filters/FilterBar";
import { useFilters } from "../hooks/filters";
import { useNow } from "../hooks/live";
import { useLiveVisitors, useStreamSession } from "../hooks/visitorStream";

export default function VisitorStreamPage() {
  const [live, setLive] = useState(true);
  return (
    <SitePage
      title="Visitor Stream"
      description="Every visit as it happens, session by session"
      actions={() => (
        <button
          type="button"
          aria-pressed={live}
          onClick={() => setLive(!live)}
          data-testid="live-toggle"
          className={
            live
              ? "inline-flex items-center gap-2 rounded-lg bg-emerald-500/15 px-3 py-2 text-sm font-medium text-emerald-300 ring-1 ring-inset ring-emerald-500/30"
              : "inline-flex items-center gap-2 rounded-lg bg-gray-800 px-3 py-2 text-sm font-medium text-gray-300 ring-1 ring-inset ring-gray-700"
          }
        >
          <span aria-hidden className={live ? "h-2 w-2 animate-pulse rounded-full bg-emerald-400" : "h-2 w-2 rounded-full bg-gray-500"} />
          {live ? "Live" : "Paused"}
        </button>
      )}
    >
      {({ website }) => <Stream key={website.id} websiteId={website.id} live={live} />}
    </SitePage>
  );
}

function Stream({ websiteId, live }: { websiteId: number; live: boolean }) {
  const filters = useFilters();
  const query = useLiveVisitors(websiteId, live, filters.text);
  const [params, setParams] = useSearchParams();
  const linked = Number(params.get("session")) || undefined;
  const [openId, setOpenId] = useState<number | undefined>(linked);
  const now = useNow();
  const listed = query.data?.recentSessions.find((s) => s.id === openId);
  // A linked session that is not active now is read on its own.
  const single = useStreamSession(websiteId, listed || !query.data ? undefined : openId);
  const open = listed ?? (single.data && single.data.id === openId ? single.data : undefined);
  const close = () => {
    setOpenId(undefined);
    if (linked !== undefined) {
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          next.delete("session");
          return next;
        },
        { replace: true },
      );
    }
  };
  return (
    <div className="space-y-6">
      <FilterBar websiteId={websiteId} period="range=1d" error={query.error} />
      <QueryState query={query} skeleton={<SkeletonRows rows={4} className="h-24" />}>
        {(data) => <Cards data={data} />}
      </QueryState>
      <Card>
        <CardHeader title="Active Sessions" description="Visitors seen in the last five minutes" />
        <CardBody>
          <QueryState
            query={query}
            isEmpty={(d) => d.recentSessions.length === 0}
            empty={<EmptyState icon={<IconUsers />} title="No Active Visitors" description="Visitors show up here as soon as they load a tracked page." />}
          >
            {(data) => (
              <ul className="space-y-3" data-testid="stream-list">
                {data.recentSessions.map((s) => (
                  <SessionRow key={s.id} session={s} now={now} onOpen={() => setOpenId(s.id)} />
                ))}
              </ul>
            )}
          </QueryState>
        </CardBody>
      </Card>
      <p className="text-xs text-gray-500">
        <a href="https://db-ip.com" target="_blank" rel="noreferrer" className="hover:text-gray-300">
          IP Geolocation by DB-IP
        </a>
      </p>
      <SessionPanel session={open} live={live && !!listed} onClose={close} />
    </div>
  );
}

function Cards({ data }: { data: LiveVisitors }) {
  const top = data.topPages[0];
  return (
    <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-4" data-testid="stream-cards">
      <MetricCard title="Active Visitors" value={data.totalActiveVisitors} caption="Last five minutes" trend="live" />
      <MetricCard title="New Today" value={data.newVisitorsToday} caption="First-time visitors" />
      <MetricCard title="Conversions" value={data.conversionsToday} caption="Today" />
      <MetricCard
        title="Top Page"
        value={<span className="block truncate text-2xl">{top?.page ?? "/"}</span>}
        caption={`${top?.visitors ?? 0} ${top?.visitors === 1 ? "visitor" : "visitors"}`}
      />
    </div>
  );
}
