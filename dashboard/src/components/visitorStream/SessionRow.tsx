//! One row of the visitor stream, with the fields spec part 2 lists, in its order.
import type { StreamSession } from "../../api/visitorStream";
import { formatValue } from "../../lib/format";
import { relativeTime } from "../../lib/time";
import { activityText, avatarText, browserText, deviceText, locationText, minutesSeconds, sourceText } from "../../lib/visitorStream";
import { Badge } from "../ui/primitives";

export function SessionRow({ session, now, onOpen }: { session: StreamSession; now: number; onOpen: () => void }) {
  return (
    <li>
      <button
        type="button"
        onClick={onOpen}
        data-testid="stream-session"
        className="flex w-full flex-col gap-3 rounded-lg border border-gray-800 bg-gray-900/40 p-3 text-left md:p-4 transition-colors hover:border-gray-700 hover:bg-gray-800/40 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-400 md:flex-row md:items-center"
      >
        <div className="flex min-w-0 flex-1 items-center gap-3">
          <span
            aria-hidden
            className="flex h-10 w-10 shrink-0 items-center justify-center rounded-full bg-indigo-500/20 text-sm font-semibold text-indigo-200"
          >
            {avatarText(session.country)}
          </span>
          <div className="min-w-0">
            <p className="truncate text-sm font-medium text-white" data-testid="stream-location">
              {locationText(session)}
            </p>
            <p className="truncate text-xs text-gray-400">
              {deviceText(session.deviceType)} · {browserText(session.browser)} · {relativeTime(session.firstSeen, now)}
            </p>
          </div>
        </div>
        <div className="flex flex-wrap items-center gap-x-4 gap-y-2 text-xs text-gray-300">
          <Badge tone={session.isConverted ? "green" : "blue"}>{session.isConverted ? "Converted" : "Browsing"}</Badge>
          <span title="Duration">{minutesSeconds(session.sessionDuration)}</span>
          <span>
            {session.pageViewCount} {session.pageViewCount === 1 ? "page" : "pages"}
          </span>
          <span className="max-w-40 truncate" title="Source">
            {sourceText(session)}
          </span>
        </div>
        <div className="flex min-w-0 items-center gap-3 md:w-72">
          <p className="min-w-0 flex-1 truncate text-xs text-gray-400" data-testid="stream-activity">
            {session.currentActivity.isActive && <span aria-hidden className="mr-1.5 inline-block h-2 w-2 rounded-full bg-emerald-400" />}
            {activityText(session)}
          </p>
          <span className="shrink-0 rounded-md border border-gray-800 bg-gray-950/60 px-2 py-1 text-xs font-medium text-emerald-300" title="Conversion value">
            {formatValue(session.conversionValue)}
          </span>
        </div>
      </button>
    </li>
  );
}
