//! The replay list (spec part 2 "Session Replays"): session, visitor, organization, duration, started,
//! status and Watch. A view component: the page reads the data.
import type { ReplaySummary } from "../../api/replays";
import { countryName } from "../../lib/format";
import { addressPrefix, formatBytes, formatClock, formatStarted, sessionLabel } from "../../lib/replays";
import { relativeTime } from "../../lib/time";
import { IconEye } from "../ui/icons";
import { Badge, Button } from "../ui/primitives";

const HEAD = ["Session", "Visitor", "Organization", "Duration", "Started", "Status", ""];

export function ReplayTable({ replays, onWatch }: { replays: ReplaySummary[]; onWatch: (r: ReplaySummary) => void }) {
  return (
    <div className="relative overflow-x-auto">
      <table className="w-full min-w-[56rem] text-left text-sm" data-testid="replay-table">
        <thead>
          <tr className="border-b border-gray-800 text-xs uppercase tracking-wide text-gray-500">
            {HEAD.map((h) => (
              <th key={h || "actions"} scope="col" className="px-4 py-3 font-medium">
                {h || <span className="sr-only">Actions</span>}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-gray-800/70">
          {replays.map((r) => (
            <tr key={r.id} className="align-top hover:bg-gray-800/30" data-testid="replay-row" data-session={r.sessionId}>
              <td className="px-4 py-3">
                <p className="font-mono text-gray-100" title={r.sessionId}>
                  {sessionLabel(r.sessionId)}
                </p>
                <p className="text-xs text-gray-500">{r.screenResolution || "Unknown"}</p>
              </td>
              <td className="px-4 py-3">
                <p className="text-gray-100">
                  {r.session.deviceType || "Unknown"} · {r.session.browser || "Unknown"}
                </p>
                <p className="text-xs text-gray-500">
                  {countryName(r.session.country)} · <span className="font-mono">{addressPrefix(r.session.ipAddress)}</span>
                </p>
              </td>
              <td className="px-4 py-3">
                {r.organization ? (
                  <>
                    <p className="text-gray-100">{r.organization.organizationName}</p>
                    <p className="text-xs text-gray-500">{r.organization.industry || "-"}</p>
                  </>
                ) : (
                  <span className="text-gray-500">-</span>
                )}
              </td>
              <td className="px-4 py-3">
                <p className="tabular-nums text-gray-100">{formatClock(r.duration)}</p>
                <p className="text-xs text-gray-500">{formatBytes(r.fileSize)}</p>
              </td>
              <td className="px-4 py-3">
                <p className="text-gray-100">{relativeTime(r.startTime)}</p>
                <p className="text-xs text-gray-500">{formatStarted(r.startTime)}</p>
              </td>
              <td className="px-4 py-3">
                {r.isComplete ? <Badge tone="green">Complete</Badge> : <Badge tone="yellow">Recording</Badge>}
              </td>
              <td className="px-4 py-3 text-right">
                <Button size="sm" variant="outline" onClick={() => onWatch(r)}>
                  <IconEye />
                  Watch
                </Button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
