//! Live Visitors card: SSE status (Real-time / Disconnected) and the active sessions list.
import { useLiveSessions, useNow } from "../hooks/live";
import { relativeTime } from "../lib/time";
import { sessionLabel, sessionStatus } from "../lib/live";
import { countryFlag, displayPath } from "../lib/format";
import { NotFiltered } from "./filters/NotFiltered";
import { Badge, Card, CardBody, CardHeader, cx } from "./ui/primitives";
import { IconUsers } from "./ui/icons";

export function LiveVisitorsCard({ websiteId }: { websiteId: number | undefined }) {
  const { sessions, status } = useLiveSessions(websiteId);
  const now = useNow();
  const connected = status === "connected";
  return (
    <Card data-testid="live-visitors">
      <CardHeader
        title="Live Visitors"
        description={
          <>
            {`${sessions.length} ${sessions.length === 1 ? "visitor" : "visitors"} in the last 5 minutes`}
            <NotFiltered />
          </>
        }
        action={
          <span className={cx("inline-flex items-center gap-1.5 text-xs font-medium", connected ? "text-emerald-400" : "text-gray-500")} data-testid="live-status">
            <span className={cx("h-2 w-2 rounded-full", connected ? "animate-pulse bg-emerald-400" : "bg-gray-600")} />
            {connected ? "Real-time" : "Disconnected"}
          </span>
        }
      />
      <CardBody>
        {sessions.length === 0 ? (
          <div className="flex flex-col items-center py-8 text-center">
            <IconUsers className="mb-2 h-6 w-6 text-gray-600" />
            <p className="text-sm text-gray-500">No active visitors</p>
          </div>
        ) : (
          <ul className="max-h-96 space-y-2 overflow-y-auto pr-1" data-testid="live-sessions">
            {sessions.map((s) => {
              const state = sessionStatus(s.lastSeen, now);
              return (
                <li key={s.id} className="flex items-center justify-between gap-3 rounded-lg border border-gray-800 bg-gray-950/50 px-3 py-2.5">
                  <div className="min-w-0">
                    <p className="truncate font-mono text-sm text-gray-100">{sessionLabel(s.sessionId)}</p>
                    <p className="truncate text-xs text-gray-500">
                      {countryFlag(s.country)} {s.ipAddress || "Unknown location"}
                      {s.currentPage ? <span className="text-gray-600"> · {displayPath(s.currentPage)}</span> : null}
                    </p>
                  </div>
                  <div className="flex shrink-0 items-center gap-2">
                    <span className="text-xs text-gray-500">{relativeTime(s.lastSeen, now)}</span>
                    <Badge tone={state === "Active" ? "green" : "gray"}>{state}</Badge>
                  </div>
                </li>
              );
            })}
          </ul>
        )}
      </CardBody>
    </Card>
  );
}
