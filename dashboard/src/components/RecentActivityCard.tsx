//! Recent Activity: the latest real events of the site that the screen's filters admit, newest first.
import type { ActivityEvent } from "../api/types";
import { activityTitle } from "../lib/activity";
import { countryFlag, displayPath, formatValue } from "../lib/format";
import { relativeTime } from "../lib/time";
import { useFilters } from "../hooks/filters";
import { useNow } from "../hooks/live";
import { RefusedText, refusedFilters } from "./filters/Refused";
import { EmptyText, QueryState, SkeletonRows } from "./page/QueryState";
import type { QueryLike } from "./page/QueryState";
import { Card, CardBody, CardHeader, cx } from "./ui/primitives";
import { IconEye, IconTarget, IconZap } from "./ui/icons";

function EventIcon({ type }: { type: string }) {
  const Icon = type === "conversion" ? IconTarget : type === "pageview" ? IconEye : IconZap;
  const tone = type === "conversion" ? "bg-emerald-500/15 text-emerald-400" : type === "pageview" ? "bg-sky-500/15 text-sky-400" : "bg-amber-500/15 text-amber-300";
  return (
    <span className={cx("flex h-8 w-8 shrink-0 items-center justify-center rounded-full", tone)}>
      <Icon className="h-4 w-4" />
    </span>
  );
}

export function RecentActivityCard({ query }: { query: QueryLike<ActivityEvent[]> }) {
  const now = useNow(30_000);
  const { active } = useFilters();
  return (
    <Card>
      <CardHeader title="Recent Activity" description="Latest events on this site" />
      <CardBody>
        {refusedFilters(active, query.error) ? (
          <RefusedText />
        ) : (
        <QueryState
          query={query}
          skeleton={<SkeletonRows className="h-10" />}
          isEmpty={(events) => events.length === 0}
          empty={<EmptyText>No activity yet</EmptyText>}
        >
          {(events) => (
            <ul className="divide-y divide-gray-800" data-testid="recent-activity">
              {events.map((e) => (
                <li key={e.id} className="flex items-center gap-3 py-2.5">
                  <EventIcon type={e.type} />
                  <div className="min-w-0 flex-1">
                    <p className="truncate text-sm text-gray-100">
                      {activityTitle(e)}
                      {e.value !== null && e.value !== undefined ? <span className="ml-2 text-emerald-400">{formatValue(e.value)}</span> : null}
                    </p>
                    <p className="truncate text-xs text-gray-500">
                      {countryFlag(e.country)} {displayPath(e.url)}
                    </p>
                  </div>
                  <span className="shrink-0 text-xs text-gray-500">{relativeTime(e.timestamp, now)}</span>
                </li>
              ))}
            </ul>
          )}
        </QueryState>
        )}
      </CardBody>
    </Card>
  );
}
